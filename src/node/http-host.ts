import { createServer, type Server } from 'node:http';
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
      // The unread rest of an oversized body would otherwise be parsed as the next request.
      if (bodyCutShort) extraHeaders.set('Connection', 'close');
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
