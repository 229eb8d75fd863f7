// The look every Questboard root shares — each element's :host and the HTML fragment's
// `.qb-lb` — in one place: the palette (light and dark), the sizes, the text styles a root
// must not take from its host page, and how its colour scheme is chosen.
import { css } from './css.js';

/** The default colours; a page overrides any of them with the matching `--qb-color-<name>` property. */
export const PALETTE = {
  surface: { light: '#ffffff', dark: '#161b22' },
  'surface-alt': { light: '#f6f8fa', dark: '#1f252d' },
  text: { light: '#1b1f24', dark: '#e6edf3' },
  'text-muted': { light: '#57606a', dark: '#9da7b3' },
  border: { light: '#d0d7de', dark: '#30363d' },
  accent: { light: '#0b5cad', dark: '#58a6ff' },
  'on-accent': { light: '#ffffff', dark: '#0d1117' },
  success: { light: '#1a7f37', dark: '#3fb950' },
  danger: { light: '#c62828', dark: '#ff7b72' },
  focus: { light: '#0b5cad', dark: '#58a6ff' },
  track: { light: '#d8dee4', dark: '#30363d' },
  highlight: { light: '#fff4c2', dark: '#3d3410' },
} as const;

export type ColorName = keyof typeof PALETTE;
export type ColorScheme = 'light' | 'dark';
/** What a site asks for: a scheme, or `auto` (its page's `color-scheme` where it sets one, else the OS's). */
export type Theme = ColorScheme | 'auto';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark' || value === 'auto';
}

/**
 * Set on a root (by the element itself, or by the embed on the fragment) when its scheme was
 * chosen rather than left to the OS: by its `theme`, by configure(), or by its host page's
 * `color-scheme`. Without it, the root follows `prefers-color-scheme`.
 */
export const SCHEME_ATTRIBUTE = 'data-qb-scheme';

/** The text size everything else is measured from: px, so a root font size of 62.5% does not shrink it. */
const DEFAULT_FONT_SIZE = '15px';

function colors(scheme: ColorScheme): string {
  return Object.entries(PALETTE)
    .map(([name, values]) => `--_qb-${name}: var(--qb-color-${name}, ${values[scheme]});`)
    .join('\n');
}

/**
 * The rules of one root. `at(condition)` is the root's selector, narrowed by `condition` when
 * one is given: `:host(…)` for an element, `.qb-lb…` for the fragment.
 */
export function rootCss(at: (condition?: string) => string): string {
  const light = `[${SCHEME_ATTRIBUTE}='light']`;
  const dark = `[${SCHEME_ATTRIBUTE}='dark']`;
  return css`
${at()} {
  ${colors('light')}
  --_qb-font-size: var(--qb-font-size, ${DEFAULT_FONT_SIZE});
  --_qb-space: var(--qb-space, calc(var(--_qb-font-size) * 0.8));
  --_qb-radius: var(--qb-radius, 8px);
  --_qb-duration: var(--qb-duration, 200ms);
  color-scheme: light dark;
  display: block;
  box-sizing: border-box;
  /* Each root paints its own surface, so its text stays readable whichever scheme the page uses. */
  background: var(--_qb-surface);
  color: var(--_qb-text);
  border-radius: var(--_qb-radius);
  /* Inherited text styles of the host page stop here (a theme's uppercase headings would
     change case-sensitive member names). The shorthand resets style, weight, variant and stretch. */
  font: 400 var(--_qb-font-size) / 1.4 var(--qb-font-family, system-ui, sans-serif);
  font-feature-settings: normal;
  font-variation-settings: normal;
  font-kerning: auto;
  letter-spacing: normal;
  word-spacing: normal;
  text-transform: none;
  text-indent: 0;
  text-align: start;
  text-shadow: none;
  white-space: normal;
  word-break: normal;
  overflow-wrap: normal;
  hyphens: manual;
  writing-mode: horizontal-tb;
}
@media (prefers-color-scheme: dark) {
  ${at(`:not(${light})`)} {
    ${colors('dark')}
  }
}
${at(light)} {
  color-scheme: light;
}
${at(dark)} {
  color-scheme: dark;
  ${colors('dark')}
}
`;
}
