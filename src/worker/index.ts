/// <reference lib="webworker" />
declare const self: ServiceWorkerGlobalScope;
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname === '/v1/health') {
    event.respondWith(new Response('{"is_valid":true}'));
  }
});
