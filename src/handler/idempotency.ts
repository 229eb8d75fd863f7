// Idempotency-Key: a write retried with the same key answers its first answer,
// for a day, as the payment APIs that defined the pattern keep them.
import { IDEMPOTENCY_KEY_REUSED, INVALID_IDEMPOTENCY_KEY } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { RawJson, toJsonText } from '../api/formats.js';
import type { Transaction } from '../store/index.js';
import type { Outcome } from './operations.js';

/** How long a record answers; afterwards the key may be used afresh. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Expired records deleted per recorded write: each write adds one, so taking
 * up to ten clears any backlog (a busy day, an upgrade) without walking the store.
 */
const SWEEP_BATCH = 10;
/** Visible ASCII, as a header value carries it unchanged through every host. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs a write at most once per Idempotency-Key: a retry gets the first
 * answer, in the same transaction as the write, so two racing retries
 * cannot both pay.
 */
export async function once(
  tx: Transaction,
  api_key: string,
  idempotency_key: string,
  /** The request's fingerprint, then the forms an earlier version wrote for the same request. */
  [fingerprint, ...earlierForms]: string[],
  now: number,
  run: () => Promise<Outcome>,
): Promise<Outcome> {
  if (!KEY.test(idempotency_key)) {
    throw new ApiError(INVALID_IDEMPOTENCY_KEY);
  }
  const expired = now - IDEMPOTENCY_WINDOW_MS;
  const earlier = await tx.get('idempotency', [api_key, idempotency_key]);
  if (earlier && earlier.created_at > expired) {
    if (earlier.fingerprint !== fingerprint && !earlierForms.includes(earlier.fingerprint)) {
      throw new ApiError(IDEMPOTENCY_KEY_REUSED);
    }
    return { status: earlier.status, body: new RawJson(earlier.body) };
  }
  const outcome = await run();
  const status = outcome.status ?? 200;
  await tx.forgetIdempotency(expired, SWEEP_BATCH);
  tx.put('idempotency', { api_key, idempotency_key, fingerprint, status, body: toJsonText(outcome.body), created_at: now });
  return outcome;
}

/** JSON with sorted keys, so equal inputs give equal fingerprints. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(',')}}`;
}
