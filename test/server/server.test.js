// The server in operation: installation admin keys, the health check, the
// access log and its request ids, request timeouts, and a graceful stop that
// lets the requests under way finish.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { listeningPort, openConnection, spawnServer, START_MS, startServer, WAIT_MS } from './reference-server.js';

const DATASET = 'test/remote/remote-dataset.json';
const INSTALLED = 'sk_installed_0123456789abcdef';
const FROM_FILE = 'sk_from_file_0123456789abcdef';

/** @import { RunningServer } from './reference-server.js' */

/**
 * @param {Pick<RunningServer, 'port'>} server
 * @param {string} path
 * @param {Record<string, string>} [headers]
 */
const get = (server, path, headers = {}) => fetch(`http://127.0.0.1:${server.port}${path}`, { headers });
/**
 * @param {Pick<RunningServer, 'port'>} server
 * @param {string} path
 * @param {unknown} body a string is sent as it is, anything else as JSON
 * @param {Record<string, string>} [headers]
 */
const post = (server, path, body, headers = {}) =>
  fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
/** A dataset file as a server takes it: its admin keys come from its operator, never from a dataset. */
const withoutAdminKeys = async (/** @type {string} */ path) => {
  const { admin_keys: _adminKeys, ...dataset } = JSON.parse(await readFile(path, 'utf8'));
  return dataset;
};
/** @param {RunningServer} server */
const requestLines = (server) => server.log.filter((line) => line.msg === 'request');

describe('installation admin keys', () => {
  /** @type {string} */
  let directory;
  /** @type {RunningServer} */
  let server;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'questboard-keys-'));
    const keys = join(directory, 'keys');
    await writeFile(keys, `# comments and blank lines are left out\n\n  ${FROM_FILE}  \r\n`);
    server = await startServer(['--admin-keys-file', keys], { env: { QUESTBOARD_ADMIN_KEYS: INSTALLED } });
  });
  after(async () => {
    await server?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('import into the empty store, from the environment and from the file', async () => {
    const imported = await post(server, '/v1/admin/import', await withoutAdminKeys(DATASET), {
      Authorization: `Bearer ${INSTALLED}`,
    });
    assert.equal(imported.status, 200, await imported.clone().text());
    const exported = await get(server, '/v1/admin/export?app_id=guild', { Authorization: `Bearer ${FROM_FILE}` });
    assert.equal(exported.status, 200);
  });

  it('do not end up in the log', () => {
    const text = JSON.stringify(server.log);
    assert.doesNotMatch(text, new RegExp(`${INSTALLED}|${FROM_FILE}`));
  });
});

describe('an installation admin key taken off the list', () => {
  const SECOND = 'sk_second_0123456789abcdef';
  /** @type {string} */
  let directory;
  /** @type {RunningServer} */
  let server;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'questboard-revoke-'));
  });
  after(async () => {
    await server?.stop();
    await rm(directory, { recursive: true, force: true });
  });
  /** @param {string} keys */
  const restart = async (keys) => {
    await server?.stop();
    server = await startServer(['--data-dir', directory], { env: { QUESTBOARD_ADMIN_KEYS: keys } });
  };
  /** @param {string} key */
  const exportWith = async (key) =>
    (await get(server, '/v1/admin/export?app_id=guild', { Authorization: `Bearer ${key}` })).status;

  it('is revoked by the next start, and a start given no keys keeps the stored ones', async () => {
    await restart(`${INSTALLED},${SECOND}`);
    const imported = await post(server, '/v1/admin/import', await withoutAdminKeys(DATASET), {
      Authorization: `Bearer ${INSTALLED}`,
    });
    assert.equal(imported.status, 200, await imported.clone().text());
    assert.equal(await exportWith(SECOND), 200);
    await restart(SECOND);
    assert.equal(await exportWith(INSTALLED), 401);
    assert.equal(await exportWith(SECOND), 200);
    await restart('');
    assert.equal(await exportWith(SECOND), 200);
  });
});

describe('the health check, the access log and request ids', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', DATASET]);
  });
  after(() => server?.stop());

  it('answers the health check without a key, the database answering', async () => {
    const answer = await get(server, '/v1/health');
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { is_valid: true, message: null, version: '0.1.0' });
  });

  it('logs one JSON line per request with its id, method, path without the query, status and duration', async () => {
    const answer = await get(server, '/v1/get_userinfo?app_id=guild&account_name=alice', {
      Authorization: 'Bearer pk_guild',
      'X-Request-Id': 'edge-7f3a.1',
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-request-id'), 'edge-7f3a.1');
    // The log line comes on the server's stdout, after the answer.
    await waitUntil(() => requestLines(server).some((entry) => entry.reqId === 'edge-7f3a.1'));
    // Found: the wait above saw it.
    const line = /** @type {RunningServer['log'][number]} */ (
      requestLines(server).find((entry) => entry.reqId === 'edge-7f3a.1')
    );
    assert.deepEqual(
      { method: line.method, path: line.path, status: line.status, level: line.level },
      { method: 'GET', path: '/v1/get_userinfo', status: 200, level: 30 },
    );
    assert.equal(typeof line.durationMs, 'number');
    assert.doesNotMatch(JSON.stringify(server.log), /pk_guild|account_name|alice/);
  });

  it('gives a request without a sane X-Request-Id a fresh one, on the answer and in the log', async () => {
    for (const id of [undefined, 'two words', 'x'.repeat(129), 'quote"d']) {
      const answer = await get(server, '/v1/nowhere', id === undefined ? {} : { 'X-Request-Id': id });
      assert.equal(answer.status, 404);
      const given = answer.headers.get('x-request-id');
      assert.match(/** @type {string} */ (given), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await waitUntil(() => requestLines(server).some((line) => line.reqId === given && line.status === 404));
    }
  });

  it('logs nothing per request at --log-level warn', async () => {
    // Quiet, it does not say where it listens either: the kernel does (and --allow-bootstrap,
    // so that it has no missing admin key to warn of).
    const quiet = spawnServer(['--memory', '--port', '0', '--log-level', 'warn', '--allow-bootstrap']);
    // Defined: the process spawned.
    const pid = /** @type {number} */ (quiet.child.pid);
    /** @type {number | null} */
    let port = null;
    await waitUntil(() => (port = listeningPort(pid)) !== null, { what: 'the quiet server to listen', ms: START_MS });
    assert.equal((await fetch(`http://127.0.0.1:${port}/v1/health`)).status, 200);
    quiet.child.kill('SIGTERM');
    const { code, stdout } = await quiet.ended;
    assert.equal(code, 0);
    assert.equal(stdout, '');
  });
});

describe('request timeouts', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', DATASET, '--test-hooks', '--request-timeout-ms', '300']);
    assert.equal((await post(server, '/_test/delay', { ms: 1_000 })).status, 200);
  });
  after(() => server?.stop());

  it('answer a request still running after the timeout with 503 in the API’s shape', async () => {
    // The handler is held 1 s, past the 300 ms timeout: this 503 can only be the timeout's answer.
    const answer = await get(server, '/v1/health');
    assert.equal(answer.status, 503);
    assert.match(/** @type {string} */ (answer.headers.get('content-type')), /^application\/json/);
    assert.deepEqual(await answer.json(), {
      is_valid: false,
      message: 'The request did not finish within 300 ms. A write may still complete: retry it with the same Idempotency-Key.',
    });
    await waitUntil(() => server.log.some((line) => line.msg === 'request timed out' && line.path === '/v1/health'));
  });

  it('let an import run to its end', async () => {
    const answer = await post(server, '/v1/admin/import', { apps: [] }, { Authorization: 'Bearer sk_remote_admin' });
    assert.equal(answer.status, 200, await answer.clone().text());
  });
});

describe('stopping', () => {
  it('on SIGTERM takes no new connection, finishes the request under way, and exits with 0', async () => {
    const server = await startServer(['--allow-bootstrap', '--data', DATASET, '--test-hooks']);
    assert.equal((await post(server, '/_test/delay', { ms: 1_500 })).status, 200);
    const connection = await openConnection(server.port);
    try {
      await connection.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await waitUntil(async () => (await (await get(server, '/_test/requests')).json()).requests.length === 1);
      const stopped = server.stop();
      // Refused once the server has closed its listener, which SIGTERM does first.
      await waitUntil(() =>
        connectTo(server.port).then(
          () => false,
          () => true,
        ),
      );
      await assert.rejects(connectTo(server.port), { code: 'ECONNREFUSED' });
      const answer = await connection.answer();
      assert.equal(answer.status, 200, answer.body);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(await stopped, 0);
      const said = server.log.map((line) => line.msg);
      assert.ok(said.indexOf('stopped') > said.indexOf('stopping: no new connections, finishing the requests under way'));
    } finally {
      connection.close();
    }
  });
});

/**
 * @param {number} port
 * @returns {Promise<void>}
 */
function connectTo(port) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/**
 * @param {() => boolean | Promise<boolean>} condition
 * @param {{ what?: string, ms?: number }} [bound] what is awaited, said when it does not come within `ms`
 */
async function waitUntil(condition, { what = 'the condition', ms = WAIT_MS } = {}) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(25);
  }
}
