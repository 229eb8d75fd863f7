// The change feed of server processes sharing one PostgreSQL database: each
// write sends its notices by NOTIFY with its commit (the store's,
// src/store/sql/change-notices.ts), and each process LISTENs once, handing
// every process's notices to its own subscribers, so a member's write through
// one process moves the leaderboards that pages follow through any other.
// Event ids stay each process's own (src/server/change-feed.ts): a client that
// reconnects to another process is told to reset and loads everything again.
import { isChangeNotice } from '../api/broadcast.js';
import { inProcessChangeFeed, type InProcessChangeFeed } from '../server/change-feed.js';
import { CHANGE_CHANNEL, postgresClient } from '../store/sql/index.js';
import type { Logger } from './logger.js';

export interface SharedChangeFeed extends InProcessChangeFeed {
  /** Lets go of the connection it listens on. */
  close(): Promise<void>;
}

/**
 * The feed of a process whose store announces each write's notices with its commit
 * (openSqlStore's announceChanges): it listens on one connection of its own and hands every
 * process's notices, this one's included, to its own subscribers. Its publish is for notices
 * heard, not for the host: the store sends them.
 */
export async function postgresChangeFeed(url: string, logger: Logger): Promise<SharedChangeFeed> {
  const local = inProcessChangeFeed();
  const sql = postgresClient(url, { max: 1 });
  await sql.listen(CHANGE_CHANNEL, (payload) => {
    let notice: unknown = null;
    try {
      notice = JSON.parse(payload);
    } catch {
      // reported below
    }
    if (isChangeNotice(notice)) local.publish(notice);
    else logger.error({ payload: payload.slice(0, 200) }, 'a change notice from another process could not be read');
  });
  return { ...local, close: () => sql.end({ timeout: 5 }) };
}
