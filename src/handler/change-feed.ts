// The change feed behind GET /v1/events: what committed writes changed, per app, with event
// ids a reconnecting client sends back (Last-Event-ID) to be told what it missed.
//
// The handler only subscribes; whoever hosts it publishes each committed write's notice (the
// handler's onChange). This process's feed is `inProcessChangeFeed`. The interface is meant to
// take a feed shared by several server processes as well: a PostgreSQL one would publish with
// NOTIFY in the writing transaction and keep recent events in a table whose sequence gives the
// ids, each process LISTENing once and handing notices to its own subscribers. Hence the
// asynchronous subscribe (a replay is then a query) and ids that are opaque strings.
import type { ChangeNotice } from '../api/broadcast.js';

export type FeedEvent =
  | { kind: 'change'; id: string; change: ChangeNotice }
  /** What the subscriber missed since its last event id cannot be told: it must load everything of the app again. */
  | { kind: 'reset'; id: string };

export type FeedListener = (event: FeedEvent) => void;

export interface FeedSubscription {
  /** The id of the feed's latest event when the subscription began: where a subscriber without one resumes from. */
  position: string;
  unsubscribe(): void;
}

export interface ChangeFeed {
  /** Hands a committed write's notice to the subscribers of its app. Never throws: the write has committed. */
  publish(change: ChangeNotice): void;
  /**
   * Hands `listener` each later change of `app_id`. With the id of the last event a client
   * saw, first hands it the changes of the app it missed since, or one reset when they can
   * no longer be told (the id is older than the feed keeps, or not one of this feed's).
   * Resolves once those are handed.
   */
  subscribe(app_id: string, lastEventId: string | null, listener: FeedListener): Promise<FeedSubscription>;
}

export interface InProcessChangeFeed extends ChangeFeed {
  /** Subscriptions still open, so tests can tell that a client that went away left none behind. */
  subscriptionCount(): number;
}

/** Events kept for replay, of every app together: a client away for longer than this many writes is told to reset. */
export const DEFAULT_FEED_CAPACITY = 1024;

/**
 * The feed of one server process: a ring buffer of the latest `capacity` events. Ids are
 * `<run>-<sequence>`: the sequence increases with every write, and the run (random per feed)
 * tells a client that reconnects after a restart, whose ids meant another run's events, to reset.
 */
export function inProcessChangeFeed({ capacity = DEFAULT_FEED_CAPACITY } = {}): InProcessChangeFeed {
  const run = crypto.randomUUID().slice(0, 8);
  const recent: ChangeNotice[] = [];
  let latest = 0;
  const subscribers = new Map<string, Set<FeedListener>>();
  const idOf = (sequence: number) => `${run}-${sequence}`;

  /** The sequence number of one of this run's ids still within reach of the buffer, or null. */
  function replayableFrom(lastEventId: string): number | null {
    const match = /^(.+)-(\d+)$/.exec(lastEventId);
    if (match?.[1] !== run) return null;
    const sequence = Number(match[2]);
    return sequence <= latest && sequence >= latest - capacity ? sequence : null;
  }

  function hand(listener: FeedListener, event: FeedEvent): void {
    try {
      listener(event);
    } catch (error) {
      console.error('questboard: a change feed subscriber failed', error);
    }
  }

  return {
    publish(change) {
      latest++;
      recent[latest % capacity] = change;
      const event: FeedEvent = { kind: 'change', id: idOf(latest), change };
      for (const listener of [...(subscribers.get(change.app_id) ?? [])]) hand(listener, event);
    },
    async subscribe(app_id, lastEventId, listener) {
      if (lastEventId !== null) {
        const from = replayableFrom(lastEventId);
        if (from === null) listener({ kind: 'reset', id: idOf(latest) });
        else {
          for (let sequence = from + 1; sequence <= latest; sequence++) {
            const change = recent[sequence % capacity]!;
            if (change.app_id === app_id) listener({ kind: 'change', id: idOf(sequence), change });
          }
        }
      }
      let listeners = subscribers.get(app_id);
      if (!listeners) subscribers.set(app_id, (listeners = new Set()));
      listeners.add(listener);
      return {
        position: idOf(latest),
        unsubscribe() {
          listeners.delete(listener);
          if (listeners.size === 0 && subscribers.get(app_id) === listeners) subscribers.delete(app_id);
        },
      };
    },
    subscriptionCount: () => [...subscribers.values()].reduce((count, listeners) => count + listeners.size, 0),
  };
}
