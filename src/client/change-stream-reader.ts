// Reading one app's GET /v1/events from a remote server (client/remote-changes.ts decides which
// streams a page needs). A module of its own, loaded only once a page follows a remote: a page
// served by its own worker never needs it (the embed fetches dist/questboard-live.js, bundlers
// make it a chunk). So it keeps no state of the page's: changes go to the `deliver` it is given.
//
// The stream needs a `read` key of the app, like everything the app's elements read, so it is
// read with fetch, which can send Authorization; an EventSource cannot send headers.
import { operationPath } from '../api/api-path.js';
import { isChangeNotice, type ChangeNotice } from '../api/broadcast.js';
import { EVENT_STREAM_TYPE, EventStreamParser, RECONNECT_EVENT } from '../api/event-stream.js';

/** Waits before reconnecting: from 1 s, doubling up to 30 s, each spread by up to half again so pages do not return in step. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** The server comments every 25 s: a stream silent for this long is taken as cut, and opened again. */
const SILENCE_LIMIT_MS = 60_000;

export interface StreamTarget {
  remote: string;
  apiKey: string;
  app_id: string;
}

/**
 * Reads one app's change stream until closed, reconnecting with backoff and Last-Event-ID; gives
 * up, saying why in the console, on a refusal that asking again cannot change.
 */
export function readChangeStream(target: StreamTarget, deliver: (change: ChangeNotice) => void): { close(): void } {
  const closed = new AbortController();
  let lastEventId: string | null = null;

  /** 'refused' when asking again cannot help; 'read' when the stream was open (and has ended); 'failed' otherwise. */
  async function readOnce(): Promise<'refused' | 'read' | 'failed'> {
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    closed.signal.addEventListener('abort', abort);
    let silence: ReturnType<typeof setTimeout> | undefined;
    try {
      const headers = new Headers({ Authorization: `Bearer ${target.apiKey}`, Accept: EVENT_STREAM_TYPE });
      if (lastEventId !== null) headers.set('Last-Event-ID', lastEventId);
      const url = `${target.remote}${operationPath('events')}?${new URLSearchParams({ app_id: target.app_id })}`;
      const response = await fetch(url, {
        headers,
        signal: attempt.signal,
        mode: 'cors',
        credentials: 'omit',
        cache: 'no-store',
      });
      if (!response.ok) return isLastingRefusal(response.status) ? refused(response) : 'failed';
      if (!response.body || !response.headers.get('content-type')?.startsWith(EVENT_STREAM_TYPE)) return 'failed';
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const parser = new EventStreamParser();
      for (;;) {
        clearTimeout(silence);
        silence = setTimeout(abort, SILENCE_LIMIT_MS);
        const { done, value } = await reader.read();
        if (done) return 'read';
        const events = parser.push(decoder.decode(value, { stream: true }));
        lastEventId = parser.lastEventId ?? lastEventId;
        for (const event of events) {
          // The server dropped us for reading too slowly: the next stream replays from lastEventId.
          if (event.type === RECONNECT_EVENT) {
            abort();
            return 'read';
          }
          const change = event.type === 'change' || event.type === 'reset' ? parseJson(event.data) : null;
          if (isChangeNotice(change)) deliver(change);
        }
      }
    } catch {
      return 'failed';
    } finally {
      clearTimeout(silence);
      closed.signal.removeEventListener('abort', abort);
    }
  }

  async function refused(response: Response): Promise<'refused'> {
    const answer = (await response.json().catch(() => null)) as { message?: unknown } | null;
    const why = typeof answer?.message === 'string' ? answer.message : `it answered ${response.status}`;
    console.warn(`[questboard] no live updates of ${target.app_id} from ${target.remote}: ${why}`);
    return 'refused';
  }

  void (async () => {
    let failures = 0;
    while (!closed.signal.aborted) {
      const outcome = await readOnce();
      if (outcome === 'refused') return;
      failures = outcome === 'read' ? 0 : failures + 1;
      await pause(retryDelay(failures), closed.signal);
    }
  })();
  return { close: () => closed.abort() };
}

/** A refusal asking again cannot change: a key without `read`, an unknown app, a server without live updates. */
const isLastingRefusal = (status: number) =>
  (status >= 400 && status < 500 && status !== 408 && status !== 429) || status === 501;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function retryDelay(failures: number): number {
  const delay = Math.min(FIRST_RETRY_MS * 2 ** failures, MAX_RETRY_MS);
  return delay * (1 + Math.random() / 2);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
