// How the demo pages reach the /v1 API: through the page-wide configuration
// the components use, so the presenter's controls and the widgets share one
// transport — the service worker when this browser lets us register it,
// otherwise the same handler inside the page (both over the origin's one database).
// `?worker=none` in the address shows the second path on purpose. The pages
// hold the member key, and sign in as the member they show (member-tokens.ts).
import { configure, resolveTransport, type ResolvedTransport } from '../src/client/index.js';
import { DEMO_MEMBER_KEY } from './dataset.js';
import { signMemberToken } from './member-tokens.js';

export const WORKER_URL = '/questboard-sw.js';

/** The Questboard server every browser shares, in `npm run start:shared` (scripts/demo-shared.js); none in `npm start`. */
export const SHARED_SERVER: string | undefined = import.meta.env.VITE_QUESTBOARD_SERVER;

/**
 * What the pages say of where the API runs and the data lives, on a shared server; their own
 * text (index.html) says it for `npm start`, where it all stays in this browser.
 */
export const SHARED_HOME =
  SHARED_SERVER === undefined
    ? undefined
    : {
        api: `runs on the Questboard server at ${SHARED_SERVER}, which every browser on this demo shares`,
        data: `Data lives on the shared Questboard server (${SHARED_SERVER}); this browser keeps a copy to show while it is away.`,
      };

/** `member`: whom the page is signed in as, its elements writing as them; none for a page that only reads. */
export function connect(member?: string): Promise<ResolvedTransport> {
  const withoutWorker = new URLSearchParams(location.search).get('worker') === 'none';
  configure({
    apiKey: DEMO_MEMBER_KEY,
    memberToken: member === undefined ? undefined : () => signMemberToken(member),
    serviceWorker: withoutWorker ? 'none' : WORKER_URL,
    ...(SHARED_SERVER === undefined ? {} : { remote: SHARED_SERVER }),
  });
  return resolveTransport();
}

export function describeTransport({ transport, reason }: ResolvedTransport): string {
  const local = transport.kind === 'service-worker' ? 'service worker' : `in-page handler (${reason})`;
  return SHARED_SERVER === undefined ? local : `${local}, shared server ${SHARED_SERVER}`;
}
