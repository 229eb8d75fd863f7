import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handle } from '../server/handler.js';
import { createCors } from './cors.js';
import { sendFetchResponse, toFetchRequest } from './http-bridge.js';

export interface HttpHost {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops accepting connections and resolves once the open ones have ended. */
  close(): Promise<void>;
}

/** How long requests already running may take to finish once the host is asked to stop. */
const CLOSE_GRACE_MS = 3_000;

const internalError = () =>
  new Response(JSON.stringify({ is_valid: false, message: 'internal error in the HTTP host' }), {
    status: 500,
    headers: { 'Content-Type': 'application/json' },
  });

/** Serves `handle` over HTTP on the loopback interface only. */
export async function startHttpHost(handle: Handle, options: { port: number; corsOrigins: string[] }): Promise<HttpHost> {
  const cors = createCors(options.corsOrigins);
  let ownOrigin = '';
  const server = createServer(async (incoming, outgoing) => {
    try {
      const { request, bodyCutShort } = await toFetchRequest(incoming, ownOrigin);
      const requestOrigin = request.headers.get('Origin');
      const response = cors.isPreflight(request) ? cors.preflight(requestOrigin) : await handle(request);
      const extraHeaders = cors.headersFor(requestOrigin);
      if (bodyCutShort) dropRestOfBody(incoming);
      await sendFetchResponse(response, outgoing, extraHeaders);
    } catch (error) {
      console.error(error);
      if (!outgoing.headersSent) await sendFetchResponse(internalError(), outgoing, cors.headersFor(incoming.headers.origin ?? null));
      else outgoing.destroy();
    }
  });
  await listen(server, options.port);
  const { port } = server.address() as AddressInfo;
  ownOrigin = `http://127.0.0.1:${port}`;
  return { url: ownOrigin, close: () => close(server) };
}

/** How long the rest of a refused body may take to arrive before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * The rest of a body too large to read is read and dropped as it arrives
 * (never kept), so the connection stays in step for its next request and a
 * client still sending gets our 413 rather than a reset (Firefox reports a
 * reset as a network error). One that is still sending after LINGER_MS is
 * cut off, so no client can hold the server reading.
 */
function dropRestOfBody(incoming: IncomingMessage): void {
  const cut = setTimeout(() => incoming.socket.destroy(), LINGER_MS);
  incoming.once('end', () => clearTimeout(cut));
  incoming.resume();
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const forceClose = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(forceClose);
      resolve();
    });
    server.closeIdleConnections();
  });
}
