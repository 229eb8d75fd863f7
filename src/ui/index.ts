export { escapeHtml } from './escape-html.js';
export { renderLeaderboardFragment, type LeaderboardFragmentOptions } from './leaderboard-fragment.js';
export * from './leaderboard-model.js';
export { leaderboardCss } from './leaderboard-styles.js';
