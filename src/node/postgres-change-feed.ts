// The change feed of server processes sharing one PostgreSQL database: each
// process publishes its committed writes with NOTIFY and LISTENs once, handing
// every process's notices to its own subscribers, so a member's write through
// one process moves the leaderboards that pages follow through any other.
// Event ids stay each process's own (src/server/change-feed.ts): a client that
// reconnects to another process is told to reset and loads everything again.
import { isChangeNotice, type ChangeNotice } from '../api/broadcast.js';
import { inProcessChangeFeed, type InProcessChangeFeed } from '../server/change-feed.js';
import { postgresClient } from '../store/sql/index.js';
import type { Logger } from './logger.js';

const CHANNEL = 'questboard_changes';
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const PAYLOAD_LIMIT = 7900;

export interface SharedChangeFeed extends InProcessChangeFeed {
  /** Sends the notices that wait, then lets go of the connection (once the server has answered its requests). */
  close(): Promise<void>;
}

export async function postgresChangeFeed(url: string, logger: Logger): Promise<SharedChangeFeed> {
  const local = inProcessChangeFeed();
  const sql = postgresClient(url, { max: 1 });
  await sql.listen(CHANNEL, (payload) => {
    let notice: unknown = null;
    try {
      notice = JSON.parse(payload);
    } catch {
      // reported below
    }
    if (isChangeNotice(notice)) local.publish(notice);
    else logger.error({ payload: payload.slice(0, 200) }, 'a change notice from another process could not be read');
  });
  /**
   * Notices waiting for the next turn of the event loop, by app and scope: a turn's writes of one
   * app are sent as one notice (their members' names together), all of them in one statement.
   * Under load, a NOTIFY for each write was a statement of its own, and a notification back to
   * every process, for each write (docs/performance.md).
   */
  const waiting = new Map<string, ChangeNotice>();
  let sending: NodeJS.Immediate | undefined;
  const send = () => {
    sending = undefined;
    const payloads = [...waiting.values()].map(payloadOf);
    waiting.clear();
    return sql`SELECT pg_notify(${CHANNEL}, payload) FROM unnest(${payloads}::text[]) AS payload`.then(
      () => undefined,
      (error: unknown) => logger.error({ err: error }, 'change notices were not sent'),
    );
  };
  return {
    ...local,
    publish(change) {
      sending ??= setImmediate(send);
      const key = `${change.scope} ${change.app_id}`;
      const queued = waiting.get(key);
      // The same scope, by the key: only a notice about members has more to merge.
      if (queued?.scope === 'members' && change.scope === 'members') {
        queued.account_names = [...new Set([...queued.account_names, ...change.account_names])];
      } else if (queued === undefined) {
        waiting.set(key, change.scope === 'members' ? { ...change, account_names: [...change.account_names] } : change);
      }
    },
    async close() {
      if (sending !== undefined) {
        clearImmediate(sending);
        await send();
      }
      await sql.end({ timeout: 5 });
    },
  };
}

/** Too many names to send: the whole app is said to have changed, which every page refreshes for. */
function payloadOf(change: ChangeNotice): string {
  const payload = JSON.stringify(change);
  if (Buffer.byteLength(payload) <= PAYLOAD_LIMIT) return payload;
  const wholeApp: ChangeNotice = { type: 'questboard:change', app_id: change.app_id, scope: 'app' };
  return JSON.stringify(wholeApp);
}
