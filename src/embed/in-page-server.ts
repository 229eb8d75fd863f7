// dist/questboard-inpage.js: the API handler and store as one ES module, which the embed
// imports from beside itself only on pages that no service worker serves. Kept out of
// dist/questboard.js so the embed stays within its size budget.
export { createHandler } from '../server/handler.js';
export { openStore } from '../store/index.js';
