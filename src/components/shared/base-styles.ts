import { css, unsafeCSS } from 'lit';
import { rootCss } from '../../ui/theme.js';

/**
 * What every element's shadow root starts with: its host themed as src/ui/theme.ts says (the
 * fragment's root is too), and the parts every element shares. A page themes the elements
 * with the global `--qb-*` properties, listed (with `--qb-stack-gap`) on QuestboardElement.
 */
export const tokens = css`
  ${unsafeCSS(rootCss((condition) => (condition ? `:host(${condition})` : ':host')))}
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
    color: var(--_qb-text-muted);
  }
  .qb-kept {
    margin: 0;
    padding: calc(var(--_qb-space) / 3) var(--_qb-space);
    font-size: 0.8125em;
    color: var(--_qb-text-muted);
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
    padding: calc(var(--_qb-space) / 2) calc(var(--_qb-space) * 7 / 6);
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
    color: var(--_qb-text-muted);
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

/**
 * The elements that stand on their own as cards (all but the endorse button): apart from the
 * next element by `--qb-stack-gap`, so stacked elements never touch.
 */
export const cardHost = css`
  :host(:not(:last-child)) {
    margin-block-end: var(--qb-stack-gap, var(--_qb-space));
  }
`;

/** The surface a card element's content sits on, the same in every element. */
export const cardSurface = css`
  padding: var(--_qb-space);
  border: 1px solid var(--_qb-border);
  border-radius: var(--_qb-radius);
  background: var(--_qb-surface);
`;
