import { css } from 'lit';
import { cardSurface } from '../shared/base-styles.js';

export const challengeStyles = css`
  :host {
    --qb-challenge-gap: var(--_qb-space);
  }
  .card {
    ${cardSurface}
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
  /* The tasks are rows of this card, not cards of their own. */
  .tasks qb-task-progress::part(task) {
    padding: 0;
    border: 0;
    background: none;
  }
  /*
   * A row loading or not started takes the height of a row with progress (a line, the gap
   * and the bar), so the card does not shrink as each row loads: padded as a card's status,
   * each row moved the page below by 12 px.
   */
  .tasks qb-task-progress::part(status),
  .tasks qb-task-progress::part(empty) {
    padding: 0 0 calc(var(--_qb-space) / 3 + var(--_qb-bar-height));
  }
  .task-name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .task-quantity {
    color: var(--_qb-text-muted);
  }
`;
