/** Why a queued write was dropped without being delivered. */
export type SyncErrorReason =
  /** The remote refused it with a 4xx. */
  | 'refused'
  /** The remote answered it with a 5xx on MAX_FAILED_REPLAYS replays. */
  | 'failed-replays'
  /** It was still queued MAX_QUEUED_AGE_MS after it was made. */
  | 'expired'
  /** MAX_QUEUED_WRITES newer writes were queued after it. */
  | 'outbox-full';

/** Posted on BroadcastChannel('questboard') when a queued write is dropped undelivered. */
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

export function broadcastSyncError(error: SyncErrorMessage): void {
  if (typeof BroadcastChannel !== 'function') return;
  const channel = new BroadcastChannel('questboard');
  channel.postMessage(error);
  channel.close();
}
