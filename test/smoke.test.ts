import { expect } from '@open-wc/testing';
it('serves through a worker', async () => {
  const reg = await navigator.serviceWorker.register('/questboard-sw.js', { scope: '/' });
  if (!navigator.serviceWorker.controller) {
    await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
  }
  const res = await fetch('/v1/health');
  expect(await res.json()).to.deep.equal({ is_valid: true });
  const db = indexedDB.open('x'); await new Promise((r) => (db.onsuccess = r));
  await reg.unregister();
});
