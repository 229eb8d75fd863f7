import { css, unsafeCSS } from 'lit';
import { leaderboardTableCss } from '../../ui/leaderboard-styles.js';

// The table's look is the HTML fragment's (src/ui); this adds only what the element has beyond it.
export const leaderboardStyles = [
  unsafeCSS(leaderboardTableCss),
  css`
    .more {
      display: flex;
      justify-content: center;
      padding: 0 var(--_qb-space) var(--_qb-space);
    }
  `,
];
