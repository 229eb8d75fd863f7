// The server's store at start, in process: a dataset given with --data goes
// into an empty store only, and every start stores hashed the admin keys a
// store kept in clear.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { memoryServerPerTest } from './memory-server.js';
import { importSource } from '../source-module.js';

const DATASET = 'test/remote/remote-dataset.json';
const ADMIN = 'sk_remote_admin';

let source;
before(async () => {
  source = await importSource(
    'src/node/server-store.ts',
    'src/node/load-dataset.ts',
    'src/node/admin-keys.ts',
    'src/server/handler.ts',
  );
});

describe('the server store at start', () => {
  const server = memoryServerPerTest(() => source);

  const alice = async () => {
    const answer = await server.handle(
      new Request('http://q.test/v1/get_userinfo?app_id=guild&account_name=alice', {
        headers: { Authorization: 'Bearer pk_guild' },
      }),
    );
    return answer.json();
  };

  it('loads a dataset into an empty store, and leaves a store that holds data as it is', async () => {
    const fail = (error) => assert.fail(error);
    assert.equal(await source.loadDataset(server.store, DATASET, fail), true);
    const loaded = await alice();
    assert.equal(loaded.current_xp, 5);
    assert.equal(await source.loadDataset(server.store, DATASET, fail), false);
    assert.deepEqual(await alice(), loaded);
  });

  it('stores hashed, at start, the admin keys a store kept in clear', async () => {
    await server.store.write((tx) => tx.putMeta('admin_keys', [ADMIN]));
    await source.installAdminKeys(server.store, []);
    const stored = await server.store.read((tx) => tx.getMeta('admin_keys'));
    assert.deepEqual(stored, { sha256: [createHash('sha256').update(ADMIN).digest('hex')] });
    const exported = await server.handle(
      new Request('http://q.test/v1/admin/export?app_id=guild', { headers: { Authorization: `Bearer ${ADMIN}` } }),
    );
    assert.equal(exported.status, 404, 'the key still opens the store (no app yet)');
  });
});
