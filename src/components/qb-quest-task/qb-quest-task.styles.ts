import { css } from '../shared/kit.js';

export const questTaskStyles = css`
  :host {
    --qb-quest-task-input-width: 14em;
    display: block;
  }
  form {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_qb-space) / 2);
    align-items: center;
    margin: 0;
  }
  label {
    font-size: 0.875em;
  }
  input {
    inline-size: min(100%, var(--qb-quest-task-input-width));
    padding: 0.35em 0.55em;
    border: 1px solid var(--_qb-border);
    border-radius: var(--_qb-radius);
    background: var(--_qb-surface);
    color: inherit;
    font: inherit;
  }
  input:focus-visible {
    outline: 2px solid var(--_qb-focus);
    outline-offset: 1px;
  }
  input[aria-invalid='true'] {
    border-color: var(--_qb-danger);
  }
  .review,
  .message {
    margin: calc(var(--_qb-space) / 3) 0 0;
    font-size: 0.875em;
  }
  /* Kept, not hidden, while empty: a live region must be there before what it announces. */
  .message:empty {
    margin: 0;
  }
  .message,
  .review.rejected {
    color: var(--_qb-danger);
  }
  .message.done,
  .review.approved {
    color: var(--_qb-success);
  }
  .review.pending {
    color: var(--_qb-text-muted);
  }
`;
