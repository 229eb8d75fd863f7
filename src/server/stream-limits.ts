// How many event streams (GET /v1/events) one client may hold open on this process: each holds a
// connection and up to a stream's buffer of memory for as long as it lasts, so without a cap one
// address or one key could open them until the server runs out.
import { TOO_MANY_EVENT_STREAMS } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { bearerKey } from '../core/access.js';

/** Tabs of one browser, or a few people behind one NAT, each following an app or two. */
export const DEFAULT_STREAMS_PER_ADDRESS = 20;
/**
 * A read key is public: every visitor of the pages that embed it streams with it, so its cap is
 * the audience of one app on one process, there to bound what a leaked key can hold open.
 */
export const DEFAULT_STREAMS_PER_KEY = 1_000;
/** A stream ends when its reader leaves, which nobody can foretell: ask again after this long. */
const RETRY_AFTER_SECONDS = 30;

export interface StreamLimits {
  perAddress: number;
  perKey: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { perAddress: DEFAULT_STREAMS_PER_ADDRESS, perKey: DEFAULT_STREAMS_PER_KEY };

/**
 * Counts the open streams of each address and key. `open` takes a place for a stream about to be
 * answered, or throws a 429; the place is held until `release`, once the answer's connection has
 * let go of it (a dropped stream's last bytes may wait there for a reader that never comes).
 */
export function streamCounter({ perAddress, perKey }: StreamLimits) {
  const byAddress = new Map<string, number>();
  const byKey = new Map<string, number>();
  const take = (counts: Map<string, number>, subject: string) => counts.set(subject, (counts.get(subject) ?? 0) + 1);
  const give = (counts: Map<string, number>, subject: string) => {
    const left = counts.get(subject)! - 1;
    if (left === 0) counts.delete(subject);
    else counts.set(subject, left);
  };
  return {
    open(clientAddress: string | undefined, authorization: string | null): () => void {
      const key = keyOf(authorization);
      if (clientAddress !== undefined && (byAddress.get(clientAddress) ?? 0) >= perAddress) {
        throw tooMany(`${perAddress} event streams are open from the address ${clientAddress}`);
      }
      if (key !== null && (byKey.get(key) ?? 0) >= perKey) throw tooMany(`${perKey} event streams are open with this key`);
      if (clientAddress !== undefined) take(byAddress, clientAddress);
      if (key !== null) take(byKey, key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (clientAddress !== undefined) give(byAddress, clientAddress);
        if (key !== null) give(byKey, key);
      };
    },
  };
}

/** The key a request streams with; none, when it sends none (the handler answers that 401). */
function keyOf(authorization: string | null): string | null {
  try {
    return bearerKey(authorization);
  } catch {
    return null;
  }
}

function tooMany(why: string): ApiError {
  return new ApiError(TOO_MANY_EVENT_STREAMS, { why }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
}
