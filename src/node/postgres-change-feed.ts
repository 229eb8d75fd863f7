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

/** Its connection lives as long as the process: the server exits once its requests are answered. */
export async function postgresChangeFeed(url: string, logger: Logger): Promise<InProcessChangeFeed> {
  const local = inProcessChangeFeed();
  const sql = postgresClient(url, { max: 1, connect_timeout: 10, onnotice: () => undefined });
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
  return {
    ...local,
    publish(change) {
      let payload = JSON.stringify(change);
      // Too many names to send: the whole app is said to have changed, which every page refreshes for.
      if (Buffer.byteLength(payload) > PAYLOAD_LIMIT) {
        const wholeApp: ChangeNotice = { type: 'questboard:change', app_id: change.app_id, scope: 'app' };
        payload = JSON.stringify(wholeApp);
      }
      sql.notify(CHANNEL, payload).catch((error: unknown) => logger.error({ err: error }, 'a change notice was not sent'));
    },
  };
}
