import { cardSurface, css } from '../shared/kit.js';

export const connectSocialStyles = css`
  :host {
    --qb-connect-social-input-width: 17em;
  }
  form {
    ${cardSurface}
    display: grid;
    gap: calc(var(--_qb-space) / 2);
    margin: 0;
  }
  label {
    font-weight: 600;
  }
  .hint {
    margin: 0;
    color: var(--_qb-text-muted);
    font-size: 0.875em;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_qb-space) * 2 / 3);
    align-items: center;
  }
  .field {
    display: inline-flex;
    align-items: center;
    inline-size: min(100%, var(--qb-connect-social-input-width));
    border: 1px solid var(--_qb-border);
    border-radius: var(--_qb-radius);
    background: var(--_qb-surface);
  }
  .field:focus-within {
    outline: 2px solid var(--_qb-focus);
    outline-offset: 1px;
  }
  .field.invalid {
    border-color: var(--_qb-danger);
  }
  .at {
    padding-inline-start: 0.55em;
    color: var(--_qb-text-muted);
  }
  input {
    flex: 1;
    min-inline-size: 0;
    padding-block: 0.4em;
    padding-inline: 0.15em 0.55em;
    border: 0;
    background: transparent;
    color: inherit;
    font: inherit;
  }
  input:focus-visible {
    outline: none;
  }
  .message {
    margin: 0;
    font-size: 0.875em;
  }
  .message.error {
    color: var(--_qb-danger);
  }
  .message.saved {
    color: var(--_qb-success);
  }
`;
