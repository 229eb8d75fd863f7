import { announceChange } from './changes.js';
import type { Transport } from './transport.js';
import type { Handle } from '../server/handler.js';
import type { Store } from '../store/index.js';

export interface InPageTransportOptions {
  /** IndexedDB database name; the worker and every page of the origin share the default. */
  dbName?: string;
}

/**
 * Runs the API handler inside the page, for pages no service worker can serve. The handler
 * is imported on first use, so code that only ever talks to a worker does not load it.
 */
export function inPageTransport(options: InPageTransportOptions = {}): Transport & { close(): Promise<void> } {
  let loaded: Promise<{ handle: Handle; store: Store }> | undefined;
  const load = async () => {
    const [{ createHandler }, { openStore }] = await Promise.all([
      import('../server/handler.js'),
      import('../store/index.js'),
    ]);
    const store = openStore(options.dbName === undefined ? {} : { name: options.dbName });
    return { handle: createHandler({ store, onChange: announceChange }), store };
  };
  return {
    kind: 'in-page',
    id: `in-page ${options.dbName ?? ''}`,
    announcesChanges: true,
    async send(path, init) {
      loaded ??= load().catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      const { handle } = await loaded;
      return handle(new Request(new URL(path, IN_PAGE_ORIGIN), init));
    },
    /** Closes the database connection, so that tests can delete the database. */
    async close() {
      const current = loaded;
      loaded = undefined;
      if (current) (await current).store.close();
    },
  };
}

// The handler routes on the path only; requests need an absolute URL all the same.
const IN_PAGE_ORIGIN = 'https://questboard.invalid/';
