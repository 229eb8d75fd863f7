import { css } from 'lit';

export const challengeStyles = css`
  :host {
    --qb-challenge-gap: var(--_qb-space);
  }
  .card {
    padding: var(--_qb-space);
    border: 1px solid var(--_qb-border);
    border-radius: var(--_qb-radius);
    background: var(--_qb-surface);
  }
  .name {
    margin: 0 0 calc(var(--_qb-space) / 3);
    font-weight: 600;
    font-size: 1.0625em;
    overflow-wrap: anywhere;
  }
  .description {
    margin: 0 0 var(--qb-challenge-gap);
    color: var(--_qb-text-muted);
    overflow-wrap: anywhere;
  }
  .tasks {
    display: grid;
    gap: var(--qb-challenge-gap);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .task-name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .task-quantity {
    color: var(--_qb-text-muted);
  }
`;
