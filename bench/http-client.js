// The server benchmark's HTTP client: Node's http with keep-alive connections,
// light enough that the client does not take the CPU the server needs.
import { Agent, request as httpRequest } from 'node:http';

/**
 * A client of the server at `base` holding up to `connections` keep-alive
 * connections. `send` takes an operation's request (bench/operations.js) and
 * resolves to `{ ms, status, text }`: ms from the request to the last byte of
 * the answer. It rejects on a network error or on no answer within `timeoutMs`
 * (`null`: wait as long as it takes, as imports do).
 * @param {string} base
 * @param {{ connections?: number }} [options]
 */
export function httpClient(base, { connections = 1 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const { hostname, port } = new URL(base);

  /**
   * @param {import('./operations.js').BenchRequest} request
   * @param {{ timeoutMs?: number | null }} [options]
   * @returns {Promise<import('./operations.js').BenchAnswer>}
   */
  function send({ method, url, key, body }, { timeoutMs = 30_000 } = {}) {
    const started = performance.now();
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { authorization: `Bearer ${key}` };
    if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': payload.length });
    return new Promise((resolve, reject) => {
      const request = httpRequest({ agent, hostname, port, method, path: url, headers }, (response) => {
        /** @type {Buffer[]} */
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            ms: performance.now() - started,
            // Always set on a client's response.
            status: /** @type {number} */ (response.statusCode),
            text: Buffer.concat(chunks).toString(),
          }),
        );
      });
      request.on('error', reject);
      if (timeoutMs !== null) request.setTimeout(timeoutMs, () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.end(payload);
    });
  }

  return { send, close: () => agent.destroy() };
}
