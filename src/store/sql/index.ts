// The SQL adapter of the store port (../port.ts): PostgreSQL, or PGlite in
// this process. Only the Node server opens it.
export { openSqlStore, type SqlStore, type SqlStoreOptions } from './open-store.js';
export {
  KEPT_FOR_MS,
  MAX_ATTEMPTS,
  RETRY_DELAYS_MS,
  type AttemptOutcome,
  type ClaimedDelivery,
  type WebhookOutbox,
} from './webhook-outbox.js';
export { migrate, MIGRATIONS } from './migrations.js';
export { pgliteDriver } from './pglite-driver.js';
export { postgresClient, postgresDriver } from './postgres-driver.js';
export { sqlRateCounters } from './rate-counters.js';
export { CHANGE_CHANNEL } from './change-notices.js';
