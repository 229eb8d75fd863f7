// A request body is read only for a caller whose key may send it: a keyless,
// unknown or under-scoped upload is answered before its body has arrived, and
// what the client goes on sending is dropped as it comes, never kept.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { openConnection, startServer } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */

/** @typedef {import('./reference-server.js').Answer} Answer */

const MiB = 1024 * 1024;
const DATASET = 'test/remote/remote-dataset.json';
const ADMIN = 'Bearer sk_remote_admin';

/**
 * @param {number} length
 * @param {string | null} authorization
 */
function importHead(length, authorization) {
  return (
    'POST /v1/admin/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
    (authorization ? `Authorization: ${authorization}\r\n` : '') +
    `Content-Length: ${length}\r\n\r\n`
  );
}

/**
 * A JSON text of exactly `size` bytes that no schema takes.
 * @param {number} size
 */
const filler = (size) => `{"pad":"${'x'.repeat(size - 10)}"}`;

/**
 * Sends the head and the first KiB of a body of `size` bytes, takes the
 * answer (it must come before the rest is sent), then sends the rest and a
 * health check on the same connection: the rest was dropped, not reset.
 * @param {number} port
 * @param {string | null} authorization
 * @param {number} size
 */
async function answerBeforeBody(port, authorization, size) {
  const connection = await openConnection(port);
  try {
    const body = Buffer.from(filler(size));
    await connection.write(importHead(body.length, authorization));
    await connection.write(body.subarray(0, 1024));
    const answer = await connection.answer();
    await connection.write(body.subarray(1024));
    await connection.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const health = await connection.answer();
    assert.equal(health.status, 200);
    return answer;
  } finally {
    connection.close();
  }
}

/**
 * Sends a whole import body and takes the answer (on a busy machine the server may have cut a slow one short after answering).
 * @param {number} port
 * @param {string | null} authorization
 * @param {string | Uint8Array} body
 */
async function post(port, authorization, body) {
  const connection = await openConnection(port);
  try {
    await connection.write(importHead(Buffer.byteLength(body), authorization));
    await connection.write(body);
    return await connection.answer();
  } finally {
    connection.close();
  }
}

describe('an import body is read only after the key', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', DATASET]);
  });
  after(() => server?.stop());

  for (const [who, authorization, status] of /** @type {[string, string | null, number][]} */ ([
    ['without a key', null, 401],
    ['with an unknown key', 'Bearer sk_nobody', 401],
    ['with a key without the admin scope', 'Bearer pk_guild', 403],
  ])) {
    it(`answers an upload ${who} with ${status} before its body arrives, and drops the rest`, async () => {
      const answer = await answerBeforeBody(server.port, authorization, 32 * MiB);
      assert.equal(answer.status, status, answer.body);
      assert.equal(answer.json().is_valid, false);
    });
  }

  it('keeps its memory bounded over several keyless 32 MiB uploads at once', async () => {
    const before = server.peakMemory();
    const body = Buffer.from(filler(32 * MiB));
    const uploads = Array.from({ length: 8 }, () => post(server.port, 'Bearer sk_nobody', body));
    for (const answer of await Promise.all(uploads)) assert.equal(answer.status, 401);
    // Dropped chunks wait for the garbage collector (some 45 MiB, however many
    // uploads); a server keeping the bodies grows by more than they total.
    const grown = server.peakMemory() - before;
    assert.ok(grown < 96 * MiB, `the peak memory grew by ${(grown / MiB).toFixed(0)} MiB over 256 MiB of uploads`);
  });

  it('refuses a declared body past the import limit with 413 before reading it', async () => {
    const answer = await answerBeforeBody(server.port, ADMIN, 65 * MiB);
    assert.equal(answer.status, 413, answer.body);
  });

  it('refuses a chunked body past the import limit with 413 and keeps the connection', async () => {
    const connection = await openConnection(server.port);
    try {
      await connection.write(
        'POST /v1/admin/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          `Authorization: ${ADMIN}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const chunk = Buffer.from('x'.repeat(MiB));
      const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
      // Typed in its initializer: the checker would take it for null, not following the callback that sets it.
      let answer = /** @type {Answer | null} */ (null);
      const answered = connection.answer().then((value) => (answer = value));
      for (let sent = 0; sent < 65 && answer === null; sent++) await connection.write(frame);
      await answered;
      // Set by `answered`: the checker does not follow assignments in callbacks.
      assert.equal(/** @type {Answer} */ (answer).status, 413, /** @type {Answer} */ (answer).body);
      await connection.write('0\r\n\r\nGET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal((await connection.answer()).status, 200);
    } finally {
      connection.close();
    }
  });

  it('still imports a dataset for an admin key', async () => {
    const users = Array.from({ length: 2_000 }, (_, index) => ({ account_name: `member-${index}` }));
    const dataset = JSON.stringify({ apps: [{ app_id: 'big', api_keys: [{ key: 'pk_big', scopes: ['read'] }], users }] });
    const answer = await post(server.port, ADMIN, dataset);
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(answer.json().app_ids, ['big']);
  });
});

describe('an empty server, which takes no bootstrap import unless told to', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.stop());

  it('refuses an import with a key the dataset lists before reading its body, telling the operator what to do', async () => {
    const answer = await answerBeforeBody(server.port, ADMIN, 32 * MiB);
    assert.equal(answer.status, 401, answer.body);
    assert.match(answer.json().message, /no admin key yet.*QUESTBOARD_ADMIN_KEYS or --admin-keys-file.*--allow-bootstrap/);
    assert.equal((await post(server.port, ADMIN, readFileSync(DATASET, 'utf8'))).status, 401);
  });
});

describe('the bootstrap import on an empty store, with --allow-bootstrap', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap']);
  });
  after(() => server?.stop());

  it('reads the body for a key the store does not know, and refuses a key the dataset does not list', async () => {
    const answer = await post(server.port, 'Bearer sk_stranger', readFileSync(DATASET, 'utf8'));
    assert.equal(answer.status, 401, answer.body);
  });

  it('refuses a declared body past the import limit with 413 before reading it', async () => {
    const answer = await answerBeforeBody(server.port, 'Bearer sk_stranger', 65 * MiB);
    assert.equal(answer.status, 413, answer.body);
  });

  it('imports a dataset with a key it lists, after which a keyless upload is refused unread', async () => {
    const answer = await post(server.port, ADMIN, readFileSync(DATASET, 'utf8'));
    assert.equal(answer.status, 200, answer.body);
    assert.equal((await answerBeforeBody(server.port, 'Bearer sk_stranger', 32 * MiB)).status, 401);
  });
});
