import { css, cardSurface } from '../shared/kit.js';

export const achievementsStyles = css`
  :host {
    --qb-achievements-image-size: 2.5em;
    --qb-achievements-bar-color: var(--_qb-accent);
    --qb-achievements-locked-opacity: 0.65;
    --_qb-bar-height: 0.4em;
  }
  .card {
    ${cardSurface}
  }
  .heading {
    margin: 0 0 calc(var(--_qb-space) * 2 / 3);
    font-size: 1.0625em;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .streak {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(8em, 1fr));
    gap: calc(var(--_qb-space) * 2 / 3) calc(var(--_qb-space) * 4 / 3);
    margin: 0 0 var(--_qb-space);
  }
  .streak dt,
  .badge-count,
  .description,
  .standing {
    color: var(--_qb-text-muted);
    font-size: 0.8125em;
  }
  .streak dd {
    margin: 0;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .badge-count {
    margin: 0 0 calc(var(--_qb-space) * 2 / 3);
  }
  .badges {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(14em, 1fr));
    gap: calc(var(--_qb-space) * 2 / 3);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .badge {
    display: flex;
    gap: calc(var(--_qb-space) * 2 / 3);
    align-items: flex-start;
    padding: calc(var(--_qb-space) * 2 / 3);
    border: 1px solid var(--_qb-border);
    border-radius: var(--_qb-radius);
  }
  .badge:not(.earned) .image {
    opacity: var(--qb-achievements-locked-opacity);
    filter: grayscale(1);
  }
  .image {
    flex: none;
    width: var(--qb-achievements-image-size);
    height: var(--qb-achievements-image-size);
    object-fit: contain;
  }
  .mark {
    display: grid;
    place-items: center;
    font-size: 1.5em;
    color: var(--_qb-accent);
  }
  .text {
    min-width: 0;
    flex: 1;
  }
  .name,
  .description,
  .standing {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .name {
    font-weight: 600;
  }
  .bar {
    margin-top: calc(var(--_qb-space) / 3);
  }
  .bar-fill {
    background: var(--qb-achievements-bar-color);
  }
`;
