// The server's store at start, in process: a dataset given with --data goes
// into an empty store only, every start stores hashed the admin keys a store
// kept in clear, and a data directory is used by one server at a time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { memoryServerPerTest } from './memory-server.js';
import { importSource } from '../source-module.js';

const DATASET = 'test/remote/remote-dataset.json';
const ADMIN = 'sk_remote_admin';

/** @import { Transaction } from '../../src/store/index.js' */
/**
 * @type {typeof import('../../src/server/server-store.js') & typeof import('../../src/server/load-dataset.js') &
 *   typeof import('../../src/server/admin-keys.js') & typeof import('../../src/handler/handler.js')}
 */
let source;
before(async () => {
  source = await importSource(
    'src/server/server-store.ts',
    'src/server/load-dataset.ts',
    'src/server/admin-keys.ts',
    'src/handler/handler.ts',
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
    const load = {
      adminKey: null,
      allowBootstrap: true,
      onUnexpectedError: (/** @type {unknown} */ error) => assert.fail(/** @type {Error} */ (error)),
    };
    assert.equal(await source.loadDataset(server.store, DATASET, load), true);
    const loaded = await alice();
    assert.equal(loaded.current_xp, 5);
    assert.equal(await source.loadDataset(server.store, DATASET, load), false);
    assert.deepEqual(await alice(), loaded);
  });

  it('stores hashed, at start, the admin keys a store kept in clear', async () => {
    await server.store.write((/** @type {Transaction} */ tx) => tx.putMeta('admin_keys', [ADMIN]));
    await source.installAdminKeys(server.store, []);
    const stored = await server.store.read((/** @type {Transaction} */ tx) => tx.getMeta('admin_keys'));
    assert.deepEqual(stored, { sha256: [createHash('sha256').update(ADMIN).digest('hex')] });
    const exported = await server.handle(
      new Request('http://q.test/v1/admin/export?app_id=guild', { headers: { Authorization: `Bearer ${ADMIN}` } }),
    );
    assert.equal(exported.status, 404, 'the key still opens the store (no app yet)');
  });
});

// PGlite takes no lock of its own: two servers writing one directory corrupt it.
describe('a data directory, one server at a time', () => {
  it('is refused while another process holds it, and taken over once that process has ended', async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-lock-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const lock = join(dataDir, source.DATA_DIR_LOCK);
    const other = spawn('sleep', ['60']);
    t.after(() => other.kill());
    await writeFile(lock, `${other.pid}\n`);
    await assert.rejects(source.openServerStore({ dataDir }), (error) => {
      assert.match(/** @type {Error} */ (error).message, new RegExp(`another server \\(process ${other.pid}\\) is using it`));
      return true;
    });
    assert.equal(await readFile(lock, 'utf8'), `${other.pid}\n`, 'its lock left as it was');

    const ended = once(other, 'exit');
    other.kill();
    await ended;
    const store = await source.openServerStore({ dataDir });
    assert.equal(await readFile(lock, 'utf8'), `${process.pid}\n`, 'taken over');
    await assert.rejects(source.openServerStore({ dataDir }), /this process is using it already/);
    await store.close();
    await assert.rejects(readFile(lock), { code: 'ENOENT' }, 'let go when the store closes');
    const again = await source.openServerStore({ dataDir });
    await again.close();
  });
});
