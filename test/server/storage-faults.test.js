// Storage faults on PGlite in a data directory are answers, not hangs: a full
// disk (a small tmpfs of the test's own, filled up) and a disk that fails and
// turns read-only (ext4 on a loop device, failed as a journal abort fails it).
// Each time: the request's status and JSON body, health, a log line where the
// directory failed, and SIGTERM still ending the server. The mounts need root:
// elsewhere these skip loudly, and fail under CI=true.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { START_MS, startServer } from './reference-server.js';
import { failExt4, fillUp, mountScratch } from './storage-faults.js';

/** @typedef {import('./reference-server.js').RunningServer} RunningServer */

const DATASET = 'test/remote/remote-dataset.json';
const ANSWER_MS = 60_000;

/**
 * @param {Pick<RunningServer, 'port'>} server
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 */
const call = (server, method, path, body) =>
  fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { Authorization: 'Bearer sk_remote_admin', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    // Longer than any wait of the server's own (STATEMENT_WAIT_MS): a hang fails the test.
    signal: AbortSignal.timeout(ANSWER_MS),
  }).then(async (answer) => ({ status: answer.status, body: await answer.json() }));

/**
 * An import of `count` new members: more rows than the pages the store has kept free.
 * @param {number} count
 * @param {string} prefix
 */
const manyMembers = (count, prefix) => ({
  apps: [{ app_id: 'guild', users: Array.from({ length: count }, (_, index) => ({ account_name: `${prefix}${index}` })) }],
});

describe('PGlite when its disk', () => {
  /** @type {Awaited<ReturnType<typeof mountScratch>>} */
  let scratch = null;
  /**
   * Set by startOn, which the checker does not follow: the tests cast it to what they know it is.
   * @type {RunningServer | null}
   */
  let server = null;
  afterEach(async () => {
    try {
      // A server that no longer stops (a hang, before the fix) is killed: nothing is left running.
      await server?.stop().catch((error) => /** @type {RunningServer} */ (server).crash().then(() => Promise.reject(error)));
    } finally {
      server = null;
      await scratch?.unmount();
      scratch = null;
    }
  });

  /** @param {string} path */
  const startOn = async (path) => {
    server = await startServer(['--data-dir', join(path, 'data'), '--allow-bootstrap', '--data', DATASET], { startMs: START_MS });
    assert.equal((await call(server, 'GET', '/v1/health')).status, 200);
  };

  it('is full: 507 with a JSON message, health 503 saying why, and SIGTERM stops it', async (t) => {
    scratch = await mountScratch(t, 'tmpfs', '64m');
    if (scratch === null) return;
    await startOn(scratch.path);
    await fillUp(scratch.path);

    const refused = await call(
      /** @type {RunningServer} */ (server),
      'POST',
      '/v1/admin/import?mode=merge',
      manyMembers(20_000, 'full-'),
    );
    assert.equal(refused.status, 507, JSON.stringify(refused.body));
    assert.equal(refused.body.is_valid, false);
    assert.match(refused.body.message, /disk is full/);
    const health = await call(/** @type {RunningServer} */ (server), 'GET', '/v1/health');
    assert.equal(health.status, 503);
    assert.match(health.body.message, /disk is full/);
    const read = await call(/** @type {RunningServer} */ (server), 'GET', '/v1/get_userinfo?app_id=guild&account_name=alice');
    assert.equal(read.status, 200, 'reads go on');
    assert.equal(typeof (await /** @type {RunningServer} */ (server).stop()), 'number', 'SIGTERM ended it');
  });

  it('fails and turns read-only: 503 with a JSON message and a log line, health 503, and SIGTERM stops it', async (t) => {
    scratch = await mountScratch(t, 'ext4', '160M');
    if (scratch === null) return;
    await startOn(scratch.path);
    await failExt4(scratch.path);

    const refused = await call(
      /** @type {RunningServer} */ (server),
      'POST',
      '/v1/admin/import?mode=merge',
      manyMembers(10, 'lost-'),
    );
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.is_valid, false);
    assert.match(refused.body.message, /cannot use its data directory/);
    const logged = /** @type {RunningServer} */ (server).log.find(
      (line) => line.level === 50 && /data directory failed/.test(line.msg),
    );
    assert.ok(logged, JSON.stringify(/** @type {RunningServer} */ (server).log));
    assert.match(logged.err.message, /Read-only file system/);
    const health = await call(/** @type {RunningServer} */ (server), 'GET', '/v1/health');
    assert.equal(health.status, 503);
    assert.match(health.body.message, /cannot use its data directory/);
    assert.equal(typeof (await /** @type {RunningServer} */ (server).stop()), 'number', 'SIGTERM ended it');
  });
});
