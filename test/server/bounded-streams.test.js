// Event streams (GET /v1/events) are bounded: a reader that stops reading is dropped once its
// stream's buffer is full, with a last `reconnect` event, so the server's memory does not grow
// with what it never reads; and one client address, or one key, holds only so many streams.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, WAIT_MS } from './reference-server.js';

const DATASET = 'test/remote/remote-dataset.json';
const KEY = 'pk_guild';
const MiB = 2 ** 20;

/** @import { Socket } from 'node:net' */
/** @import { ErrorBody } from '../../src/api/responses.js' */
/** @import { RunningServer } from './reference-server.js' */
/**
 * @typedef {object} RawStream
 * @property {Socket} socket
 * @property {string} text
 * @property {boolean} ended
 * @property {(done: (text: string) => boolean, what: string) => Promise<string>} until
 */

/**
 * A raw connection asking for the app's event stream, read only when told to (`socket.pause()`
 * leaves what the server sends in the kernel, then in the server). `text` is what it has read.
 * @param {number} port
 * @param {Record<string, string>} [headers]
 */
async function openRawStream(port, headers = {}) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const head = Object.entries({ Host: 'questboard', Authorization: `Bearer ${KEY}`, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`GET /v1/events?app_id=guild HTTP/1.1\r\n${head}\r\n`);
  const stream = /** @type {RawStream} */ ({ socket, text: '', ended: false });
  socket.setEncoding('utf8');
  let wake = () => {};
  socket.on('data', (/** @type {string} */ chunk) => {
    stream.text += chunk;
    wake();
  });
  socket.on('close', () => {
    stream.ended = true;
    wake();
  });
  /** Resolves once `done(text)` holds; rejects after WAIT_MS or once the connection closes before. */
  stream.until = (done, what) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}; read ${stream.text.slice(-300)}`)), WAIT_MS);
      const check = () => {
        if (done(stream.text)) {
          clearTimeout(timer);
          resolve(stream.text);
        } else if (stream.ended) {
          clearTimeout(timer);
          reject(new Error(`the connection closed before ${what}; read ${stream.text.slice(-300)}`));
        }
      };
      wake = check;
      check();
    });
  return stream;
}

/** @param {string} text */
const statusOf = (text) => Number(/** @type {RegExpExecArray} */ (/^HTTP\/1\.1 (\d+)/.exec(text))[1]);
/** @param {string} text */
const headOf = (text) => text.slice(0, text.indexOf('\r\n\r\n'));

/**
 * An answer with a body of Content-Length (a refusal): its status, head and JSON.
 * @param {RawStream} stream
 */
async function answerOf(stream) {
  const text = await stream.until((text) => {
    const end = text.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(text.slice(0, end));
    if (end === -1) return false;
    return length === null ? true : Buffer.byteLength(text.slice(end + 4)) >= Number(length[1]);
  }, 'an answer');
  const length = /content-length: (\d+)/i.exec(headOf(text));
  /** @type {ErrorBody | null} */
  const body = length === null ? null : JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  return { status: statusOf(text), head: headOf(text), body };
}

/**
 * `count` writes (connect_social), each one change event of the app, sent pipelined on a few
 * connections so the test spends its time in the server, not in making requests.
 * @param {number} port
 * @param {number} count
 */
async function write(port, count, from = 0) {
  const name = '𝔞'.repeat(60);
  /** @param {number} i */
  const request = (i) => {
    const body = JSON.stringify({ app_id: 'guild', account_name: `${name}${i % 4}`, twitter_name: 'x' });
    return (
      `POST /v1/connect_social HTTP/1.1\r\nHost: questboard\r\nAuthorization: Bearer ${KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    );
  };
  const connections = 4;
  await Promise.all(
    Array.from({ length: connections }, async (_, lane) => {
      const share = Math.ceil(count / connections);
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let answered = 0;
      /** @type {string | null} */
      let refused = null;
      const done = /** @type {Promise<void>} */ (
        new Promise((resolve, reject) => {
          socket.setEncoding('latin1');
          let unread = '';
          socket.on('data', (/** @type {string} */ text) => {
            // A status line (13 characters) may be cut between chunks: the last 12 are read again.
            unread += text;
            for (const [, status] of unread.matchAll(/HTTP\/1\.1 (\d{3}) /g)) {
              if (status !== '200') refused ??= status;
              answered++;
            }
            unread = unread.slice(-12);
            if (answered >= share) resolve();
          });
          socket.on('error', reject);
        })
      );
      for (let i = 0; i < share; i += 200) {
        const batch = Array.from({ length: Math.min(200, share - i) }, (_, j) => request(from + lane * share + i + j));
        if (!socket.write(batch.join(''))) await once(socket, 'drain');
      }
      await done;
      socket.destroy();
      assert.equal(refused, null, `every write is answered 200, got a ${refused}`);
    }),
  );
  return Math.ceil(count / connections) * connections;
}

describe('event streams of readers that stop reading are dropped, and the server does not grow', () => {
  /** @type {RunningServer} */
  let server;
  /** @type {RawStream[]} */
  const streams = [];
  before(async () => {
    // Every stream here comes from 127.0.0.1: the per-address cap is another test's.
    server = await startServer(['--allow-bootstrap', '--data', DATASET, '--event-streams-per-address', '50'], {
      probeMemory: true,
    });
  });
  after(async () => {
    for (const stream of streams) stream.socket.destroy();
    await server?.stop();
  });

  it('40 streams that never read: the server stays within a bound and each ends with a reconnect event', async (t) => {
    // The server first settles from its start (the bundling's garbage, PGlite's first allocations).
    await write(server.port, 1_000);
    const reader = await openRawStream(server.port);
    streams.push(reader);
    await reader.until((text) => text.includes('id: '), 'the reading stream to open');
    for (let i = 0; i < 40; i++) {
      const stream = await openRawStream(server.port);
      streams.push(stream);
      await stream.until((text) => text.includes('id: '), 'a stream to open');
      stream.socket.pause();
    }
    const before = await server.retainedMemory();
    // Each stream is sent ~370 bytes a write: past what the connection buffers on loopback (its
    // socket's send buffer grows to 4 MiB) and the stream's own 256 KiB: about 11,000 writes.
    const writes = await write(server.port, 16_000, 1_000);
    const growth = (await server.retainedMemory()) - before;
    t.diagnostic(`retained memory ${Math.round(before / MiB)} MiB before the writes, grew ${Math.round(growth / MiB)} MiB`);
    // Memory retained once garbage is collected: resident memory also counts garbage not yet
    // collected, which grew from 30 to 96 MiB on the same code with the machine's load.
    // Unbounded (a buffer of 1 GiB), the 40 streams retained 146 MiB more; bounded, 40 × 256 KiB
    // and PGlite's own growth, 19 MiB (measured on a 2-core Xeon: bounded twice, unbounded once).
    assert.ok(growth < 60 * MiB, `the server grew ${Math.round(growth / MiB)} MiB under 40 streams that do not read`);

    for (const stream of streams.slice(1)) {
      stream.socket.resume();
      const text = await stream.until((text) => text.endsWith('0\r\n\r\n'), 'the dropped stream to end');
      assert.match(
        text,
        /event: reconnect\r?\ndata: \{"type":"questboard:reconnect","reason":"slow-reader","message":"[^"]+"\}\n\n\r\n0\r\n\r\n$/,
      );
    }
    // The reader that read was never dropped: it has every change, and no reconnect.
    const text = await reader.until(
      (text) => text.split('event: change').length - 1 >= writes,
      'every change on the reading stream',
    );
    assert.doesNotMatch(text, /event: reconnect/);
  });
});

describe('event streams per client address and per key', () => {
  /** @type {RunningServer[]} */
  const servers = [];
  /** @type {RawStream[]} */
  const streams = [];
  after(async () => {
    for (const stream of streams) stream.socket.destroy();
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('one address holds 20 streams by default: the 21st onwards is answered 429 JSON with Retry-After', async () => {
    const server = await startServer(['--allow-bootstrap', '--data', DATASET]);
    servers.push(server);
    /** @type {Array<number | Awaited<ReturnType<typeof answerOf>>>} */
    const answers = [];
    for (let i = 0; i < 60; i++) {
      const stream = await openRawStream(server.port);
      streams.push(stream);
      answers.push(
        i < 20 ? await stream.until((text) => text.includes('id: '), 'a stream to open').then(statusOf) : await answerOf(stream),
      );
    }
    assert.deepEqual(answers.slice(0, 20), Array(20).fill(200));
    // From the 21st on, answerOf's.
    for (const refusal of /** @type {Awaited<ReturnType<typeof answerOf>>[]} */ (answers.slice(20))) {
      assert.equal(refusal.status, 429);
      assert.match(refusal.head, /^retry-after: \d+$/im);
      assert.equal(refusal.body?.is_valid, false);
      assert.match(
        refusal.body?.message ?? '',
        /Too many event streams: 20 event streams are open from the address 127\.0\.0\.1/,
      );
    }
    // A stream that ends gives its place back.
    const closed = once(streams[0].socket, 'close');
    streams[0].socket.destroy();
    await closed;
    const next = await openRawStream(server.port);
    streams.push(next);
    await next.until((text) => text.includes('id: '), 'a stream to open in the place given back');
  });

  it('one key holds --event-streams-per-key streams, from any addresses', async () => {
    const server = await startServer(['--allow-bootstrap', '--data', DATASET, '--trust-proxy', '--event-streams-per-key', '30']);
    servers.push(server);
    /** @type {number[]} */
    const statuses = [];
    for (let i = 0; i < 40; i++) {
      const stream = await openRawStream(server.port, { 'X-Forwarded-For': `192.0.2.${i + 1}` });
      streams.push(stream);
      if (i < 30) statuses.push(await stream.until((text) => text.includes('id: '), 'a stream').then(statusOf));
      else {
        const refusal = await answerOf(stream);
        statuses.push(refusal.status);
        assert.match(refusal.body?.message ?? '', /30 event streams are open with this key/);
      }
    }
    assert.deepEqual(statuses, [...Array(30).fill(200), ...Array(10).fill(429)]);
  });
});
