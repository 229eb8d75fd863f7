import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWERED_BEFORE_BODY, BODY_CUT_SHORT, MALFORMED_REQUEST, METHOD_NOT_IMPLEMENTED } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { ALLOWED_METHODS } from './cors.js';

/**
 * Headers about the connection or the framing of the body, which the rebuilt
 * Request must not carry. Content-Length stays: the handler refuses a declared
 * length past its limit before reading anything.
 */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade', 'expect']);

/** Methods a fetch Request refuses to carry (Fetch: forbidden methods); the server implements none of them. */
const UNCARRIED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A method the server takes nowhere (any it takes somewhere is the handler's 405). */
export function notImplemented(method?: string): ApiError {
  return new ApiError(METHOD_NOT_IMPLEMENTED, { method: method ?? 'This method', allowed: ALLOWED_METHODS });
}

export interface BridgedRequest {
  request: Request;
  /**
   * Stops handing the body to the request: a read still waiting fails (the
   * handler may still be reading when the host has answered for it, after a
   * timeout); what the handler left unread is still to be dropped.
   */
  detachBody(): void;
}

/**
 * The Request the handler takes. Its body streams from the connection as the
 * handler reads it, so the handler can refuse a caller before any of it is
 * read. Throws an ApiError for what a Request cannot say.
 */
export function toFetchRequest(incoming: IncomingMessage, origin: string): BridgedRequest {
  const method = incoming.method ?? 'GET';
  if (UNCARRIED_METHODS.has(method)) throw notImplemented(method);
  let detachBody = () => {};
  try {
    const headers = new Headers();
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
      const name = incoming.rawHeaders[i]!;
      if (!CONNECTION_HEADERS.has(name.toLowerCase())) headers.append(name, incoming.rawHeaders[i + 1]!);
    }
    const url = new URL(incoming.url ?? '/', origin);
    let body = null;
    if (method !== 'GET' && method !== 'HEAD') ({ body, detach: detachBody } = bodyStream(incoming));
    // `duplex` is what Node's fetch asks of a streamed body; the DOM typings do not know it yet.
    const init = { method, headers, body, duplex: 'half' } as RequestInit;
    return { request: new Request(url, init), detachBody };
  } catch {
    // What a Request refuses: no URL, one with credentials, a header value it will not hold.
    detachBody();
    throw new ApiError(MALFORMED_REQUEST);
  }
}

/**
 * The body as a stream that reads the connection only when the handler asks
 * (high-water mark 0), one chunk at a time, and whose cancel just stops
 * reading, so the host can drop the rest. Not Readable.toWeb: on Node 20,
 * cancelling it mid-body lets the next chunk throw "Controller is already
 * closed" out of the request's 'data' event, which ends the process.
 */
function bodyStream(incoming: IncomingMessage): { body: ReadableStream<Uint8Array>; detach(): void } {
  let detach = () => {};
  let stopReading = () => {};
  let ended = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer) => {
          incoming.pause();
          controller.enqueue(chunk);
        };
        const onEnd = () => {
          ended = true;
          detach();
          controller.close();
        };
        const onError = () => {
          detach();
          controller.error(new ApiError(BODY_CUT_SHORT));
        };
        detach = () => {
          incoming.off('data', onData).off('end', onEnd).off('error', onError);
          incoming.pause();
        };
        stopReading = () => {
          detach();
          // Every request that sent a body ends here once answered, most of them read to the end:
          // an error made for those (its stack captured) took 1.5% of a write's time.
          if (!ended) controller.error(new ApiError(ANSWERED_BEFORE_BODY));
        };
        incoming.on('data', onData).on('end', onEnd).on('error', onError);
        // A 'data' listener starts the flow; nothing flows until the handler reads.
        incoming.pause();
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        detach();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, detach: () => stopReading() };
}

/**
 * Writes the answer, its body as it arrives: an answer that declares its length (every JSON
 * answer) is sent with it, one that does not (an event stream, which never ends by itself)
 * goes chunked, never buffered whole. When the client goes away first, or `stop` aborts (the
 * host is closing), the body is cancelled, which lets go of whatever feeds it. Resolves once
 * the answer is sent or abandoned.
 */
export async function sendFetchResponse(
  response: Response,
  outgoing: ServerResponse,
  extraHeaders: Headers,
  stop?: AbortSignal,
): Promise<void> {
  const headers = new Headers(response.headers);
  extraHeaders.forEach((value, name) => headers.set(name, value));
  // An empty statusText (the usual for a constructed Response) lets Node write the standard reason phrase.
  if (response.statusText === '') outgoing.writeHead(response.status, Object.fromEntries(headers));
  else outgoing.writeHead(response.status, response.statusText, Object.fromEntries(headers));
  if (response.body === null) {
    outgoing.end();
    return;
  }
  // Headers go out now: an event stream's first event may be a while coming.
  if (!headers.has('content-length')) outgoing.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  let closed = false;
  const onClose = () => {
    closed = true;
    if (!outgoing.writableFinished) cancel();
  };
  outgoing.once('close', onClose);
  stop?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value) && !closed) await drainedOrClosed(outgoing);
    }
    outgoing.end();
  } finally {
    outgoing.off('close', onClose);
    stop?.removeEventListener('abort', cancel);
  }
}

function drainedOrClosed(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done).off('close', done);
      resolve();
    };
    outgoing.on('drain', done).on('close', done);
  });
}
