// The default colours, light and dark, in one place: the elements' tokens and the HTML
// fragment's style both read them. A page overrides any of them with the matching
// `--qb-color-<name>` property.

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

/** `var(--qb-color-<name>, <default>)`: the page's colour where it sets one, else ours. */
export function paletteColor(name: ColorName, scheme: ColorScheme): string {
  return `var(--qb-color-${name}, ${PALETTE[name][scheme]})`;
}
