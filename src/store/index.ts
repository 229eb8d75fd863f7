// The IndexedDB store, as the rules see it: open it, run work in a transaction,
// and the queries over boards and app data. Only re-exports.
export type { StoreName } from './schema.js';
export * from './records.js';
export { Transaction } from './transaction.js';
export { openStore, type Store, type StoreOptions } from './open-store.js';
export * from './boards.js';
export * from './app-data.js';
