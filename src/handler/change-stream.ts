// The answer to GET /v1/events: an app's changes as server-sent events, from the handler's
// change feed, for as long as the client reads them.
import type { ChangeNotice } from '../api/broadcast.js';
import { EVENT_STREAM_TYPE, formatChangeEvent, formatComment, formatEventId, formatReconnectEvent } from '../api/event-stream.js';
import type { ChangeFeed, FeedEvent } from './change-feed.js';

/** A comment this often keeps proxies and load balancers, which cut idle connections after 30–60 s, from cutting the stream. */
export const KEEP_ALIVE_MS = 25_000;

/**
 * What one stream may hold that its client has not read yet, past what the connection itself
 * buffers. Counted in bytes, not events: memory is what the cap protects, and an event's size
 * varies with the names it lists. 256 KiB is about a thousand events, as many as the feed keeps
 * for replay (DEFAULT_FEED_CAPACITY), so a reader dropped here usually catches up by replay.
 */
export const DEFAULT_STREAM_BUFFER_BYTES = 256 * 1024;

export interface ChangeStreamOptions {
  /** Unread bytes past which a stream is dropped (DEFAULT_STREAM_BUFFER_BYTES). */
  bufferBytes?: number;
}

/** The answer to GET /v1/events of an app (HandlerOptions.changeStreams). */
export type ChangeStreams = (app_id: string, request: Request) => Promise<Response>;

/** The streams of the feed's changes, as the handler asks for them. */
export const changeStreams =
  (feed: ChangeFeed, options: ChangeStreamOptions = {}): ChangeStreams =>
  (app_id, request) =>
    changeStream(feed, app_id, request, options);

const SLOW_READER = formatReconnectEvent({
  type: 'questboard:reconnect',
  reason: 'slow-reader',
  message: 'This stream fell too far behind its reader and was dropped: reconnect with Last-Event-ID.',
});

/**
 * Subscribes to `app_id`'s changes and answers them as a stream: first what the client missed
 * since its Last-Event-ID (or, without one, the id it stands at), then each change as it
 * commits. It ends, and lets go of the feed, when the client goes away: the host cancels the
 * body, or aborts the request. A client that reads slower than changes come is dropped once
 * `bufferBytes` wait unread: what waits stays to be read, then a last `reconnect` event, then
 * the end; from its Last-Event-ID the client is replayed what it missed.
 */
export async function changeStream(
  feed: ChangeFeed,
  app_id: string,
  request: Request,
  { bufferBytes = DEFAULT_STREAM_BUFFER_BYTES }: ChangeStreamOptions = {},
): Promise<Response> {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let unsubscribe = () => {};
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    unsubscribe();
    request.signal.removeEventListener('abort', closeStream);
  };
  function closeStream() {
    if (ended) return;
    end();
    controller.close();
  }
  const send = (text: string) => {
    if (ended) return;
    const chunk = encoder.encode(text);
    // desiredSize: the bytes the queue may still take (the host reads a chunk only as the connection drains).
    if (chunk.byteLength <= controller.desiredSize!) {
      controller.enqueue(chunk);
      return;
    }
    end();
    controller.enqueue(encoder.encode(SLOW_READER));
    controller.close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      cancel: end,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: bufferBytes }),
  );

  const lastEventId = request.headers.get('last-event-id') || null;
  const subscription = await feed.subscribe(app_id, lastEventId, (event) => send(formatFeedEvent(app_id, event)));
  unsubscribe = subscription.unsubscribe;
  if (request.signal.aborted) closeStream();
  else request.signal.addEventListener('abort', closeStream, { once: true });
  if (lastEventId === null) send(formatEventId(subscription.position));
  if (!ended) keepAlive = setInterval(() => send(formatComment('keep-alive')), KEEP_ALIVE_MS);

  return new Response(body, {
    status: 200,
    headers: {
      'content-type': `${EVENT_STREAM_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      // nginx buffers answers unless told otherwise, which would hold events back.
      'x-accel-buffering': 'no',
    },
  });
}

function formatFeedEvent(app_id: string, event: FeedEvent): string {
  if (event.kind === 'change') return formatChangeEvent('change', event.id, event.change);
  const everything: ChangeNotice = { type: 'questboard:change', app_id, scope: 'app' };
  return formatChangeEvent('reset', event.id, everything);
}
