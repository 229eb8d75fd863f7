import { css } from '../shared/kit.js';

export const userHighlightsStyles = css`
  :host {
    --qb-user-highlights-image-size: 1.5em;
    display: block;
    /* One row, whatever the state: the card around it does not jump when the answer comes. */
    min-block-size: var(--qb-user-highlights-image-size);
  }
  .qb-status,
  .qb-empty,
  .qb-error {
    padding: 0;
    font-size: 0.875em;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_qb-space) / 3) var(--_qb-space);
  }
  .streak {
    display: flex;
    gap: 0.35em;
    align-items: baseline;
    margin: 0;
  }
  .label,
  .more {
    color: var(--_qb-text-muted);
    font-size: 0.875em;
  }
  .days {
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .badges {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_qb-space) / 3) calc(var(--_qb-space) * 2 / 3);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .badge {
    display: flex;
    gap: 0.35em;
    align-items: center;
    min-width: 0;
  }
  .image {
    flex: none;
    width: var(--qb-user-highlights-image-size);
    height: var(--qb-user-highlights-image-size);
    object-fit: contain;
  }
  .mark {
    display: grid;
    place-items: center;
    color: var(--_qb-accent);
  }
  .name {
    font-size: 0.875em;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
`;
