// The ES module entry for bundler users: the typed client, the page-wide configuration and
// every element (importing this module defines them).
export * from './client/index.js';
export * from './components/index.js';
export { renderLeaderboardFragment, type LeaderboardFragmentOptions } from './ui/index.js';
