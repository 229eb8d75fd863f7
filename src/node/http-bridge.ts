import type { IncomingMessage, ServerResponse } from 'node:http';
import { BODY_LIMIT } from '../server/http.js';
import { operations } from '../server/operations.js';

/**
 * The handler answers 413 past an operation's body limit (16 KiB, more for an
 * import) by itself; reading one byte more than the limit is enough for it to
 * see the body is too large, and nothing larger is ever held in memory.
 */
export function bodyReadLimit(pathname: string): number {
  const at = pathname.lastIndexOf('/v1/');
  const name = at === -1 ? '' : pathname.slice(at + '/v1/'.length);
  const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
  return (operation?.bodyLimit ?? BODY_LIMIT) + 1;
}

/** Headers about the connection or the framing of the body, which the rebuilt Request must not carry. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade', 'expect']);

export interface BridgedRequest {
  request: Request;
  /** The client sent more than bodyReadLimit bytes, and the rest was left unread. */
  bodyCutShort: boolean;
}

export async function toFetchRequest(incoming: IncomingMessage, origin: string): Promise<BridgedRequest> {
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    const name = incoming.rawHeaders[i]!;
    if (!CONNECTION_HEADERS.has(name.toLowerCase())) headers.append(name, incoming.rawHeaders[i + 1]!);
  }
  const method = incoming.method ?? 'GET';
  const url = new URL(incoming.url ?? '/', origin);
  if (method === 'GET' || method === 'HEAD') {
    incoming.resume();
    return { request: new Request(url, { method, headers }), bodyCutShort: false };
  }
  const { body, cutShort } = await readBodyUpTo(incoming, bodyReadLimit(url.pathname));
  return { request: new Request(url, { method, headers, body }), bodyCutShort: cutShort };
}

function readBodyUpTo(incoming: IncomingMessage, limit: number): Promise<{ body: Uint8Array<ArrayBuffer>; cutShort: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (cutShort: boolean) => {
      incoming.off('data', onData).off('end', onEnd).off('error', reject);
      const body = new Uint8Array(Math.min(length, limit));
      body.set(Buffer.concat(chunks, body.length));
      resolve({ body, cutShort });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) {
        incoming.pause();
        finish(true);
      }
    };
    const onEnd = () => finish(false);
    incoming.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

export async function sendFetchResponse(response: Response, outgoing: ServerResponse, extraHeaders: Headers): Promise<void> {
  const headers = new Headers(response.headers);
  extraHeaders.forEach((value, name) => headers.set(name, value));
  const body = Buffer.from(await response.arrayBuffer());
  headers.set('content-length', String(body.length));
  // An empty statusText (the usual for a constructed Response) lets Node write the standard reason phrase.
  if (response.statusText === '') outgoing.writeHead(response.status, Object.fromEntries(headers));
  else outgoing.writeHead(response.status, response.statusText, Object.fromEntries(headers));
  outgoing.end(body);
}
