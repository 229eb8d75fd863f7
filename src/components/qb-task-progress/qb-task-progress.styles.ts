import { css } from 'lit';
import { cardSurface } from '../shared/base-styles.js';

export const taskProgressStyles = css`
  :host {
    --qb-task-progress-bar-height: 0.5em;
    --_qb-bar-height: var(--qb-task-progress-bar-height);
    --qb-task-progress-bar-color: var(--_qb-accent);
    --qb-task-progress-complete-color: var(--_qb-success);
  }
  .task {
    ${cardSurface}
    display: grid;
    gap: calc(var(--_qb-space) / 3);
  }
  .heading {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: calc(var(--_qb-space) * 2 / 3);
    margin: 0;
  }
  .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .label {
    color: var(--_qb-text-muted);
    font-variant-numeric: tabular-nums;
  }
  .complete .label {
    color: var(--qb-task-progress-complete-color);
    font-weight: 600;
  }
  .bar-fill {
    background: var(--qb-task-progress-bar-color);
  }
  .complete .bar-fill {
    background: var(--qb-task-progress-complete-color);
  }
`;
