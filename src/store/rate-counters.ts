// The counters behind a server's write limits (src/handler/rate-limits.ts): how many writes
// each bucket (a key, a member, a client address) made in a sliding window. Counted in the
// request's own transaction, so a write that fails or is refused later counts for nothing,
// and the count and the write commit together. Only the SQL store keeps them: the worker and
// the page serve one browser's own store, where there is nobody to limit.
import type { Transaction } from './port.js';

export interface RateWindow {
  /** Who is counted: a kind and a hash, never a key or an address in clear. */
  bucket: string;
  /** Writes allowed in any stretch of `windowMs`. */
  limit: number;
  windowMs: number;
  /** The request's clock, epoch ms. */
  now: number;
}

export interface RateCount {
  /** Whether the write fits under the limit; only then is it counted. */
  admitted: boolean;
  /** How long until a write would fit (ms); 0 when admitted. */
  retryAfterMs: number;
}

export interface RateCounters {
  /** Counts one write in the bucket if it fits, in one atomic statement. */
  count(tx: Transaction, window: RateWindow): Promise<RateCount>;
  /** Deletes up to `limit` counters whose windows have all passed by `now`. */
  forgetExpired(tx: Transaction, now: number, limit: number): Promise<void>;
}
