import { MEMBER_TOKEN_HEADER } from '../api/member-tokens.js';
import { describeMismatch, failureShape, successShape } from './answer-shapes.js';

/** One request to the remote server: a live call or the replay of a queued write. */
export interface RemoteCall {
  /** The operation path under /v1/, e.g. `get_userinfo` or `admin/import`. */
  operation: string;
  url: string;
  method: string;
  authorization: string | null;
  contentType: string | null;
  idempotencyKey: string | null;
  /** The member token (X-Questboard-Member) the call was made with. */
  memberToken: string | null;
  body: string | null;
}

export type RemoteOutcome =
  /** A real answer of the API (2xx or 4xx, of the right shape), to pass on unchanged. */
  | { kind: 'answer'; status: number; headers: Headers; body: string }
  /** Network error, timeout (no status) or 5xx (its status): the remote could not serve the call. */
  | { kind: 'unreachable'; reason: string; status?: number }
  /** The remote answered, but not as the API answers: the reason says how. */
  | { kind: 'invalid'; reason: string };

export type RemoteFetch = (request: Request) => Promise<Response>;

export async function callRemote(fetchRemote: RemoteFetch, call: RemoteCall, timeoutMs: number): Promise<RemoteOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced rather than left to the signal, so a fetch that ignores it (or a body that never ends) still times out.
  const timeout = new Promise<RemoteOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: 'unreachable', reason: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const exchange = async (): Promise<RemoteOutcome> => {
    let response: Response;
    let body: string;
    try {
      response = await fetchRemote(toRequest(call, controller.signal));
      body = await response.text();
    } catch (error) {
      return { kind: 'unreachable', reason: `network error: ${(error as Error).message}` };
    }
    return classify(call, response, body);
  };
  try {
    return await Promise.race([exchange(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function toRequest(call: RemoteCall, signal: AbortSignal): Request {
  const headers = new Headers({ Accept: 'application/json' });
  if (call.authorization !== null) headers.set('Authorization', call.authorization);
  if (call.contentType !== null) headers.set('Content-Type', call.contentType);
  if (call.idempotencyKey !== null) headers.set('Idempotency-Key', call.idempotencyKey);
  if (call.memberToken !== null) headers.set(MEMBER_TOKEN_HEADER, call.memberToken);
  return new Request(call.url, {
    method: call.method,
    headers,
    body: call.body,
    mode: 'cors',
    credentials: 'omit',
    cache: 'no-store',
    signal,
  });
}

function classify(call: RemoteCall, response: Response, body: string): RemoteOutcome {
  const { status } = response;
  if (status >= 500) return { kind: 'unreachable', reason: `the remote answered ${status}`, status };
  const answered = `The remote answered ${call.operation} with ${status}`;
  if (status < 200 || (status >= 300 && status < 400))
    return { kind: 'invalid', reason: `${answered}, which the API never answers.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const contentType = response.headers.get('Content-Type') ?? 'no content type';
    return { kind: 'invalid', reason: `${answered} and a body that is not JSON (${contentType}).` };
  }
  const shape = status < 300 ? successShape(call.operation, new URL(call.url)) : failureShape;
  const checked = shape?.safeParse(parsed);
  if (checked !== undefined && !checked.success) {
    return { kind: 'invalid', reason: `${answered} in the wrong shape (${describeMismatch(checked.error)}).` };
  }
  return { kind: 'answer', status, headers: passedOnHeaders(response.headers), body };
}

/** The body is passed on decoded and re-measured, so the remote's framing headers no longer apply. */
function passedOnHeaders(remoteHeaders: Headers): Headers {
  const headers = new Headers(remoteHeaders);
  headers.delete('Content-Length');
  headers.delete('Content-Encoding');
  return headers;
}
