// Live updates across browsers: with a remote server configured, the page reads the remote's
// GET /v1/events for the apps its elements and containers show, and hands each change to the
// same listeners a BroadcastChannel notice from another tab reaches. One stream per app and
// key, however many elements show it, open while at least one of them follows it. The reading
// itself (change-stream-reader.ts) is loaded only when a stream is first needed.
import { deliverChange } from './changes.js';
import { apiKeyFor, onConfigure, remoteFor, type ClientOverrides } from './config.js';
import type * as ChangeStreamReader from './change-stream-reader.js';
import type { StreamTarget } from './change-stream-reader.js';

/** How this build loads change-stream-reader.ts: a chunk for bundlers, a file beside the embed. */
export type ChangeStreamReaderLoader = () => Promise<typeof ChangeStreamReader>;

interface Follower {
  app_id: string;
  overrides: ClientOverrides;
}

const followers = new Set<Follower>();
const streams = new Map<string, { close(): void }>();
let reconcileScheduled = false;
let loadReader: ChangeStreamReaderLoader | undefined;
let reader: Promise<typeof ChangeStreamReader> | undefined;

/** Set once by the entry point (the package's index, the embed): where the stream reader comes from. */
export function setChangeStreamReaderLoader(loader: ChangeStreamReaderLoader): void {
  loadReader = loader;
}

onConfigure(scheduleReconcile);

/**
 * Follows the changes of `app_id` on the remote server an element with these overrides talks to,
 * if it talks to one, until the returned function is called. Follows again on Questboard.configure().
 */
export function followRemoteChanges(app_id: string, overrides: ClientOverrides = {}): () => void {
  const follower = { app_id, overrides };
  followers.add(follower);
  scheduleReconcile();
  return () => {
    if (followers.delete(follower)) scheduleReconcile();
  };
}

/**
 * In a microtask: elements that connect together reconcile once, and one that moves in the page
 * (lets go, then follows again) keeps its stream open.
 */
function scheduleReconcile(): void {
  if (reconcileScheduled) return;
  reconcileScheduled = true;
  queueMicrotask(() => {
    reconcileScheduled = false;
    reconcile();
  });
}

/** Opens the streams the followers need and closes the others. */
function reconcile(): void {
  const wanted = new Map<string, StreamTarget>();
  for (const { app_id, overrides } of followers) {
    const remote = remoteFor(overrides);
    const apiKey = apiKeyFor(overrides);
    if (remote !== null && apiKey) wanted.set(JSON.stringify([remote, apiKey, app_id]), { remote, apiKey, app_id });
  }
  for (const [id, stream] of streams) {
    if (wanted.has(id)) continue;
    stream.close();
    streams.delete(id);
  }
  for (const [id, target] of wanted) if (!streams.has(id)) streams.set(id, openChangeStream(target));
}

/** A stream that opens once the reader has loaded, unless closed before. */
function openChangeStream(target: StreamTarget): { close(): void } {
  let stream: { close(): void } | undefined;
  let closed = false;
  // Every entry point sets a loader; a module imported on its own follows no remote.
  if (loadReader === undefined) return { close() {} };
  reader ??= loadReader();
  reader.then(
    ({ readChangeStream }) => {
      if (!closed) stream = readChangeStream(target, deliverChange);
    },
    (error: unknown) => {
      reader = undefined;
      console.warn('[questboard] no live updates: questboard-live.js did not load', error);
    },
  );
  return {
    close() {
      closed = true;
      stream?.close();
    },
  };
}
