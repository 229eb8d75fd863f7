// The store as the rules see it: the port and the records. Each adapter is
// opened from its own folder (indexeddb/, sql/), so a bundle carries only its own.
export * from './port.js';
export * from './records.js';
export * from './rate-counters.js';
