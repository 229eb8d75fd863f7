// The write limits' counters on SQL: one row per bucket, counted by one INSERT … ON CONFLICT
// DO UPDATE. That statement locks the row, so whatever number of requests and processes
// count at once, each sees the count the one before left: no read-then-write race.
//
// Our own statements rather than rate-limiter-flexible: its PostgreSQL store drives the `pg`
// client and opens transactions of its own, while this store speaks through postgres.js or
// PGlite (sql.ts), and counting inside the request's transaction is what lets a refused or
// failed write count for nothing. PGlite runs one transaction at a time, so a counter in a
// transaction of its own could not even start while the request's is open.
//
// The window slides (the sliding window counter, as Cloudflare describes it): a write fits when
//   previous_hits · (W − e) / W + hits + 1 ≤ limit
// where W is the window, e the time into the current fixed window, hits the writes counted in it
// and previous_hits those of the one before: the previous window weighs what of it still lies
// within the last W. Unlike a fixed window it lets no burst of twice the limit straddle a window's
// edge, and it keeps two numbers per bucket, not a row per write. Multiplied out by W, every
// term is a whole number of ms below 2^53, so float8 compares it exactly.
import type { RateCount, RateCounters, RateWindow } from '../rate-counters.js';
import type { Transaction } from '../port.js';
import { sql } from './sql.js';
import { SqlTransaction } from './transaction.js';

interface CounterRow {
  window_start: number;
  hits: number;
  previous_hits: number;
  admitted: boolean;
}

function sessionOf(tx: Transaction) {
  if (!(tx instanceof SqlTransaction)) throw new Error('Rate counters are kept by the SQL store only.');
  return tx.session;
}

export const sqlRateCounters: RateCounters = {
  async count(tx, window) {
    const { bucket, limit, windowMs, now } = window;
    const start = Math.floor(now / windowMs) * windowMs;
    // The row's windows roll forward to `start` first: the current one becomes the previous one
    // when it is the window just before, both are forgotten when older, and a row a process with
    // a clock ahead of ours has moved on already counts as current. A new window length starts afresh.
    const [row] = await sessionOf(tx).query<CounterRow>(sql`
      INSERT INTO rate_counters AS counter (bucket, window_ms, window_start, hits, previous_hits, admitted, expires_at)
      VALUES (${bucket}::text, ${windowMs}::float8, ${start}::float8, 1, 0, true, ${start + 2 * windowMs}::float8)
      ON CONFLICT (bucket) DO UPDATE SET (window_ms, window_start, previous_hits, hits, admitted, expires_at) = (
        SELECT excluded.window_ms, rolled.window_start, rolled.previous_hits, rolled.hits + fit::integer, fit,
          rolled.window_start + 2 * excluded.window_ms
        FROM (SELECT counter.window_ms = excluded.window_ms AND counter.window_start >= excluded.window_start AS current,
                counter.window_ms = excluded.window_ms AND counter.window_start = excluded.window_start - excluded.window_ms
                  AS previous) AS age,
          LATERAL (SELECT
            CASE WHEN age.current THEN counter.window_start ELSE excluded.window_start END AS window_start,
            CASE WHEN age.current THEN counter.hits ELSE 0 END AS hits,
            CASE WHEN age.current THEN counter.previous_hits WHEN age.previous THEN counter.hits ELSE 0 END
              AS previous_hits) AS rolled,
          LATERAL (SELECT rolled.previous_hits * (excluded.window_ms - ${now - start}::float8)
            + (rolled.hits + 1) * excluded.window_ms <= ${limit}::float8 * excluded.window_ms AS fit) AS test)
      RETURNING window_start, hits, previous_hits, admitted`);
    return { admitted: row!.admitted, retryAfterMs: row!.admitted ? 0 : retryAfterMs(row!, window) };
  },

  async forgetExpired(tx, now, limit) {
    // SKIP LOCKED: a counter a request is counting in is left for the next sweep, never waited for.
    await sessionOf(tx).query(sql`
      DELETE FROM rate_counters WHERE bucket IN (
        SELECT bucket FROM rate_counters WHERE expires_at <= ${now}::float8
        ORDER BY expires_at LIMIT ${limit}::integer FOR UPDATE SKIP LOCKED)`);
  },
};

/**
 * When the next write fits, solving the rule above for e (in whole ms): within this window
 * while the previous one's weight can fall far enough, else in the next, where this window's
 * hits become the previous ones.
 */
function retryAfterMs(row: CounterRow, { limit, windowMs, now }: RateWindow): RateCount['retryAfterMs'] {
  const { window_start: start, hits, previous_hits: previous } = row;
  const fitsAt =
    hits + 1 > limit
      ? start + windowMs + Math.ceil((windowMs * (hits + 1 - limit)) / hits)
      : start + Math.ceil((windowMs * (previous + hits + 1 - limit)) / previous);
  return Math.max(0, fitsAt - now);
}
