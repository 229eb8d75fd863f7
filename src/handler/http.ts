// Reading requests and writing responses, with the limits the API promises.
import { BODY_TOO_LARGE, ERROR_CODE_HEADER, INVALID_BODY, UNSUPPORTED_CONTENT_TYPE } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { toJsonText } from '../api/formats.js';
import { JsonTextError, parseJsonText } from '../api/json-text.js';
import { EXACT_NUMBER_PATHS } from '../api/schemas.js';

export const BODY_LIMIT = 16 * 1024;
/**
 * `application/json`, with no charset or UTF-8's, which JSON is (RFC 8259): a body declared in
 * another (`utf-16`, `latin1`) would be garbled if read as UTF-8. Parameters are
 * case-insensitive and may be quoted (RFC 9110).
 */
const JSON_IN_UTF8 = /^application\/json\s*(?=;|$)(?!.*charset\s*=(?!\s*"?utf-?8\b))/i;

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

/** The JSON body of a POST: 415 for another type or charset, 413 past the limit, 400 for bad UTF-8 or JSON. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  if (!JSON_IN_UTF8.test(request.headers.get('content-type') ?? '')) {
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
 * The text of at most `limit` bytes of UTF-8. A declared Content-Length past the limit is refused
 * before anything is read. Where the engine exposes the body as a stream (Chromium, WebKit,
 * Node), it is counted and decoded as it arrives, so a larger body is refused without being
 * buffered whole and no bytes are kept beside the text. Firefox's Request has no `body` (MDN:
 * Request.body, Firefox preview only): there the body is already in memory, so it is read whole
 * and counted. The decoder is fatal: bytes that are not UTF-8 are refused, never read as U+FFFD,
 * which would keep what the client never sent.
 */
async function readText(request: Request, limit: number): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw bodyTooLarge(limit);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let size = 0;
  let text = '';
  /** Takes the next bytes; `more` while a character may go on in the next. */
  const take = (bytes: AllowSharedBufferSource, more: boolean) => {
    size += bytes.byteLength;
    if (size > limit) throw bodyTooLarge(limit);
    try {
      text += utf8.decode(bytes, { stream: more });
    } catch {
      throw new ApiError(INVALID_BODY, { problem: 'is not valid UTF-8' });
    }
  };
  if (!request.body) take(await request.arrayBuffer(), false);
  else {
    const reader = request.body.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      try {
        take(chunk.value, true);
      } catch (error) {
        await reader.cancel();
        throw error;
      }
    }
    // The end: a character cut short there is refused.
    take(new Uint8Array(), false);
  }
  return text;
}

const bodyTooLarge = (limit: number) => new ApiError(BODY_TOO_LARGE, { limit });
