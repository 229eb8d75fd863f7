import {
  BROADCAST_CHANNEL,
  isChangeNotice,
  isSyncErrorMessage,
  type ChangeNotice,
  type SyncErrorMessage,
} from '../api/broadcast.js';

export type { ChangeNotice };
export type ChangeListener = (change: ChangeNotice) => void;

declare global {
  interface WindowEventMap {
    'qb-sync-error': CustomEvent<SyncErrorMessage>;
  }
}

// One channel object per page: BroadcastChannel never delivers a message to the object that
// posted it, so changes made in this page are handed to local listeners directly.
let channel: BroadcastChannel | undefined;
const listeners = new Set<ChangeListener>();

function ensureChannel(): BroadcastChannel | undefined {
  if (!channel && typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(BROADCAST_CHANNEL);
    channel.addEventListener('message', (event) => {
      if (isChangeNotice(event.data)) deliverChange(event.data);
      // A queued write the remote refused on replay: it is dropped, and the page is told.
      else if (isSyncErrorMessage(event.data)) dispatchEvent(new CustomEvent('qb-sync-error', { detail: event.data }));
    });
  }
  return channel;
}

/**
 * Hands a change to this page's listeners only: one this page made (after announcing it), or
 * one it heard of from another tab, the worker or a remote server, which every page hears itself.
 */
export function deliverChange(change: ChangeNotice): void {
  for (const listener of [...listeners]) listener(change);
}

/** Calls `listener` for every committed write, from this page, other tabs, the worker or a remote server's event stream. */
export function subscribeToChanges(listener: ChangeListener): () => void {
  ensureChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this page and every other tab of the origin about a committed write. */
export function announceChange(change: ChangeNotice): void {
  ensureChannel()?.postMessage(change);
  deliverChange(change);
}

/** Whether a change touches data about `accountName` in `appId` (either may be unknown). */
export function changeAffects(change: ChangeNotice, appId: string | undefined, accountName?: string): boolean {
  if (appId !== undefined && change.app_id !== appId) return false;
  if (change.scope === 'treasury') return false;
  if (change.scope === 'app' || accountName === undefined) return true;
  return change.account_names.includes(accountName);
}
