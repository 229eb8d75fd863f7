// The elements the script-tag embed loads on demand (./shared/lazy-elements.ts), for the ES
// modules, which define them up front like the others: importing this module defines them.
export { QbAchievements } from './qb-achievements/qb-achievements.js';
export { QbSeasonPicker, type QbSeasonChangeDetail, type QbSeasonChangeEvent } from './qb-season-picker/qb-season-picker.js';
export { QbQuestTask } from './qb-quest-task/qb-quest-task.js';
export { QbUserHighlights } from './qb-user-highlights/qb-user-highlights.js';
export { QbConnectSocial, type QbConnectSocialDetail, type QbConnectSocialEvent } from './qb-connect-social/qb-connect-social.js';
