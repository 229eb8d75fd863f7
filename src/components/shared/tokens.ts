import { css } from 'lit';

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
    --_qb-surface: var(--qb-color-surface, #ffffff);
    --_qb-surface-alt: var(--qb-color-surface-alt, #f6f8fa);
    --_qb-text: var(--qb-color-text, #1b1f24);
    --_qb-muted: var(--qb-color-text-muted, #57606a);
    --_qb-border: var(--qb-color-border, #d0d7de);
    --_qb-accent: var(--qb-color-accent, #0b5cad);
    --_qb-on-accent: var(--qb-color-on-accent, #ffffff);
    --_qb-success: var(--qb-color-success, #1a7f37);
    --_qb-danger: var(--qb-color-danger, #c62828);
    --_qb-focus: var(--qb-color-focus, #0b5cad);
    --_qb-track: var(--qb-color-track, #d8dee4);
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
      --_qb-surface: var(--qb-color-surface, #161b22);
      --_qb-surface-alt: var(--qb-color-surface-alt, #1f252d);
      --_qb-text: var(--qb-color-text, #e6edf3);
      --_qb-muted: var(--qb-color-text-muted, #9da7b3);
      --_qb-border: var(--qb-color-border, #30363d);
      --_qb-accent: var(--qb-color-accent, #58a6ff);
      --_qb-on-accent: var(--qb-color-on-accent, #0d1117);
      --_qb-success: var(--qb-color-success, #3fb950);
      --_qb-danger: var(--qb-color-danger, #ff7b72);
      --_qb-focus: var(--qb-color-focus, #58a6ff);
      --_qb-track: var(--qb-color-track, #30363d);
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
