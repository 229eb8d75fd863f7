// A site's webhook endpoint for the tests: an HTTP server on 127.0.0.1 that keeps every request
// it receives and answers each with the next status of a script (the last one thereafter), or
// with what a function of the request gives, once given (a promise holds the answer back).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { WAIT_MS } from './reference-server.js';

/** @typedef {{ headers: Record<string, string>, body: string, at: number }} Received */
/** @typedef {number | { status: number, body: string }} Answer */

/**
 * @param {number[] | ((request: Received, index: number) => Answer | Promise<Answer>)} script
 *   the statuses to answer in order, or a function of each request (a site that does something first answers later)
 */
export async function startReceiver(script = [204]) {
  /** @type {Received[]} */
  const received = [];
  /** @type {{ count: number, resolve: () => void }[]} */
  const waiting = [];
  const server = createServer((request, response) => {
    /** @type {Buffer[]} */
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      const entry = {
        headers: /** @type {Record<string, string>} */ (request.headers),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = received.push(entry) - 1;
      const planned = typeof script === 'function' ? script(entry, index) : script[Math.min(index, script.length - 1)];
      for (const wait of waiting.filter((wait) => received.length >= wait.count)) wait.resolve();
      void Promise.resolve(planned).then((answer) => {
        const { status, body = '' } = typeof answer === 'number' ? { status: answer } : answer;
        response.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /**
     * Resolves once `count` requests have arrived in all; rejects after `ms`.
     * @param {number} count
     * @returns {Promise<void>}
     */
    receivedAtLeast(count, ms = WAIT_MS) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`gave up waiting for ${count} requests (${received.length} came)`)), ms);
        waiting.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(undefined);
          },
        });
      });
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
