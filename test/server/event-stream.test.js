// GET /v1/events through the Node host: the answer goes out as events are written
// (chunked, never buffered whole), the change feed lets go of a client that
// disconnects, and a host that stops ends its streams rather than cutting them.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startServer, WAIT_MS } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */

const DATASET = 'test/remote/remote-dataset.json';
const KEY = 'Bearer pk_guild';

/**
 * Opens the app's event stream and reads it as it comes: `next(text)` waits until the stream has said `text`.
 * @param {number} port
 */
async function openStream(port) {
  const request = get({ port, host: '127.0.0.1', path: '/v1/events?app_id=guild', headers: { Authorization: KEY } });
  const [response] = /** @type {[import('node:http').IncomingMessage]} */ (await once(request, 'response'));
  let received = '';
  let wake = () => {};
  response.setEncoding('utf8');
  response.on('data', (/** @type {string} */ text) => {
    received += text;
    wake();
  });
  return {
    request,
    response,
    /**
     * @param {string} text
     * @returns {Promise<string>} all the stream has said so far
     */
    next(text) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`gave up waiting for ${JSON.stringify(text)}; received ${received}`)),
          WAIT_MS,
        );
        const check = () => {
          if (!received.includes(text)) return;
          clearTimeout(timer);
          resolve(received);
        };
        wake = check;
        check();
      });
    },
  };
}

/**
 * How many subscriptions the change feed holds (the server's --test-hooks).
 * @param {number} port
 * @returns {Promise<number>}
 */
async function subscriptions(port) {
  const answer = await fetch(`http://127.0.0.1:${port}/_test/subscriptions`);
  return (await answer.json()).subscriptions;
}

/**
 * @param {number} port
 * @param {string} account_name
 */
async function connectSocial(port, account_name) {
  const answer = await fetch(`http://127.0.0.1:${port}/v1/connect_social`, {
    method: 'POST',
    headers: { Authorization: KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ app_id: 'guild', account_name, twitter_name: `${account_name}_x` }),
  });
  assert.equal(answer.status, 200);
}

/**
 * Polls `condition` until it holds; throws after WAIT_MS.
 * @param {() => boolean | Promise<boolean>} condition
 * @param {string} what
 */
async function until(condition, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the Node host streams GET /v1/events', () => {
  /** @type {RunningServer} */
  let server;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', DATASET, '--test-hooks']);
  });
  after(() => server.stop());

  it('sends each event as it is written, chunked, and lets go of the feed when the client disconnects', async () => {
    const stream = await openStream(server.port);
    assert.equal(stream.response.statusCode, 200);
    assert.match(stream.response.headers['content-type'] ?? '', /^text\/event-stream/);
    assert.equal(stream.response.headers['transfer-encoding'], 'chunked');
    assert.equal(stream.response.headers['content-length'], undefined);
    await stream.next('id: ');
    assert.equal(await subscriptions(server.port), 1);

    await connectSocial(server.port, 'bob');
    const text = await stream.next('event: change');
    assert.match(text, /data: \{"type":"questboard:change","app_id":"guild","scope":"members","account_names":\["bob"\]\}\n\n/);
    assert.equal(stream.response.complete, false, 'the answer is still open: it was sent as it came');

    stream.request.destroy();
    await until(async () => (await subscriptions(server.port)) === 0, 'the feed to let go of the disconnected client');
  });

  it('keeps many streams open at once, as many pages follow an app, without a warning', async () => {
    const streams = await Promise.all(Array.from({ length: 12 }, () => openStream(server.port)));
    await Promise.all(streams.map((stream) => stream.next('id: ')));
    assert.equal(await subscriptions(server.port), 12);
    for (const stream of streams) stream.request.destroy();
    await until(async () => (await subscriptions(server.port)) === 0, 'the feed to let go of the streams');
    assert.doesNotMatch(server.stderr(), /MaxListenersExceededWarning/);
  });

  it('ends its open streams when it stops, so it stops at once', async () => {
    const stream = await openStream(server.port);
    await stream.next('id: ');
    const ended = once(stream.response, 'end');
    await server.stop();
    await ended;
    assert.equal(stream.response.complete, true, 'the stream ended with its last chunk, not cut off');
  });
});
