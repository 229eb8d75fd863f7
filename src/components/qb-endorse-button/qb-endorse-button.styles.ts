import { css } from 'lit';

export const endorseButtonStyles = css`
  :host {
    display: inline-block;
  }
  .wrapper {
    display: inline-flex;
    flex-direction: column;
    align-items: flex-start;
    gap: calc(var(--_qb-space) / 3);
  }
  .done {
    border-color: var(--_qb-success);
    background: var(--_qb-success);
    color: var(--_qb-on-accent);
  }
  .message {
    margin: 0;
    font-size: 0.875em;
    color: var(--_qb-danger);
  }
  .message:empty {
    display: none;
  }
`;
