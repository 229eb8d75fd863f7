/// <reference lib="webworker" />
// src/worker/index.ts with remoteFirst wired in, exactly as proposed to the lead. The remote
// tests' own config serves it as /questboard-sw.js until the real worker is wired the same way.
import { createHandler, type ChangeNotice } from '../../src/server/handler.js';
import { remoteFirstInWorker } from '../../src/remote/remote-first-worker.js';
import { openStore } from '../../src/store/index.js';

declare const self: ServiceWorkerGlobalScope;

const changes = new BroadcastChannel('questboard');
const announce = (change: ChangeNotice) => changes.postMessage(change);
const local = createHandler({ store: openStore(), onChange: announce });
const { handle } = remoteFirstInWorker(self, local, { onChange: announce });
const apiPrefix = new URL('v1/', self.registration.scope).href;

self.addEventListener('fetch', (event) => {
  if (!event.request.url.startsWith(apiPrefix)) return;
  event.respondWith(handle(event.request));
});

if (/\/questboard-sw[\w.-]*\.js$/.test(self.location.pathname)) {
  self.addEventListener('install', () => void self.skipWaiting());
  self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
}
