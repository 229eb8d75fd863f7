// Reading requests and writing responses, with the limits the API promises.
import { ApiError } from '../api/errors.js';
import { toJsonText } from '../api/formats.js';

export const BODY_LIMIT = 16 * 1024;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(toJsonText(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorResponse(error: ApiError): Response {
  return jsonResponse(error.status, { is_valid: false, message: error.message }, error.headers);
}

/** The JSON body of a POST: 415 for another type, 413 past the limit, 400 for bad JSON. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError(415, 'Unsupported content-type: send the body as application/json.');
  }
  const text = await readText(request, limit);
  if (text.trim() === '') throw new ApiError(400, 'The request body is empty: send a JSON object.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'The request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object.');
  }
  return body;
}

/** Reads at most `limit` bytes: a larger body is refused, never buffered whole. */
async function readText(request: Request, limit: number): Promise<string> {
  const tooLarge = () => new ApiError(413, `The request body is larger than ${limit} bytes.`);
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
