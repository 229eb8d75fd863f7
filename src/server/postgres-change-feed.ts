// The change feed of server processes sharing one PostgreSQL database: each
// write sends its notices by NOTIFY with its commit (the store's,
// src/store/sql/change-notices.ts), and each process LISTENs once, handing
// every process's notices to its own subscribers, so a member's write through
// one process moves the leaderboards that pages follow through any other.
// Event ids stay each process's own (src/handler/change-feed.ts): a client that
// reconnects to another process is told to reset and loads everything again.
import type postgres from 'postgres';
import { isChangeNotice } from '../api/broadcast.js';
import { inProcessChangeFeed, type InProcessChangeFeed } from '../handler/change-feed.js';
import { CHANGE_CHANNEL, postgresClient } from '../store/sql/index.js';
import type { Logger } from './logger.js';

export interface SharedChangeFeed extends InProcessChangeFeed {
  /** Lets go of the connection it listens on. */
  close(): Promise<void>;
}

/** Between two tries to listen again once the connection was lost: the database may still be down. */
const RELISTEN_INTERVAL_MS = 1_000;
const RELISTEN_CONNECT_TIMEOUT_S = 2;

/**
 * The feed of a process whose store announces each write's notices with its commit
 * (openSqlStore's announceChanges): it listens on one connection of its own and hands every
 * process's notices, this one's included, to its own subscribers. Its publish is for notices
 * heard, not for the host: the store sends them. When that connection closes (the database
 * restarted), it listens again on a new one, every RELISTEN_INTERVAL_MS until it can:
 * postgres.js's own listen() tries once, and after a longer outage heard nothing ever again.
 */
export async function postgresChangeFeed(url: string, logger: Logger): Promise<SharedChangeFeed> {
  const local = inProcessChangeFeed();
  const hear = (payload: string) => {
    let notice: unknown = null;
    try {
      notice = JSON.parse(payload);
    } catch {
      // reported below
    }
    if (isChangeNotice(notice)) local.publish(notice);
    else logger.error({ payload: payload.slice(0, 200) }, 'a change notice from another process could not be read');
  };
  let closed = false;
  let listening: postgres.Sql | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const listen = async () => {
    const client: postgres.Sql = postgresClient(url, {
      max: 1,
      // A try to listen again while the database is still away fails within this, and the next
      // follows a second later: a try left waiting the driver's 10 s would keep the feed deaf
      // that long after the database is back.
      connect_timeout: RELISTEN_CONNECT_TIMEOUT_S,
      // Kept for as long as it lasts (no idle timeout by default): a notice sent while it was
      // being replaced would be missed.
      max_lifetime: null,
      onclose: () => {
        if (listening !== client || closed) return;
        listening = undefined;
        logger.warn('the change feed lost its connection to the database: listening again');
        void client.end({ timeout: 0 });
        retry = setTimeout(relisten, RELISTEN_INTERVAL_MS);
      },
      // postgres.js's own listen() takes its notifications here; its types do not show it.
      ...({ onnotify: (_channel: string, payload: string) => hear(payload) } as object),
    });
    listening = client;
    try {
      await client.unsafe(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      if (listening === client) listening = undefined;
      void client.end({ timeout: 0 });
      throw error;
    }
  };
  const relisten = () => {
    if (closed) return;
    listen().then(
      () => logger.info('the change feed listens again'),
      () => {
        if (!closed) retry = setTimeout(relisten, RELISTEN_INTERVAL_MS);
      },
    );
  };
  await listen();
  return {
    ...local,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await listening?.end({ timeout: 5 });
    },
  };
}
