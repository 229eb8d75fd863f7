import { operationOf } from '../../src/api/api-path.js';
import type { InProcessChangeFeed } from '../../src/handler/change-feed.js';
import type { Handle } from '../../src/handler/handler.js';
import { jsonResponse } from '../../src/handler/http.js';

/** One /v1 request as the server received it, for tests that count deliveries. */
export interface ReceivedRequest {
  method: string;
  path: string;
  idempotency_key: string | null;
  last_event_id: string | null;
}

/**
 * Wraps the handler with what tests need from a real server and cannot get
 * otherwise: a log of the /v1 requests it received (so a test can tell a
 * replay arrived exactly once), a switch that makes every /v1 call (or those
 * to one path) fail with a 5xx, as an overloaded server or a broken proxy
 * would, one that makes every /v1 call slow (for timeouts, and requests under
 * way at shutdown), and a cut of the open event streams, as a proxy's timeout would.
 *   GET  /_test/requests        the log
 *   GET  /_test/subscriptions   how many event streams the change feed still serves
 *   POST /_test/fault           {"status": 503} makes /v1 answer that; {"status": 503, "path": "/v1/events"} only there
 *   POST /_test/delay           {"ms": 2000} makes /v1 answer that much later (0 ends it)
 *   POST /_test/end-streams     ends every open event stream
 *   POST /_test/reset           clears the log and ends the fault and the delay
 *   POST /_test/clock           {"advance_ms": 86400000} moves the server's clock (`clock`) that far on
 * (GET and POST only, which the CORS preflight allows.)
 */
export function withTestHooks(handle: Handle, changes: InProcessChangeFeed, clock: TestClock): Handle {
  let received: ReceivedRequest[] = [];
  let fault: Fault | null = null;
  let delayMs = 0;
  let openStreams = new Set<AbortController>();
  return async (request, context) => {
    const url = new URL(request.url);
    const { pathname } = url;
    const operation = operationOf(url);
    if (pathname === '/_test/requests') return jsonResponse(200, { requests: received });
    if (pathname === '/_test/subscriptions') return jsonResponse(200, { subscriptions: changes.subscriptionCount() });
    if (pathname === '/_test/reset' && request.method === 'POST') {
      received = [];
      fault = null;
      delayMs = 0;
      return jsonResponse(200, { reset: true });
    }
    if (pathname === '/_test/fault' && request.method === 'POST') {
      const asked = await readFault(request);
      if (asked === null) {
        return jsonResponse(400, { is_valid: false, message: 'POST /_test/fault needs {"status": <5xx>, "path"?: "/v1/…"}' });
      }
      fault = asked;
      return jsonResponse(200, fault);
    }
    if (pathname === '/_test/end-streams' && request.method === 'POST') {
      for (const stream of openStreams) stream.abort();
      const ended = openStreams.size;
      openStreams = new Set();
      return jsonResponse(200, { ended });
    }
    if (pathname === '/_test/clock' && request.method === 'POST') {
      const ms = await readNumber(request, 'advance_ms');
      if (ms === null || ms < 0)
        return jsonResponse(400, { is_valid: false, message: 'POST /_test/clock needs {"advance_ms": <ms>}' });
      clock.advance(ms);
      return jsonResponse(200, { now: new Date(clock.now()).toISOString() });
    }
    if (pathname === '/_test/delay' && request.method === 'POST') {
      const ms = await readDelay(request);
      if (ms === null) {
        return jsonResponse(400, { is_valid: false, message: `POST /_test/delay needs {"ms": <0 to ${MAX_DELAY_MS}>}` });
      }
      delayMs = ms;
      return jsonResponse(200, { ms });
    }
    if (operation !== null) {
      received.push({
        method: request.method,
        path: pathname,
        idempotency_key: request.headers.get('Idempotency-Key'),
        last_event_id: request.headers.get('Last-Event-ID'),
      });
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (fault !== null && (fault.path === undefined || fault.path === pathname)) {
        return jsonResponse(fault.status, { is_valid: false, message: 'fault injected by the test hooks' });
      }
    }
    if (operation === 'events') {
      // The handler ends the stream when its request is aborted.
      const stream = new AbortController();
      openStreams.add(stream);
      return handle(new Request(request, { signal: stream.signal }), context);
    }
    return handle(request, context);
  };
}

/** The server's clock, real time moved on by what the tests asked (a day, not waited for). */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let advancedMs = 0;
  return {
    now: () => Date.now() + advancedMs,
    advance: (ms) => {
      advancedMs += ms;
    },
  };
}

interface Fault {
  status: number;
  /** Only requests to this path fail; all /v1 requests without one. */
  path?: string;
}

async function readFault(request: Request): Promise<Fault | null> {
  const body = (await request.json().catch(() => null)) as { status?: unknown; path?: unknown } | null;
  const status = body?.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 500 || status > 599) return null;
  if (body?.path === undefined) return { status };
  return typeof body.path === 'string' && body.path.startsWith('/v1/') ? { status, path: body.path } : null;
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
