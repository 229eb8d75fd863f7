// The Questboard server's store and handler in process, for the tests of a describe block.
import { afterEach, beforeEach } from 'node:test';

/** @typedef {typeof import('../../src/server/server-store.js') & typeof import('../../src/handler/handler.js')} MemoryServerSource */

/**
 * Gives each test of the describe block that calls it a server store of its own, in memory, and
 * the handler over it: built from `source()` (the test file's importSource, with
 * src/server/server-store.ts and src/handler/handler.ts), closed after the test.
 * @param {() => MemoryServerSource} source
 */
export function memoryServerPerTest(source) {
  // Set before each test; the tests read them only then.
  const server =
    /** @type {{ store: import('../../src/store/sql/index.js').SqlStore, handle: import('../../src/handler/handler.js').Handle }} */ ({});
  beforeEach(async () => {
    server.store = await source().openServerStore({ memory: true });
    server.handle = source().createHandler({ store: server.store });
  });
  afterEach(() => server.store.close());
  return server;
}
