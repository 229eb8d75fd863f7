// The IndexedDB adapter of the store port (../port.ts): the worker's and the page's store.
export { openIndexedDbStore, type IndexedDbStoreOptions } from './open-store.js';
