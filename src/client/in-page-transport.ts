import { announceChange } from './changes.js';
import type { Transport } from './transport.js';
import type { createHandler, Handle } from '../server/handler.js';
import type { openStore, Store } from '../store/index.js';

/** The server side the in-page transport runs: what src/embed/in-page-server.ts exports. */
export interface InPageServer {
  createHandler: typeof createHandler;
  openStore: typeof openStore;
}

export type InPageServerLoader = () => Promise<InPageServer>;

export interface InPageTransportOptions {
  /** IndexedDB database name; the worker and every page of the origin share the default. */
  dbName?: string;
}

export type InPageTransport = Transport & {
  /** Closes the database connection, so that tests can delete the database. */
  close(): Promise<void>;
};

/**
 * Runs the API handler inside the page, for pages no service worker can serve. The server
 * code is loaded on first use by `loadServer`: bundler users import it, the script-tag embed
 * fetches it next to itself, so neither carries it until a page needs it.
 */
export function createInPageTransport(loadServer: InPageServerLoader, options: InPageTransportOptions = {}): InPageTransport {
  let loaded: Promise<{ handle: Handle; store: Store }> | undefined;
  const load = async () => {
    const server = await loadServer();
    const store = server.openStore(options.dbName === undefined ? {} : { name: options.dbName });
    return { handle: server.createHandler({ store, onChange: announceChange }), store };
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
    async close() {
      const current = loaded;
      loaded = undefined;
      if (current) (await current).store.close();
    },
  };
}

// The handler routes on the path only; requests need an absolute URL all the same.
const IN_PAGE_ORIGIN = 'https://questboard.invalid/';
