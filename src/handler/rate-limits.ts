// Write limits on a server: every write counts against its API key, its member (the `sub` of
// a verified member token) and its client's address, each in a sliding window, with counters
// in the database (RateCounters) so that every server process on one database shares them.
// An app's settings.rate_limits override the defaults, limit by limit; null turns one off.
//
// The defaults, per minute:
// - 30 per member: a person endorses or saves a profile a few times a minute at most; 30 leaves
//   room for a burst (endorsing a team) and stops a script writing as one member.
// - 120 per client address: a few members behind one address (a household, a small office);
//   a site whose members share one (a school, a company's proxy) raises it or turns it off.
// - 600 per key: the ceiling for the whole community's page key, 10 writes a second, so that
//   members spread over many addresses still cannot rewrite a board faster than people do.
//   A site's own server writing through one key from one address (log_task) raises these two.
// The installation's admin keys belong to no app and are not limited: they are the operator's.
//
// Failed authentications (any 401: a key no one has, a member token that does not verify) count
// against the client's address, in the same database counters, whatever the app: by default 100
// every 60 s (--failed-auth-limit). A person who mistypes a key, or a page with an expired token
// retrying, stays far below; a script guessing keys or signatures is answered 429 until its window
// has room again, for every key it sends, good or not, so that no guess is judged meanwhile.
import { TOO_MANY_FAILED_AUTHENTICATIONS, TOO_MANY_WRITES } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { RateLimit, RateLimits } from '../api/schemas.js';
import { sha256Hex } from '../api/key-hash.js';
import { StaleReadAhead, type RateCount, type RateCounters, type Store, type Transaction } from '../store/index.js';

export const DEFAULT_RATE_LIMITS: Required<{ [K in keyof RateLimits]: RateLimit }> = {
  per_key: { writes: 600, window_seconds: 60 },
  per_member: { writes: 30, window_seconds: 60 },
  per_ip: { writes: 120, window_seconds: 60 },
};

export const DEFAULT_FAILED_AUTH_LIMIT = { failures: 100, window_seconds: 60 };

/** How many failed authentications a client address may make in a window; null: no limit. */
export type FailedAuthLimit = typeof DEFAULT_FAILED_AUTH_LIMIT | null;

/** Expired counters are deleted at most this often per process, a batch at a time, by a write's transaction. */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1_000;
/** Keys whose app and limits a process remembers for counting ahead (countAhead): the least recently limited go first. */
const KNOWN_KEYS = 1_000;
/** Addresses a process refuses until their Retry-After, as it last counted their failures: the earliest-told go first. */
const REFUSED_ADDRESSES = 10_000;

/** One write to count. */
export interface LimitedWrite {
  app_id: string;
  /** The API key as its record keeps it. */
  key: string;
  /** The member a verified member token names (its `sub`). */
  member?: string | undefined;
  /** The client's address as the host saw it (client-address.ts); only a server knows it. */
  clientAddress?: string | undefined;
  /** The app's settings.rate_limits. */
  limits?: RateLimits | undefined;
  /** The request's clock, epoch ms. */
  now: number;
}

export interface RateLimiter {
  /**
   * Counts the write in the request's transaction, or throws a 429 saying which limit and when to
   * retry. Where the transaction counted ahead for other limits than the write's, it throws
   * StaleReadAhead: the store runs the write again, counted as limited now.
   */
  limit(tx: Transaction, write: LimitedWrite): Promise<void>;
  /**
   * Counts a write before its key is answered, so that the counts go to the database with the
   * key's read (read-ahead.ts) rather than a round trip after it, under the app's lock: as
   * the key's last write was limited here (its app, and that app's limits), which limit() then
   * checks. Returns that app, or null for a key not limited here yet, which is not counted.
   */
  countAhead(tx: Transaction, write: Omit<LimitedWrite, 'app_id' | 'limits'>): string | null;
  /**
   * Before a request's key is looked at: a 429 for an address over its failed authentications,
   * as this process last counted them, until their Retry-After. No round trip: another process
   * finds out at the address's next failure there.
   */
  admitAuthentication(clientAddress: string | undefined, now: number): void;
  /**
   * A refused key or member token (a 401) counts against its client's address: returns the 401,
   * or a 429 once the address is over its limit. Counted in a write of its own, as the request's
   * transaction is rolled back; a database that cannot count leaves the 401 (and a log line).
   * Here rather than in the handler: only a server counts, so the worker's bundle leaves it out.
   */
  failedAuthentication(
    store: Pick<Store, 'write'>,
    refusal: ApiError,
    clientAddress: string | undefined,
    now: number,
    onUnexpectedError: (error: unknown) => void,
  ): Promise<ApiError>;
}

export function createRateLimiter(
  counters: RateCounters,
  failedAuthLimit: FailedAuthLimit = DEFAULT_FAILED_AUTH_LIMIT,
): RateLimiter {
  let sweepAt = 0;
  /** Each refused address, and until when (epoch ms). */
  const refusedUntil = new Map<string, number>();
  /** Each key's app and limits as its last write was limited, the least recent first. */
  const known = new Map<string, Pick<LimitedWrite, 'app_id' | 'limits'>>();
  /** What a transaction counted ahead: its write's app and limits, and the counts. */
  const countedAhead = new WeakMap<Transaction, { app_id: string; limits: string; counts: Promise<RateCount[]> }>();

  // Counted together, in one round trip.
  const count = (tx: Transaction, write: LimitedWrite, limits: Limit[]) =>
    Promise.all(
      limits.map(({ kind, subject, limit }) =>
        counters.count(tx, {
          bucket: `${kind} ${sha256Hex(`${write.app_id}\n${subject}`)}`,
          limit: limit.writes,
          windowMs: limit.window_seconds * 1000,
          now: write.now,
        }),
      ),
    );

  /** Counts a failed authentication from the address; over the limit, a 429. */
  const countFailure = async (tx: Transaction, clientAddress: string, limit: NonNullable<FailedAuthLimit>, now: number) => {
    const { admitted, retryAfterMs } = await counters.count(tx, {
      bucket: `failed-auth ${sha256Hex(clientAddress)}`,
      limit: limit.failures,
      windowMs: limit.window_seconds * 1000,
      now,
    });
    if (admitted) return;
    refusedUntil.delete(clientAddress);
    refusedUntil.set(clientAddress, now + retryAfterMs);
    if (refusedUntil.size > REFUSED_ADDRESSES) refusedUntil.delete(refusedUntil.keys().next().value!);
    throw tooManyFailures(clientAddress, limit, retryAfterMs);
  };

  return {
    admitAuthentication(clientAddress, now) {
      const until = clientAddress === undefined ? undefined : refusedUntil.get(clientAddress);
      if (until === undefined) return;
      if (now >= until) refusedUntil.delete(clientAddress!);
      else throw tooManyFailures(clientAddress!, failedAuthLimit!, until - now);
    },

    async failedAuthentication(store, refusal, clientAddress, now, onUnexpectedError) {
      if (clientAddress === undefined || failedAuthLimit === null) return refusal;
      try {
        await store.write((tx) => countFailure(tx, clientAddress, failedAuthLimit, now));
        return refusal;
      } catch (error) {
        if (error instanceof ApiError) return error;
        onUnexpectedError(error);
        return refusal;
      }
    },

    countAhead(tx, write) {
      const last = known.get(write.key);
      if (!last) return null;
      const limited = { ...write, ...last };
      const limits = limitsOf(limited);
      const counts = count(tx, limited, limits);
      // Taken by limit(); a transaction that fails before it fails with what it met first.
      counts.catch(() => undefined);
      countedAhead.set(tx, { app_id: last.app_id, limits: JSON.stringify(limits), counts });
      return last.app_id;
    },

    async limit(tx, write) {
      known.delete(write.key);
      known.set(write.key, { app_id: write.app_id, limits: write.limits });
      if (known.size > KNOWN_KEYS) known.delete(known.keys().next().value!);
      const limits = limitsOf(write);
      const ahead = countedAhead.get(tx);
      if (ahead && (ahead.app_id !== write.app_id || ahead.limits !== JSON.stringify(limits))) throw new StaleReadAhead();
      const sweep =
        write.now >= sweepAt
          ? ((sweepAt = write.now + SWEEP_EVERY_MS), counters.forgetExpired(tx, write.now, SWEEP_BATCH))
          : undefined;
      const [counts] = await Promise.all([ahead?.counts ?? count(tx, write, limits), sweep]);
      // Told narrowest first: an address or member over its own limit hears of that one, not of the
      // key's, which the whole community shares. A refusal rolls back every count, so the key's is
      // not used up by writes that were refused.
      const refused = limits.findIndex((_, index) => !counts[index]!.admitted);
      if (refused !== -1) throw tooManyWrites(limits[refused]!.who, limits[refused]!.limit, counts[refused]!.retryAfterMs);
    },
  };
}

/** One limit a write is counted against: who, and by which setting. */
type Limit = ReturnType<typeof limitsOf>[number];

function limitsOf({ key, member, clientAddress, limits = {} }: LimitedWrite) {
  const setting = (name: keyof RateLimits) => (limits[name] === undefined ? DEFAULT_RATE_LIMITS[name] : limits[name]);
  const all = [
    { kind: 'address', subject: clientAddress, limit: setting('per_ip'), who: `from the address ${clientAddress}` },
    { kind: 'member', subject: member, limit: setting('per_member'), who: `by the member '${member}'` },
    { kind: 'key', subject: key, limit: setting('per_key'), who: 'with this API key' },
  ];
  return all.filter((entry): entry is typeof entry & { subject: string; limit: RateLimit } => !!entry.subject && !!entry.limit);
}

function tooManyWrites(who: string, limit: RateLimit, retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError(
    TOO_MANY_WRITES,
    { who, writes: limit.writes, window: limit.window_seconds, seconds },
    { 'retry-after': String(seconds) },
  );
}

function tooManyFailures(address: string, limit: NonNullable<FailedAuthLimit>, retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError(
    TOO_MANY_FAILED_AUTHENTICATIONS,
    { address, failures: limit.failures, window: limit.window_seconds, seconds },
    { 'retry-after': String(seconds) },
  );
}
