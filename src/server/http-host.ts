import { setMaxListeners, type EventEmitter } from 'node:events';
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import {
  ANSWER_TIMEOUT,
  EXPECTATION_FAILED,
  HEADERS_TOO_LARGE,
  INTERNAL_ERROR,
  MALFORMED_HTTP,
  REQUEST_TOO_SLOW,
} from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { Handle } from '../handler/handler.js';
import { errorResponse } from '../handler/http.js';
import type { RequestContext } from '../handler/request-guards.js';
import { clientAddressOf } from './client-address.js';
import { createCors } from './cors.js';
import { notImplemented, sendFetchResponse, toFetchRequest } from './http-bridge.js';
import type { Logger } from './logger.js';
import { cannotListen } from './startup-error.js';
import { DEFAULT_STREAM_LIMITS, streamCounter, type StreamLimits } from './stream-limits.js';

export interface HostOptions {
  /** The interface to listen on. */
  host: string;
  port: number;
  corsOrigins: string[];
  /** Whether the last X-Forwarded-For entry is the client's address (--trust-proxy): only behind a proxy that appends it. */
  trustProxy?: boolean;
  /** How long the handler may take to answer before the host answers 503 itself. */
  requestTimeoutMs: number;
  /** How many event streams one client address, and one key, may hold open (default DEFAULT_STREAM_LIMITS). */
  streamLimits?: StreamLimits;
  logger: Logger;
}

export interface HttpHost {
  /** `http://<address>:<port>`, as bound. */
  url: string;
  /**
   * Stops accepting connections, lets the requests under way finish (each
   * answered with `Connection: close`) for up to SHUTDOWN_GRACE_MS, then cuts
   * what is left; resolves once every connection has ended.
   */
  close(): Promise<void>;
}

/** Under the 10 s a container is given between SIGTERM and SIGKILL (docker stop), so the store is still closed cleanly. */
const SHUTDOWN_GRACE_MS = 8_000;
/** A client has this long to send a request's head: a slow trickle of headers must not hold a connection. */
const HEADERS_TIMEOUT_MS = 20_000;
/** And this long to send all of it: a 64 MiB import over a slow link (Node's own default). */
const RECEIVE_TIMEOUT_MS = 300_000;
/**
 * An idle connection is kept this long for the client's next request: longer
 * than the 60 s idle timeout of the usual proxies in front (nginx, cloud load
 * balancers), so the server never closes one just as a proxy reuses it.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** An import runs to its end: answered early, it would seem failed and then commit, and a retry would merge it twice. */
const RUNS_TO_ITS_END = /\/v1\/admin\/import$/;

/** The event stream (GET /v1/events), whose answers last as long as their reader: counted per client. */
const EVENT_STREAM = /\/v1\/events$/;

/** An X-Request-Id a proxy set is kept when it is a plain token, so one id follows the request through both logs. */
const SANE_REQUEST_ID = /^[\w.:+=/-]{1,128}$/;

/**
 * Serves `handle` over HTTP. Whatever Node's HTTP parser refuses, or would
 * answer by itself with an empty body, is answered here in the API's error
 * shape. Every request gets an id (X-Request-Id, on the answer and the
 * request the handler sees) and one access log line, which never holds the
 * query string: keys and addresses may travel there.
 */
export async function startHttpHost(handle: Handle, options: HostOptions): Promise<HttpHost> {
  const { logger, requestTimeoutMs, trustProxy = false } = options;
  const cors = createCors(options.corsOrigins);
  const streams = streamCounter(options.streamLimits ?? DEFAULT_STREAM_LIMITS);
  /** Aborted on close: answers still streaming (event streams, which never end by themselves) end then. */
  const closing = new AbortController();
  // Every answer being sent listens to it (an event stream for its whole life), so more than
  // Node's default of 10 at once is the usual, not a leak.
  setMaxListeners(0, closing.signal);
  let ownOrigin = '';
  /** Each connection's latest response, so a parser error is never written into the middle of one. */
  const responses = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(async (incoming, outgoing) => {
    const started = performance.now();
    responses.set(incoming.socket, outgoing);
    const requestId = requestIdOf(incoming.headers['x-request-id']);
    const method = incoming.method ?? 'GET';
    const path = (incoming.url ?? '/').split('?')[0]!;
    outgoing.once('close', () => {
      const status = outgoing.headersSent ? outgoing.statusCode : null;
      logger.info({ reqId: requestId, method, path, status, durationMs: elapsedMs(started) }, 'request');
    });
    const origin = incoming.headers.origin ?? null;
    /** The allowed_origins of the app the request's key belongs to, once the handler has said them. */
    let appOrigins: readonly string[] | undefined;
    const context: RequestContext = {
      clientAddress: clientAddressOf(incoming.socket.remoteAddress, incoming.headers['x-forwarded-for'], trustProxy),
    };
    if (origin !== null) {
      context.checkOrigin = (allowed) => {
        appOrigins = allowed;
        cors.checkOrigin(origin, allowed);
      };
    }
    let detachBody = () => {};
    let response: Response;
    try {
      const bridged = toFetchRequest(incoming, ownOrigin);
      detachBody = bridged.detachBody;
      const { request } = bridged;
      request.headers.set('X-Request-Id', requestId);
      if (cors.isPreflight(request)) response = cors.preflight(origin);
      else {
        // Taken before the handler subscribes, given back once the connection lets go of the answer.
        if (EVENT_STREAM.test(path))
          outgoing.once('close', streams.open(context.clientAddress, request.headers.get('authorization')));
        if (RUNS_TO_ITS_END.test(path)) response = await handle(request, context);
        else
          response = await answerInTime(handle(request, context), requestTimeoutMs, () =>
            logger.warn({ reqId: requestId, path }, 'request timed out'),
          );
      }
    } catch (error) {
      response = hostError(error, logger, requestId);
    }
    detachBody();
    if (!incoming.readableEnded) dropRestOfBody(incoming);
    const headers = cors.headersFor(origin, appOrigins);
    headers.set('X-Request-Id', requestId);
    if (closing.signal.aborted) headers.set('Connection', 'close');
    try {
      await sendFetchResponse(response, outgoing, headers, closing.signal);
    } catch (error) {
      logger.error({ err: error, reqId: requestId }, 'the answer could not be sent');
      outgoing.destroy();
    }
    // Closing, the host takes no next request on this connection: it ends once the answer is out.
    if (closing.signal.aborted) incoming.socket.end();
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = RECEIVE_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  /** One line for a request answered outside the handler's path, with what is known of it. */
  const logRefused = (status: number, method: string | null) =>
    logger.info({ reqId: randomUUID(), method, path: null, status, durationMs: 0 }, 'request');
  // Any Expect but 100-continue; Node would answer an empty 417.
  server.on('checkExpectation', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    dropRestOfBody(incoming);
    logRefused(417, incoming.method ?? null);
    const refusal = new ApiError(EXPECTATION_FAILED);
    void sendFetchResponse(errorResponse(refusal), outgoing, cors.headersFor(incoming.headers.origin ?? null));
  });
  // Node hands a CONNECT over as a raw socket; without a listener it would drop it.
  server.on('connect', (incoming: IncomingMessage, socket: Duplex) => {
    logRefused(501, 'CONNECT');
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
    const refusal = parserError(error);
    logRefused(refusal.status, null);
    void answerOnSocket(socket, refusal, cors.headersFor(null));
  });
  await listen(server, options.host, options.port);
  const { address, family, port } = server.address() as AddressInfo;
  ownOrigin = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  return {
    url: ownOrigin,
    close: () => {
      closing.abort();
      return close(server);
    },
  };
}

function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

const elapsedMs = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/**
 * The handler's answer, or a 503 once `timeoutMs` have passed. The work goes
 * on (a transaction cannot be taken back halfway), so the answer says a write
 * may still land and how to retry it safely.
 */
async function answerInTime(answer: Promise<Response>, timeoutMs: number, onTimeout: () => void): Promise<Response> {
  // An answer that fails after the 503 has nobody left to tell; before it, the race below sees it.
  answer.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Response>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve(errorResponse(new ApiError(ANSWER_TIMEOUT, { ms: timeoutMs })));
    }, timeoutMs);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

function hostError(error: unknown, logger: Logger, requestId: string): Response {
  if (error instanceof ApiError) return errorResponse(error);
  logger.error({ err: error, reqId: requestId }, 'unexpected error in the HTTP host');
  return errorResponse(new ApiError(INTERNAL_ERROR));
}

/** What Node's parser could not take (its codes: llhttp's HPE_*), said as the API says it. */
function parserError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(HEADERS_TOO_LARGE, { limit: maxHeaderSize });
    case 'HPE_INVALID_METHOD':
      return notImplemented();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(REQUEST_TOO_SLOW);
    default:
      return new ApiError(MALFORMED_HTTP);
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

/**
 * Throws the StartupError the host would, when the port cannot be listened on now: checked before
 * the store opens and a dataset loads, which may take minutes, so a port in use is said at once.
 */
export async function checkCanListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(cannotListen(host, port, error)));
    probe.listen({ host, port, exclusive: true }, resolve);
  });
  await new Promise((resolve) => probe.close(resolve));
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: Error) => reject(cannotListen(host, port, error));
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const forceClose = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearTimeout(forceClose);
      resolve();
    });
    server.closeIdleConnections();
  });
}
