// Identical reads that arrive together are answered by one run of the handler:
// a community page opened by many members at once asks for the same leaderboard
// page over and over, and under load each such read waits for a database
// connection before it runs. A read that comes while an identical one still
// waits, before that one's transaction has begun, takes its answer instead of
// running again. Its answer is then read from a snapshot taken after it came,
// so it is as fresh as its own would be: every write answered before it came is
// in it. Once the transaction begins, later reads run on their own, as they do
// once it has failed or has waited JOINABLE_MS for its turn: a read stuck on a
// database that stopped answering is never joined by every read like it.
//
// Why it stays (bench/shared-reads.js, the handler on PostgreSQL in one process,
// 64 callers, 5,000 members, a loaded 2-core machine, 2026-11-28): one
// leaderboard page asked for by all, 2,931 requests a second shared against 273
// not (7,194 against 807 in a second run); reads that never share (each
// member's info) pay for the lookup, 919 against 1,011 a second (1,253 against
// 1,322): some 5-10%, within this machine's noise of a run.
import { operationOf } from '../api/api-path.js';
import { MEMBER_TOKEN_HEADER } from '../api/member-tokens.js';
import type { Handle } from '../handler/handler.js';
import { operations } from '../handler/operations.js';
import type { RequestContext } from '../handler/request-guards.js';

/**
 * The request headers a read's answer depends on, beside its URL: two reads alike in these
 * have the same answer. The Origin is also the CORS check's (RequestContext.checkOrigin).
 * A header the handler comes to read for a GET belongs here (test/server/shared-reads.test.js
 * checks the handler's reads against this list).
 */
export const ANSWER_HEADERS = ['authorization', 'origin', 'accept-language', MEMBER_TOKEN_HEADER.toLowerCase()];

interface Answer {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
  /** What the handler gave the CORS check, for each reader's own host to answer CORS by. */
  checkedOrigins: { allowed: readonly string[] | undefined } | null;
}

/**
 * How long a read waiting for its transaction may be joined: the driver gives up on a reservation
 * after a few seconds (postgres-pool.ts), but a read that waits this long is waiting for a
 * database in trouble, and the reads that come after it try for themselves.
 */
const JOINABLE_MS = 1_000;

/** A read under way that others may still join: they take its answer, read once for all of them. */
interface Flight {
  /** The answer, for one more reader. */
  join(): Promise<Answer>;
}

/** `handle`, with identical reads that arrive while one waits answered once (for up to `joinableMs`). */
export function sharingReads(handle: Handle, { joinableMs = JOINABLE_MS } = {}): Handle {
  /** The reads others may still join, by key. */
  const open = new Map<string, Flight>();

  async function fly(key: string, request: Request, context: RequestContext | undefined): Promise<Response> {
    let checkedOrigins: Answer['checkedOrigins'] = null;
    const checkOrigin = context?.checkOrigin;
    let joiners = 0;
    let share: (answer: Promise<Answer>) => void = () => {};
    const shared = new Promise<Answer>((resolve) => (share = resolve));
    const flight: Flight = {
      join: () => {
        joiners += 1;
        return shared;
      },
    };
    const close = () => {
      if (open.get(key) === flight) open.delete(key);
    };
    const own: RequestContext = {
      ...context,
      // Its snapshot is taken by its first statement, after this: a read that comes from now on
      // must not take its answer. Told by the request's context, not by an AsyncLocalStorage
      // around the store, whose promise hooks slowed every request of the process (docs/performance.md).
      transactionBegins: () => {
        close();
        context?.transactionBegins?.();
      },
      ...(checkOrigin && {
        checkOrigin: (allowed: readonly string[] | undefined) => {
          checkedOrigins = { allowed };
          checkOrigin(allowed);
        },
      }),
    };
    open.set(key, flight);
    const joinable = setTimeout(close, joinableMs);
    let response: Response;
    try {
      response = await handle(request, own);
    } catch (error) {
      if (joiners > 0) share(Promise.reject(error));
      throw error;
    } finally {
      clearTimeout(joinable);
      close();
    }
    // No one joins now. With no one joined, its reader has the handler's answer as it is: read
    // and made again, it cost get_userinfo (which names a member, as most reads do, and rarely
    // shares) a tenth of its requests a second under load (docs/performance.md).
    if (joiners === 0) return response;
    const answer = (async () => ({
      status: response.status,
      headers: [...response.headers],
      body: await response.arrayBuffer(),
      checkedOrigins,
    }))();
    share(answer);
    return responseOf(await answer);
  }

  return async (request, context) => {
    const key = keyOf(request);
    if (key === null) return handle(request, context);
    const flight = open.get(key);
    if (flight === undefined) return fly(key, request, context);
    const answer = await flight.join();
    // The reader's own host hears the allowed origins too (its CORS headers); the outcome of
    // the check is in the answer already, as the Origin is part of the key.
    if (answer.checkedOrigins && context?.checkOrigin) {
      try {
        context.checkOrigin(answer.checkedOrigins.allowed);
      } catch {
        // Refused alike in the shared answer.
      }
    }
    return responseOf(answer);
  };
}

/** A reader's own Response of an answer read once: a body is read only once. */
const responseOf = ({ status, headers, body }: Answer) => new Response(body.byteLength > 0 ? body : null, { status, headers });

/** What makes two requests the same read, or null for a request that never shares. */
function keyOf(request: Request): string | null {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (!onlyReads(url)) return null;
  return JSON.stringify([url.href, ...ANSWER_HEADERS.map((name) => request.headers.get(name))]);
}

/** Whether the operation a GET names only reads: a GET airdrop writes, and an event stream is a connection of its own. */
function onlyReads(url: URL): boolean {
  const name = operationOf(url);
  const operation = name !== null && Object.hasOwn(operations, name) ? operations[name] : undefined;
  return operation !== undefined && operation.transaction !== 'write' && !operation.streamsChanges;
}
