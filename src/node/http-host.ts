import type { EventEmitter } from 'node:events';
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '../api/errors.js';
import type { Handle } from '../server/handler.js';
import { errorResponse } from '../server/http.js';
import { createCors } from './cors.js';
import { notImplemented, sendFetchResponse, toFetchRequest } from './http-bridge.js';

export interface HttpHost {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops accepting connections and resolves once the open ones have ended. */
  close(): Promise<void>;
}

/** How long requests already running may take to finish once the host is asked to stop. */
const CLOSE_GRACE_MS = 3_000;

/**
 * Serves `handle` over HTTP on the loopback interface only. Whatever Node's
 * HTTP parser refuses, or would answer by itself with an empty body, is
 * answered here in the API's error shape.
 */
export async function startHttpHost(handle: Handle, options: { port: number; corsOrigins: string[] }): Promise<HttpHost> {
  const cors = createCors(options.corsOrigins);
  /** Aborted on close: answers still streaming (event streams, which never end by themselves) end then. */
  const closing = new AbortController();
  let ownOrigin = '';
  /** Each connection's latest response, so a parser error is never written into the middle of one. */
  const responses = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(async (incoming, outgoing) => {
    responses.set(incoming.socket, outgoing);
    const origin = incoming.headers.origin ?? null;
    let detachBody = () => {};
    let response: Response;
    try {
      const bridged = toFetchRequest(incoming, ownOrigin);
      detachBody = bridged.detachBody;
      response = cors.isPreflight(bridged.request) ? cors.preflight(origin) : await handle(bridged.request);
    } catch (error) {
      response = hostError(error);
    }
    detachBody();
    if (!incoming.readableEnded) dropRestOfBody(incoming);
    try {
      await sendFetchResponse(response, outgoing, cors.headersFor(origin), closing.signal);
    } catch (error) {
      console.error(error);
      outgoing.destroy();
    }
    // Closing, the host takes no next request on this connection: it ends once the answer is out.
    if (closing.signal.aborted) incoming.socket.end();
  });
  // Any Expect but 100-continue; Node would answer an empty 417.
  server.on('checkExpectation', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    dropRestOfBody(incoming);
    const refusal = new ApiError(417, 'Expect: only 100-continue is understood here.');
    void sendFetchResponse(errorResponse(refusal), outgoing, cors.headersFor(incoming.headers.origin ?? null));
  });
  // Node hands a CONNECT over as a raw socket; without a listener it would drop it.
  server.on('connect', (incoming: IncomingMessage, socket: Duplex) => {
    void answerOnSocket(socket, notImplemented('CONNECT'), cors.headersFor(incoming.headers.origin ?? null));
  });
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The parser reports each later chunk of a connection it gave up on again: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    const pending = responses.get(socket);
    if (error.code === 'ECONNRESET' || !socket.writable || (pending?.headersSent && !pending.writableEnded)) {
      socket.destroy();
      return;
    }
    void answerOnSocket(socket, parserError(error), cors.headersFor(null));
  });
  await listen(server, options.port);
  const { port } = server.address() as AddressInfo;
  ownOrigin = `http://127.0.0.1:${port}`;
  return {
    url: ownOrigin,
    close() {
      closing.abort();
      return close(server);
    },
  };
}

function hostError(error: unknown): Response {
  if (error instanceof ApiError) return errorResponse(error);
  console.error(error);
  return errorResponse(new ApiError(500, 'internal error in the HTTP host'));
}

/** What Node's parser could not take (its codes: llhttp's HPE_*), said as the API says it. */
function parserError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, `The request's URL and headers are larger than ${maxHeaderSize} bytes.`);
    case 'HPE_INVALID_METHOD':
      return notImplemented();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'The request took too long to arrive.');
    default:
      return new ApiError(400, 'The request is not well-formed HTTP/1.1.');
  }
}

/**
 * Writes an error answer straight to a socket that no ServerResponse serves
 * (a request the parser refused, or a CONNECT), and closes the connection.
 */
async function answerOnSocket(socket: Duplex, error: ApiError, extraHeaders: Headers): Promise<void> {
  socket.on('error', () => socket.destroy());
  dropRestOfConnection(socket);
  const response = errorResponse(error);
  const body = Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  extraHeaders.forEach((value, name) => headers.set(name, value));
  headers.set('content-length', String(body.length));
  headers.set('connection', 'close');
  let head = `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n`;
  headers.forEach((value, name) => (head += `${name}: ${value}\r\n`));
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]));
}

/** How long the rest of a refused body may take to arrive before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * The rest of a body the handler did not read (a refused caller's, or one
 * past the limit) is read and dropped as it arrives (never kept), so the
 * connection stays in step for its next request and a client still sending
 * gets our answer rather than a reset (Firefox reports a reset as a network
 * error). One that is still sending after LINGER_MS is cut off, so no client
 * can hold the server reading.
 */
function dropRestOfBody(incoming: IncomingMessage): void {
  cutAfterLinger(incoming.socket, incoming, 'end');
  incoming.resume();
}

/** The same for a connection answered on its socket: read and dropped until the client closes it. */
function dropRestOfConnection(socket: Duplex): void {
  cutAfterLinger(socket, socket, 'close');
  socket.resume();
}

function cutAfterLinger(socket: Duplex, stream: EventEmitter, done: string): void {
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  stream.once(done, () => clearTimeout(cut));
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
