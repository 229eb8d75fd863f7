import { css } from '../shared/kit.js';

export const seasonPickerStyles = css`
  :host {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_qb-space) / 2);
  }
  select {
    font: inherit;
    color: var(--_qb-text);
    background: var(--_qb-surface);
    border: 1px solid var(--_qb-border);
    border-radius: var(--_qb-radius);
    padding: calc(var(--_qb-space) / 4) calc(var(--_qb-space) / 2);
  }
  select:focus-visible {
    outline: 2px solid var(--_qb-focus);
    outline-offset: 2px;
  }
`;
