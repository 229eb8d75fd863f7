// What a server checks once a request's key names its app, in the operation's transaction and
// before its answer counts (handler.ts): that a browser calls from an origin the app allows, and
// that a write stays within the app's limits.
// Each needs what only a server has (the host's Origin policy and the client's address, a
// database shared by its processes), so the worker and the page check neither.
import type { ApiKeyRecord, Transaction } from '../store/index.js';
import type { RateLimiter } from './rate-limits.js';

/** What a host knows of a request beyond the Request itself; the Node server gives it. */
export interface RequestContext {
  /** The client's address (the socket's, or a trusted proxy's X-Forwarded-For). */
  clientAddress?: string;
  /**
   * Given for a request with an Origin (a browser's): called with the allowed_origins of the
   * app the key belongs to (undefined when it has none, or the key none), and throws a 403 for
   * an origin not allowed. The host answers CORS by the same list.
   */
  checkOrigin?(allowedOrigins: readonly string[] | undefined): void;
  /**
   * Called as the request's transaction begins (health's, the database's ping), before its first
   * statement, and again where the store runs it again: a host that answers identical reads once
   * (src/server/shared-reads.ts) gives this one's answer to no read that comes later.
   */
  transactionBegins?(): void;
}

export interface GuardedRequest {
  tx: Transaction;
  key: ApiKeyRecord;
  /** The member a verified member token names, for a member key's write. */
  member: string | null;
  /** Whether the operation writes: only writes are limited. */
  writes: boolean;
  context: RequestContext | undefined;
  limiter: RateLimiter | undefined;
  now: number;
}

export async function guardRequest({ tx, key, member, writes, context, limiter, now }: GuardedRequest): Promise<void> {
  const checkOrigin = context?.checkOrigin;
  const app_id = key.app_id;
  const limited = writes && limiter !== undefined && app_id !== null;
  if (!checkOrigin && !limited) return;
  const app = app_id === null ? undefined : await tx.get('apps', app_id);
  checkOrigin?.(app?.allowed_origins);
  if (!limited) return;
  await limiter.limit(tx, {
    app_id,
    key: key.key_sha256,
    member: member ?? undefined,
    clientAddress: context?.clientAddress,
    limits: app?.rate_limits,
    now,
  });
}
