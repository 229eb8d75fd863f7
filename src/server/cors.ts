import { ERROR_CODE_HEADER, ORIGIN_NOT_ALLOWED } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { MEMBER_TOKEN_HEADER } from '../api/member-tokens.js';

/** Request headers a Questboard client sends: the key, JSON bodies, retries of writes, where an event stream resumes, and the member's token. */
const ALLOWED_REQUEST_HEADERS = `Authorization, Content-Type, Idempotency-Key, Last-Event-ID, ${MEMBER_TOKEN_HEADER}`;
/** Every method the server takes somewhere. */
export const ALLOWED_METHODS = 'GET, POST, OPTIONS';
/** Answer headers a page needs to read besides the CORS-safelisted ones (the request id, to quote in a report; a refusal's code). */
const EXPOSED_HEADERS = `Allow, Retry-After, X-Request-Id, ${ERROR_CODE_HEADER}`;
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * Which browser origins may call the server. An app's settings.allowed_origins decide for the
 * requests its keys make; the server's --cors-origin list (`*`: any) decides for the others,
 * and for apps without a list of their own.
 */
export interface Cors {
  /**
   * Headers to add to an answer for a request from `origin`; `appOrigins` is the list of the
   * app the request's key belongs to, when the handler has told it (RequestContext.checkOrigin).
   */
  headersFor(origin: string | null, appOrigins?: readonly string[]): Headers;
  /** Throws the 403 for a browser request from an origin the app (or the server) does not allow. */
  checkOrigin(origin: string, appOrigins: readonly string[] | undefined): void;
  isPreflight(request: Request): boolean;
  /** The answer to a preflight from `origin`. */
  preflight(origin: string | null): Response;
}

export function createCors(serverOrigins: string[]): Cors {
  const allows = (origin: string | null, appOrigins: readonly string[] | undefined): boolean => {
    if (origin === null) return false;
    if (appOrigins !== undefined) return appOrigins.includes(origin);
    return serverOrigins.includes('*') || serverOrigins.includes(origin);
  };
  const headersFor = (origin: string | null, appOrigins?: readonly string[]) => {
    const headers = new Headers();
    const anyOrigin = appOrigins === undefined && serverOrigins.includes('*');
    // The answer differs by Origin when only listed origins are allowed, so caches must key on it.
    if (!anyOrigin) headers.set('Vary', 'Origin');
    if (anyOrigin || allows(origin, appOrigins)) {
      headers.set('Access-Control-Allow-Origin', anyOrigin ? '*' : origin!);
      headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
    return headers;
  };
  return {
    headersFor,
    checkOrigin(origin, appOrigins) {
      if (allows(origin, appOrigins)) return;
      const list = appOrigins === undefined ? "this server's --cors-origin" : "the allowed_origins of this API key's app";
      throw new ApiError(ORIGIN_NOT_ALLOWED, { origin, allowed: list });
    },
    isPreflight: (request) => request.method === 'OPTIONS' && request.headers.has('Access-Control-Request-Method'),
    /**
     * A preflight carries no key (browsers never send credentials on it) and, for a POST, no
     * app_id either (that is in the body), so it cannot tell which app's allowed_origins apply.
     * It lets any origin ask: the request itself is then refused (403, before the operation
     * runs) when its app does not allow the origin, and its answer carries no
     * Access-Control-Allow-Origin, so that page learns nothing and changes nothing. Answering
     * preflights by --cors-origin alone would shut out the origins only an app lists, and by
     * every app's lists would cost a query per preflight and still let an origin of one app ask
     * another: neither would protect anything the check of the request does not.
     */
    preflight(origin) {
      const headers = new Headers();
      const anyOrigin = serverOrigins.includes('*');
      if (!anyOrigin) headers.set('Vary', 'Origin');
      if (anyOrigin || origin !== null) {
        headers.set('Access-Control-Allow-Origin', anyOrigin ? '*' : origin!);
        headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        headers.set('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS);
        headers.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
      }
      return new Response(null, { status: 204, headers });
    },
  };
}
