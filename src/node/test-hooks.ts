import type { Handle } from '../server/handler.js';

/** One /v1 request as the server received it, for tests that count deliveries. */
export interface ReceivedRequest {
  method: string;
  path: string;
  idempotency_key: string | null;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Wraps the handler with what tests need from a real server and cannot get
 * otherwise: a log of the /v1 requests it received (so a test can tell a
 * replay arrived exactly once), a switch that makes every /v1 call fail with
 * a 5xx, as an overloaded server or a broken proxy would, and one that makes
 * every /v1 call slow (for timeouts, and requests under way at shutdown).
 *   GET  /_test/requests   the log
 *   POST /_test/fault      {"status": 503} makes /v1 answer that
 *   POST /_test/delay      {"ms": 2000} makes /v1 answer that much later (0 ends it)
 *   POST /_test/reset      clears the log and ends the fault and the delay
 * (GET and POST only, which the CORS preflight allows.)
 */
export function withTestHooks(handle: Handle): Handle {
  let received: ReceivedRequest[] = [];
  let faultStatus: number | null = null;
  let delayMs = 0;
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/_test/requests') return json({ requests: received });
    if (pathname === '/_test/reset' && request.method === 'POST') {
      received = [];
      faultStatus = null;
      delayMs = 0;
      return json({ reset: true });
    }
    if (pathname === '/_test/fault' && request.method === 'POST') {
      const status = await readFaultStatus(request);
      if (status === null) return json({ is_valid: false, message: 'POST /_test/fault needs {"status": <5xx>}' }, 400);
      faultStatus = status;
      return json({ status: faultStatus });
    }
    if (pathname === '/_test/delay' && request.method === 'POST') {
      const ms = await readDelay(request);
      if (ms === null) return json({ is_valid: false, message: `POST /_test/delay needs {"ms": <0 to ${MAX_DELAY_MS}>}` }, 400);
      delayMs = ms;
      return json({ ms });
    }
    if (pathname.startsWith('/v1/')) {
      received.push({ method: request.method, path: pathname, idempotency_key: request.headers.get('Idempotency-Key') });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (faultStatus !== null) return json({ is_valid: false, message: 'fault injected by the test hooks' }, faultStatus);
    }
    return handle(request);
  };
}

async function readFaultStatus(request: Request): Promise<number | null> {
  const status = await readNumber(request, 'status');
  return status !== null && status >= 500 && status <= 599 ? status : null;
}

const MAX_DELAY_MS = 60_000;

async function readDelay(request: Request): Promise<number | null> {
  const ms = await readNumber(request, 'ms');
  return ms !== null && ms >= 0 && ms <= MAX_DELAY_MS ? ms : null;
}

/** The whole number in the field of a JSON body, or null. */
async function readNumber(request: Request, field: string): Promise<number | null> {
  const body: unknown = await request.json().catch(() => null);
  const value = (body as Record<string, unknown> | null)?.[field];
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}
