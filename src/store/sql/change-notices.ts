// The change notices of a database several server processes share: each write
// sends its own by NOTIFY in its transaction, with its last statements
// (transaction.ts, flush), and PostgreSQL hands them to every process that
// LISTENs (src/server/postgres-change-feed.ts) once the write commits, never for
// one rolled back. Sent after the commit on a connection of their own, they
// cost each write a statement, a transaction and a socket write more, and
// PostgreSQL a fifth more CPU per write (docs/performance.md).
import type { ChangeNotice, Changed } from '../../api/broadcast.js';
import { sql, type Query } from './sql.js';

/** The channel the notices are sent on and heard on. */
export const CHANGE_CHANNEL = 'questboard_changes';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
const PAYLOAD_LIMIT = 7900;

/** The statement that sends the notices of what a write changed, each one payload. */
export const notifying = (changed: readonly Changed[]): Query =>
  sql`SELECT pg_notify(${CHANGE_CHANNEL}::text, payload) FROM unnest(${changed.map(payloadOf)}::text[]) AS payload`;

/** Too many names to send: the whole app is said to have changed, which every page refreshes for. */
function payloadOf(changed: Changed): string {
  const notice: ChangeNotice = { type: 'questboard:change', ...changed };
  const payload = JSON.stringify(notice);
  if (new TextEncoder().encode(payload).length <= PAYLOAD_LIMIT) return payload;
  const wholeApp: ChangeNotice = { type: 'questboard:change', app_id: changed.app_id, scope: 'app' };
  return JSON.stringify(wholeApp);
}
