import { ERROR_CODE_HEADER, MEMBER_TOKEN_HEADER } from '../api/member-tokens.js';

/** Request headers a Questboard client sends: the key, JSON bodies, retries of writes, where an event stream resumes, and the member's token. */
const ALLOWED_REQUEST_HEADERS = `Authorization, Content-Type, Idempotency-Key, Last-Event-ID, ${MEMBER_TOKEN_HEADER}`;
/** Every method the server takes somewhere. */
export const ALLOWED_METHODS = 'GET, POST, OPTIONS';
/** Answer headers a page needs to read besides the CORS-safelisted ones (the request id, to quote in a report; a refusal's code). */
const EXPOSED_HEADERS = `Allow, Retry-After, X-Request-Id, ${ERROR_CODE_HEADER}`;
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export interface Cors {
  /** Headers to add to an answer for a request from `origin`. */
  headersFor(origin: string | null): Headers;
  isPreflight(request: Request): boolean;
  /** The answer to a preflight from `origin`. */
  preflight(origin: string | null): Response;
}

export function createCors(allowedOrigins: string[]): Cors {
  const anyOrigin = allowedOrigins.includes('*');
  const allowedOrigin = (origin: string | null): string | null => {
    if (anyOrigin) return '*';
    return origin !== null && allowedOrigins.includes(origin) ? origin : null;
  };
  const headersFor = (origin: string | null) => {
    const headers = new Headers();
    // The answer differs by Origin when only listed origins are allowed, so caches must key on it.
    if (!anyOrigin) headers.set('Vary', 'Origin');
    const allowed = allowedOrigin(origin);
    if (allowed !== null) {
      headers.set('Access-Control-Allow-Origin', allowed);
      headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    return headers;
  };
  return {
    headersFor,
    isPreflight: (request) => request.method === 'OPTIONS' && request.headers.has('Access-Control-Request-Method'),
    preflight(origin) {
      const headers = headersFor(origin);
      if (headers.has('Access-Control-Allow-Origin')) {
        headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        headers.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
        headers.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      }
      return new Response(null, { status: 204, headers });
    },
  };
}
