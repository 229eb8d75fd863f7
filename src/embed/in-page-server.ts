// dist/questboard-inpage.js: the API handler, store and remote-first strategy as one ES
// module, which the embed imports from beside itself only on pages that no service worker
// serves. Kept out of dist/questboard.js so the embed stays within its size budget.
export { createHandler } from '../handler/handler.js';
export { openIndexedDbStore } from '../store/indexeddb/index.js';
export { remoteFirstInPage } from '../remote/remote-first-page.js';
