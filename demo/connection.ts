// How the demo pages reach the /v1 API: through the page-wide configuration
// the components use, so the presenter's controls and the widgets share one
// transport — the service worker when this browser lets us register it,
// otherwise the same handler inside the page (both over the origin's one database).
// `?worker=none` in the address shows the second path on purpose.
import { configure, resolveTransport, type ResolvedTransport } from '../src/client/index.js';
import { DEMO_API_KEY } from './dataset.js';

export const WORKER_URL = '/questboard-sw.js';

/** The Questboard server every browser shares, in `npm run start:shared` (scripts/demo-shared.js); none in `npm start`. */
export const SHARED_SERVER: string | undefined = import.meta.env.VITE_QUESTBOARD_SERVER;

export function connect(): Promise<ResolvedTransport> {
  const withoutWorker = new URLSearchParams(location.search).get('worker') === 'none';
  configure({
    apiKey: DEMO_API_KEY,
    serviceWorker: withoutWorker ? 'none' : WORKER_URL,
    ...(SHARED_SERVER === undefined ? {} : { remote: SHARED_SERVER }),
  });
  return resolveTransport();
}

export function describeTransport({ transport, reason }: ResolvedTransport): string {
  const local = transport.kind === 'service-worker' ? 'service worker' : `in-page handler (${reason})`;
  return SHARED_SERVER === undefined ? local : `${local}, shared server ${SHARED_SERVER}`;
}
