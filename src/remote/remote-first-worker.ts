// The strategy hosted by a service worker: the remote setting arrives by
// message (worker-protocol.ts), and the outbox is replayed on the worker's
// `online` event and by Background Sync where the browser has it.
import type { Handle } from '../handler/handler.js';
import { remoteFirst, type RemoteFirst, type RemoteFirstOptions } from './remote-first.js';
import { isConfigureRemoteMessage, type ConfigureRemoteReply } from './worker-protocol.js';

export const OUTBOX_SYNC_TAG = 'questboard-outbox';

/**
 * What is used of ServiceWorkerGlobalScope, typed here because this module is also checked
 * against the DOM lib, and no lib types Background Sync.
 */
export interface WorkerScope {
  addEventListener(type: string, listener: (event: Event) => void): void;
  registration: object;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
interface SyncEvent extends ExtendableEvent {
  tag: string;
}
interface SyncManager {
  register(tag: string): Promise<void>;
}

export function remoteFirstInWorker(scope: WorkerScope, local: Handle, options: RemoteFirstOptions = {}): RemoteFirst {
  const syncManager = (scope.registration as { sync?: SyncManager }).sync;
  const remote = remoteFirst(local, {
    ...options,
    onQueued() {
      options.onQueued?.();
      // Without Background Sync (or when it is refused) the next request or `online` event replays instead.
      void syncManager?.register(OUTBOX_SYNC_TAG).catch(() => undefined);
    },
  });
  scope.addEventListener('message', (event) => {
    const { data, ports } = event as ExtendableMessageEvent;
    if (!isConfigureRemoteMessage(data)) return;
    const reply = (answer: ConfigureRemoteReply) => ports[0]?.postMessage(answer);
    (event as ExtendableMessageEvent).waitUntil(
      remote.configure(data).then(
        (settings) => reply({ type: 'questboard:remote-configured', settings }),
        (error: unknown) => reply({ type: 'questboard:remote-refused', message: (error as Error).message }),
      ),
    );
  });
  // A replay that still finds the remote unreachable keeps its writes for the next chance.
  scope.addEventListener('online', () => void remote.replayOutbox().catch(() => undefined));
  scope.addEventListener('sync', (event) => {
    // Rejecting tells the browser to retry this sync later, with its own backoff.
    if ((event as SyncEvent).tag === OUTBOX_SYNC_TAG) (event as SyncEvent).waitUntil(remote.replayOutbox());
  });
  return remote;
}
