/// <reference lib="webworker" />
// The service worker: answers requests under `<scope>v1/` with the API
// handler over this origin's IndexedDB (or the configured remote first), and
// leaves every other request alone so the host site keeps working as before.
import { apiRootBelow } from '../api/api-path.js';
import { BROADCAST_CHANNEL, type ChangeNotice } from '../api/broadcast.js';
import { remoteFirstInWorker } from '../remote/remote-first-worker.js';
import { createHandler } from '../handler/handler.js';
import { openIndexedDbStore } from '../store/indexeddb/index.js';

declare const self: ServiceWorkerGlobalScope;

const changes = new BroadcastChannel(BROADCAST_CHANNEL);
const announce = (change: ChangeNotice) => changes.postMessage(change);
// A newer Questboard opened the database in another tab: fetch this worker's
// script again, so its newer version installs and takes over. Asked once,
// unless the asking failed.
let updating: Promise<unknown> | null = null;
const askForUpdate = () => {
  updating ??= self.registration.update().catch(() => {
    updating = null;
  });
};
const local = createHandler({ store: openIndexedDbStore({ onNewerVersion: askForUpdate }), onChange: announce });
// With a remote configured, it answers first; the local store stands in when it cannot.
const { handle } = remoteFirstInWorker(self, local, { onChange: announce });
const apiPrefix = apiRootBelow(self.registration.scope);

self.addEventListener('fetch', (event) => {
  if (!event.request.url.startsWith(apiPrefix)) return;
  event.respondWith(handle(event.request));
});

// Registered as its own worker (not pulled into a site's worker with
// importScripts), take control at once so the first page is served without a
// reload. A host worker's lifecycle is the host's business.
if (/\/questboard-sw[\w.-]*\.js$/.test(self.location.pathname)) {
  self.addEventListener('install', () => void self.skipWaiting());
  self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
}
