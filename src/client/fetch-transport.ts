import type { Transport } from './transport.js';

/**
 * Requests over fetch to `<baseUrl>v1/…`: a service worker whose scope holds `baseUrl`
 * answers them on the page's own origin, otherwise they reach the remote server there.
 */
export function fetchTransport(baseUrl: string | URL, kind: 'service-worker' | 'remote' = 'remote'): Transport {
  const base = new URL(baseUrl, document.baseURI);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return {
    kind,
    id: `${kind} ${base.href}`,
    announcesChanges: kind === 'service-worker',
    send: (path, init) => fetch(new URL(path, base), init),
  };
}
