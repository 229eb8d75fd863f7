// What the Node tests of the SQL store use, bundled for them by scripts/bundle-node.js.
export { createHandler } from '../../src/server/handler.js';
export { migrate, openSqlStore, pgliteDriver, postgresDriver } from '../../src/store/sql/index.js';
