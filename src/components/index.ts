// Importing this module defines every element (safely, see defineElement).
export { QbLeaderboard } from './qb-leaderboard/qb-leaderboard.js';
export { QbUserCard } from './qb-user-card/qb-user-card.js';
export { QbTaskProgress } from './qb-task-progress/qb-task-progress.js';
export { QbEndorseButton, type QbEndorseDetail, type QbEndorseEvent } from './qb-endorse-button/qb-endorse-button.js';
export { QbChallenge } from './qb-challenge/qb-challenge.js';
export { QUESTBOARD_VERSION } from './shared/version.js';
