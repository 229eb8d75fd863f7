import { announceChange } from './changes.js';
import type { Transport } from './transport.js';
import type { createHandler, Handle } from '../handler/handler.js';
import type { openIndexedDbStore } from '../store/indexeddb/index.js';
import type { RemoteConfiguration } from '../remote/remote-first.js';
import type { remoteFirstInPage } from '../remote/remote-first-page.js';

/** The server side the in-page transport runs: what src/embed/in-page-server.ts exports. */
export interface InPageServer {
  createHandler: typeof createHandler;
  openIndexedDbStore: typeof openIndexedDbStore;
  remoteFirstInPage: typeof remoteFirstInPage;
}

export type InPageServerLoader = () => Promise<InPageServer>;

export interface InPageTransportOptions {
  /** IndexedDB database name; the worker and every page of the origin share the default. */
  dbName?: string;
  /**
   * A remote to answer first, the local store standing in when it cannot be reached. Without
   * one, a remote kept by an earlier page (the setting is shared with the worker) is cleared.
   */
  remote?: RemoteConfiguration;
}

export type InPageTransport = Transport & {
  /** Closes the database connections, so that tests can delete the databases. */
  close(): Promise<void>;
};

/**
 * Runs the API handler inside the page, for pages no service worker can serve, wrapped like
 * the worker's in the remote-first strategy (which passes through while no remote is set).
 * The server code is loaded on first use by `loadServer`: bundler users import it, the
 * script-tag embed fetches it next to itself, so neither carries it until a page needs it.
 */
export function createInPageTransport(loadServer: InPageServerLoader, options: InPageTransportOptions = {}): InPageTransport {
  let loaded: Promise<{ handle: Handle; close(): void }> | undefined;
  const load = async () => {
    const server = await loadServer();
    const store = server.openIndexedDbStore(options.dbName === undefined ? {} : { name: options.dbName });
    const local = server.createHandler({ store, onChange: announceChange });
    const remote = server.remoteFirstInPage(local, {
      onChange: announceChange,
      ...(options.dbName === undefined ? {} : { databaseName: `${options.dbName}-remote` }),
    });
    await remote.configure(options.remote ?? { remote: null });
    return {
      handle: remote.handle,
      close() {
        remote.close();
        // IndexedDB closes at once; the promise is for adapters that close a connection.
        void store.close();
      },
    };
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
      if (current) (await current).close();
    },
  };
}

// The handler routes on the path only; requests need an absolute URL all the same.
const IN_PAGE_ORIGIN = 'https://questboard.invalid/';
