import { css, unsafeCSS } from 'lit';
import { leaderboardCss } from '../../ui/leaderboard-styles.js';

// The table's look is the HTML fragment's (src/ui); this adds only what the element has beyond it.
export const leaderboardStyles = [
  unsafeCSS(leaderboardCss),
  css`
    .more {
      display: flex;
      justify-content: center;
      padding: 0 0.75rem 0.75rem;
    }
  `,
];
