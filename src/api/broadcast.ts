// What crosses tabs and the worker on one BroadcastChannel: a change notice after every
// committed write, and a sync error when a queued write is dropped undelivered. The
// worker, the remote strategy and every page read this one definition.

/** The channel's name, on every page and worker of the origin. */
export const BROADCAST_CHANNEL = 'questboard';

/**
 * What a committed write changed in an app, said outright: some members' numbers, the whole
 * app (an import), or only its treasury (an airdrop, which no member's widget shows).
 */
export type Changed = { app_id: string } & (
  { scope: 'members'; account_names: string[] } | { scope: 'app' } | { scope: 'treasury' }
);

/** Posted after every committed write, so every element showing the change refreshes. */
export type ChangeNotice = Changed & { type: 'questboard:change' };

export function isChangeNotice(data: unknown): data is ChangeNotice {
  const candidate = data as { type?: unknown; app_id?: unknown; scope?: unknown; account_names?: unknown } | null;
  if (typeof candidate !== 'object' || candidate === null) return false;
  if (candidate.type !== 'questboard:change' || typeof candidate.app_id !== 'string') return false;
  if (candidate.scope === 'members') return Array.isArray(candidate.account_names);
  return candidate.scope === 'app' || candidate.scope === 'treasury';
}

/** Why a queued write was dropped without being delivered. */
export type SyncErrorReason =
  /** The remote refused it with a 4xx. */
  | 'refused'
  /** The remote answered it with a 5xx on MAX_FAILED_REPLAYS replays. */
  | 'failed-replays'
  /** It was still queued MAX_QUEUED_AGE_MS after it was made. */
  | 'expired'
  /** MAX_QUEUED_WRITES newer writes were queued after it. */
  | 'outbox-full'
  /** The member token it was made with had expired by the time it could be sent (or could not be read back). */
  | 'member-token';

/** Posted when a queued write is dropped undelivered. */
export interface SyncErrorMessage {
  type: 'questboard:sync-error';
  reason: SyncErrorReason;
  operation: string;
  /** The remote's last status for it (its 4xx refusal, or the 5xx of the last replay); null when it gave none. */
  status: number | null;
  /** Why it was dropped: the remote's own message for a refusal. */
  message: string;
  /** The body of the write as it was queued (parsed JSON, or the text if it was not JSON). */
  request: unknown;
  /** When the write was made, ISO 8601. */
  queued_at: string;
}

export function isSyncErrorMessage(data: unknown): data is SyncErrorMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'questboard:sync-error';
}

/** Posts one message to every other page and worker of the origin (where the engine has BroadcastChannel). */
export function broadcast(message: ChangeNotice | SyncErrorMessage): void {
  if (typeof BroadcastChannel !== 'function') return;
  const channel = new BroadcastChannel(BROADCAST_CHANNEL);
  channel.postMessage(message);
  channel.close();
}
