// The elements the script-tag embed loads on demand (src/components/shared/lazy-elements.ts):
// the ES modules define them up front, as every other element.
export { QbQuestTask } from './qb-quest-task/qb-quest-task.js';
