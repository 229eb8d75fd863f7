// The benchmark's own scenario, run for correctness: two apps seeded in bulk
// imports, then rounds of every operation. It once caught -0 and 0 being
// different keys in IndexedDB, which left a board's zero group uncounted.
import { expect } from '@open-wc/testing';
// @ts-ignore: the benchmark is plain JavaScript
import { ADMIN_KEY, appDefinition, appFor, memberChunk } from '../../bench/dataset.js';
// @ts-ignore: the benchmark is plain JavaScript
import { operationsFor } from '../../bench/operations.js';
import { localApi } from './support.js';

it('answers every benchmark operation after bulk imports and live writes', async function () {
  this.timeout(300000);
  const api = localApi({ now: Date.now() });
  for (const [size, index] of [
    [1000, 0],
    [10000, 1],
  ] as const) {
    const app = appFor(size, index);
    let r = await api.call('POST', '/v1/admin/import', {
      key: ADMIN_KEY,
      body: { admin_keys: [ADMIN_KEY], apps: [appDefinition(app)] },
    });
    expect(r.status, r.text).to.equal(200);
    for (let s = 0; s < size; s += 5000) {
      r = await api.call('POST', '/v1/admin/import', {
        key: ADMIN_KEY,
        body: { apps: [memberChunk(app, s, Math.min(size, s + 5000), Date.now())] },
      });
      expect(r.status, r.text).to.equal(200);
    }
    const ops = operationsFor(app);
    for (let round = 0; round < 12; round++) {
      for (const op of ops) {
        const req = op.request(round);
        const a = await api.call(req.method, req.url, { key: req.key, body: req.body });
        expect(a.status, `${size} ${op.name} ${round} ${a.text}`).to.equal(200);
      }
    }
  }
  await api.close();
});
