import { css } from 'lit';
import { cardSurface } from '../shared/base-styles.js';

export const userCardStyles = css`
  :host {
    --qb-user-card-bar-height: 0.5em;
    --_qb-bar-height: var(--qb-user-card-bar-height);
    --qb-user-card-bar-color: var(--_qb-accent);
  }
  .card {
    ${cardSurface}
  }
  .header {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    justify-content: space-between;
    gap: calc(var(--_qb-space) * 2 / 3);
    margin: 0 0 calc(var(--_qb-space) * 2 / 3);
  }
  .name {
    margin: 0;
    font-weight: 600;
    font-size: 1.0625em;
    overflow-wrap: anywhere;
  }
  .level {
    margin: 0;
    color: var(--_qb-text-muted);
  }
  .bar-fill {
    background: var(--qb-user-card-bar-color);
  }
  .xp-label {
    margin: calc(var(--_qb-space) / 3) 0 var(--_qb-space);
    color: var(--_qb-text-muted);
    font-size: 0.875em;
    font-variant-numeric: tabular-nums;
  }
  .stats {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9em, 1fr));
    gap: calc(var(--_qb-space) * 2 / 3) calc(var(--_qb-space) * 4 / 3);
    margin: 0 0 var(--_qb-space);
  }
  .stat dt {
    color: var(--_qb-text-muted);
    font-size: 0.8125em;
  }
  .stat dd {
    margin: 0;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  qb-user-highlights {
    /* Its row's room (its badge images' default size), kept while its file loads: the tag is unknown until then. */
    display: block;
    min-height: 1.5em;
  }
`;
