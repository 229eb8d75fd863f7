import { css, unsafeCSS } from 'lit';
import { paletteColor, type ColorName, type ColorScheme } from '../../ui/palette.js';

/** A palette colour for a stylesheet: our own constant, never input, so unsafeCSS is safe here. */
const color = (name: ColorName, scheme: ColorScheme) => unsafeCSS(paletteColor(name, scheme));

/**
 * The design tokens every component reads. Set any `--qb-*` property on the page (or on one
 * element) to theme them; the fallbacks below follow the user's color scheme:
 * --qb-color-surface, --qb-color-surface-alt, --qb-color-text, --qb-color-text-muted,
 * --qb-color-border, --qb-color-accent, --qb-color-on-accent, --qb-color-success,
 * --qb-color-danger, --qb-color-focus, --qb-color-track, --qb-color-highlight, --qb-radius,
 * --qb-space, --qb-duration, --qb-font-family, --qb-font-size.
 */
export const tokens = css`
  :host {
    --_qb-surface: ${color('surface', 'light')};
    --_qb-surface-alt: ${color('surface-alt', 'light')};
    --_qb-text: ${color('text', 'light')};
    --_qb-muted: ${color('text-muted', 'light')};
    --_qb-border: ${color('border', 'light')};
    --_qb-accent: ${color('accent', 'light')};
    --_qb-on-accent: ${color('on-accent', 'light')};
    --_qb-success: ${color('success', 'light')};
    --_qb-danger: ${color('danger', 'light')};
    --_qb-focus: ${color('focus', 'light')};
    --_qb-track: ${color('track', 'light')};
    --_qb-radius: var(--qb-radius, 8px);
    --_qb-space: var(--qb-space, 0.75rem);
    --_qb-duration: var(--qb-duration, 200ms);
    display: block;
    box-sizing: border-box;
    color-scheme: light dark;
    /* Each element paints its own surface, so its text stays readable whichever scheme the page uses. */
    background: var(--_qb-surface);
    color: var(--_qb-text);
    border-radius: var(--_qb-radius);
    font-family: var(--qb-font-family, system-ui, sans-serif);
    font-size: var(--qb-font-size, 0.9375rem);
    line-height: 1.4;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_qb-surface: ${color('surface', 'dark')};
      --_qb-surface-alt: ${color('surface-alt', 'dark')};
      --_qb-text: ${color('text', 'dark')};
      --_qb-muted: ${color('text-muted', 'dark')};
      --_qb-border: ${color('border', 'dark')};
      --_qb-accent: ${color('accent', 'dark')};
      --_qb-on-accent: ${color('on-accent', 'dark')};
      --_qb-success: ${color('success', 'dark')};
      --_qb-danger: ${color('danger', 'dark')};
      --_qb-focus: ${color('focus', 'dark')};
      --_qb-track: ${color('track', 'dark')};
    }
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 2px solid var(--_qb-focus);
    outline-offset: 2px;
  }
  .qb-status,
  .qb-empty {
    margin: 0;
    padding: var(--_qb-space);
    color: var(--_qb-muted);
  }
  .qb-kept {
    margin: 0;
    padding: calc(var(--_qb-space) / 3) var(--_qb-space);
    font-size: 0.8125em;
    color: var(--_qb-muted);
    background: var(--_qb-surface-alt);
    border-radius: var(--_qb-radius) var(--_qb-radius) 0 0;
  }
  .qb-error {
    margin: 0;
    padding: var(--_qb-space);
    color: var(--_qb-danger);
  }
  .qb-button {
    font: inherit;
    padding: 0.375rem 0.875rem;
    border: 1px solid var(--_qb-accent);
    border-radius: var(--_qb-radius);
    background: var(--_qb-accent);
    color: var(--_qb-on-accent);
    cursor: pointer;
  }
  .qb-button--quiet {
    background: transparent;
    color: var(--_qb-accent);
  }
  /* Muted colours rather than opacity: a translucent button drops below AA contrast (3.9:1 at 0.75). */
  .qb-button[aria-disabled='true'],
  .qb-button:disabled {
    cursor: default;
    border-color: var(--_qb-border);
    background: var(--_qb-surface-alt);
    color: var(--_qb-muted);
  }
  .qb-visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  /* Entering a disabled state snaps (the transition belongs to the enabled state only): a member who
     just pressed the button sees at once that it took. */
  @media (prefers-reduced-motion: no-preference) {
    .qb-button:not(:disabled, [aria-disabled='true']) {
      transition: background-color var(--_qb-duration) ease-out, color var(--_qb-duration) ease-out;
    }
  }
`;
