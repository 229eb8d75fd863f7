// Reading requests and writing responses, with the limits the API promises.
import { BODY_TOO_LARGE, ERROR_CODE_HEADER, INVALID_BODY, UNSUPPORTED_CONTENT_TYPE } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { toJsonText } from '../api/formats.js';
import { JsonTextError, parseJsonText } from '../api/json-text.js';
import { EXACT_NUMBER_PATHS } from '../api/schemas.js';

export const BODY_LIMIT = 16 * 1024;

/** A JSON answer, with its length: a host sends a body of unknown length (an event stream) as it comes instead. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const bytes = new TextEncoder().encode(toJsonText(body));
  return new Response(bytes, {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

export function errorResponse(error: ApiError): Response {
  return jsonResponse(
    error.status,
    { is_valid: false, message: error.message },
    { [ERROR_CODE_HEADER]: error.code, ...error.headers },
  );
}

/** The JSON body of a POST: 415 for another type, 413 past the limit, 400 for bad JSON. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError(UNSUPPORTED_CONTENT_TYPE);
  }
  const text = await readText(request, limit);
  if (text.trim() === '') throw new ApiError(INVALID_BODY, { problem: 'is empty: send a JSON object' });
  let body: unknown;
  try {
    body = parseJsonText(text, EXACT_NUMBER_PATHS);
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    throw new ApiError(INVALID_BODY, { problem: error.message });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(INVALID_BODY, { problem: 'must be a JSON object' });
  }
  return body;
}

/**
 * Reads at most `limit` bytes. A declared Content-Length past the limit is
 * refused before anything is read. Where the engine exposes the body as a
 * stream (Chromium, WebKit, Node), it is counted as it arrives and a larger
 * body is refused without being buffered whole. Firefox's Request has no
 * `body` (MDN: Request.body, Firefox preview only): there the body is
 * already in memory, so it is read whole and counted.
 */
async function readText(request: Request, limit: number): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw bodyTooLarge(limit);
  const bytes = request.body ? await readStream(request.body, limit) : new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit) throw bodyTooLarge(limit);
  return new TextDecoder().decode(bytes);
}

const bodyTooLarge = (limit: number) => new ApiError(BODY_TOO_LARGE, { limit });

async function readStream(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
