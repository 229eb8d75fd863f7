import {
  createInPageTransport,
  type InPageServer,
  type InPageTransport,
  type InPageTransportOptions,
} from './in-page-transport.js';

/** The handler, store and remote-first strategy from this package, imported on first use (a separate chunk for bundlers). */
export async function loadBundledServer(): Promise<InPageServer> {
  const [{ createHandler }, { openIndexedDbStore }, { remoteFirstInPage }] = await Promise.all([
    import('../handler/handler.js'),
    import('../store/indexeddb/index.js'),
    import('../remote/remote-first-page.js'),
  ]);
  return { createHandler, openIndexedDbStore, remoteFirstInPage };
}

/** The in-page transport with this package's own handler: `createHandler({ store: openIndexedDbStore() })`. */
export function inPageTransport(options: InPageTransportOptions = {}): InPageTransport {
  return createInPageTransport(loadBundledServer, options);
}
