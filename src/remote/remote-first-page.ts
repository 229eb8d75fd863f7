// The strategy hosted by a page (the in-page transport): the same rules as in
// the worker, with the outbox replayed on the window's `online` event.
import type { Handle } from '../handler/handler.js';
import { remoteFirst, type RemoteFirst, type RemoteFirstOptions } from './remote-first.js';

export function remoteFirstInPage(local: Handle, options: RemoteFirstOptions = {}): RemoteFirst {
  const remote = remoteFirst(local, options);
  // A replay that still finds the remote unreachable keeps its writes for the next chance.
  const replay = () => void remote.replayOutbox().catch(() => undefined);
  window.addEventListener('online', replay);
  return {
    ...remote,
    close() {
      window.removeEventListener('online', replay);
      remote.close();
    },
  };
}
