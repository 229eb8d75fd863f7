import { css } from 'lit';

/**
 * The filled bar of the XP and task progress elements: `.bar` with a `.bar-fill`
 * whose width is the `--qb-fill` fraction; height and colour come from each element.
 */
export const barStyles = css`
  .bar {
    border-radius: calc(var(--_qb-bar-height) / 2);
    block-size: var(--_qb-bar-height);
    background: var(--_qb-track);
    overflow: hidden;
  }
  .bar-fill {
    block-size: 100%;
    inline-size: calc(var(--qb-fill, 0) * 100%);
  }
  @media (prefers-reduced-motion: no-preference) {
    .bar-fill {
      transition: inline-size var(--_qb-duration) ease-out;
    }
  }
  @media (forced-colors: active) {
    .bar {
      border: 1px solid CanvasText;
    }
    .bar-fill {
      background: Highlight;
    }
  }
`;
