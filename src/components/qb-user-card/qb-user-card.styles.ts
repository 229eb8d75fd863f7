import { css } from 'lit';

export const userCardStyles = css`
  :host {
    --qb-user-card-bar-height: 0.5rem;
    --_qb-bar-height: var(--qb-user-card-bar-height);
    --qb-user-card-bar-color: var(--_qb-accent);
  }
  .card {
    padding: var(--_qb-space);
    border: 1px solid var(--_qb-border);
    border-radius: var(--_qb-radius);
    background: var(--_qb-surface);
  }
  .header {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: 0.5rem;
    margin: 0 0 0.5rem;
  }
  .name {
    margin: 0;
    font-weight: 600;
    font-size: 1.0625em;
    overflow-wrap: anywhere;
  }
  .level {
    margin: 0;
    color: var(--_qb-muted);
  }
  .bar-fill {
    background: var(--qb-user-card-bar-color);
  }
  .xp-label {
    margin: 0.25rem 0 0.75rem;
    color: var(--_qb-muted);
    font-size: 0.875em;
    font-variant-numeric: tabular-nums;
  }
  .stats {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr));
    gap: 0.5rem 1rem;
    margin: 0;
  }
  .stat {
    margin: 0;
  }
  .stat dt {
    color: var(--_qb-muted);
    font-size: 0.8125em;
  }
  .stat dd {
    margin: 0;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
`;
