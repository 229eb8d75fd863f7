/** Posted on BroadcastChannel('questboard') when the remote refused a queued write on replay; it is then dropped. */
export interface SyncErrorMessage {
  type: 'questboard:sync-error';
  operation: string;
  /** The remote's status (4xx). */
  status: number;
  /** The remote's message, saying why it refused. */
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
