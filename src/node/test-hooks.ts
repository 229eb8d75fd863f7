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
 * Wraps the handler with what browser tests need from a real remote and
 * cannot get otherwise: a log of the /v1 requests it received (so a test can
 * tell a replay arrived exactly once) and a switch that makes every /v1 call
 * fail with a 5xx, as an overloaded server or a broken proxy would.
 *   GET  /_test/requests   the log
 *   POST /_test/fault      {"status": 503} makes /v1 answer that
 *   POST /_test/reset      clears the log and ends the fault
 * (GET and POST only, which the CORS preflight allows.)
 */
export function withTestHooks(handle: Handle): Handle {
  let received: ReceivedRequest[] = [];
  let faultStatus: number | null = null;
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/_test/requests') return json({ requests: received });
    if (pathname === '/_test/reset' && request.method === 'POST') {
      received = [];
      faultStatus = null;
      return json({ reset: true });
    }
    if (pathname === '/_test/fault' && request.method === 'POST') {
      const status = await readFaultStatus(request);
      if (status === null) return json({ is_valid: false, message: 'POST /_test/fault needs {"status": <5xx>}' }, 400);
      faultStatus = status;
      return json({ status: faultStatus });
    }
    if (pathname.startsWith('/v1/')) {
      received.push({ method: request.method, path: pathname, idempotency_key: request.headers.get('Idempotency-Key') });
      if (faultStatus !== null) return json({ is_valid: false, message: 'fault injected by the test hooks' }, faultStatus);
    }
    return handle(request);
  };
}

async function readFaultStatus(request: Request): Promise<number | null> {
  const body: unknown = await request.json().catch(() => null);
  const status = (body as { status?: unknown } | null)?.status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 500 && status <= 599 ? status : null;
}
