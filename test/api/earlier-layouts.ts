// The stores and indexes earlier versions of the IndexedDB database had, written out here as
// those versions created them rather than by src/store/indexeddb/migrations.ts, so that a
// change to the migrations cannot change what the upgrade tests start from.
import { openDB, type IDBPDatabase } from 'idb';

type EarlierVersion = 1 | 3 | 4 | 5 | 9 | 10 | 12 | 13 | 14 | 15 | 16;

/** Members carried their board keys in these indexes up to version 3. */
const BOARD_INDEXES = ['board_score', 'board_xp', 'board_weekly', 'board_monthly'];

/**
 * Creates the database `name` at `version`, with the layout that version had, and opens it. The
 * connection, like an old tab's, does not close when a newer version asks it to.
 */
export function openEarlierVersion(name: string, version: EarlierVersion): Promise<IDBPDatabase> {
  return openDB(name, version, { upgrade: (db) => createLayout(db, version) });
}

function createLayout(db: IDBPDatabase, version: EarlierVersion): void {
  db.createObjectStore('meta');
  db.createObjectStore('apps', { keyPath: 'app_id' });
  db.createObjectStore('api_keys', { keyPath: version < 7 ? 'key' : 'key_sha256' }).createIndex('by_app', 'app_id');
  const users = db.createObjectStore('users', { keyPath: ['app_id', 'account_name'] });
  if (version < 4) for (const board of BOARD_INDEXES) users.createIndex(board, board);
  if (version === 3) {
    users.createIndex('by_week_name', ['app_id', 'week', 'account_name']);
    users.createIndex('by_month_name', ['app_id', 'month', 'account_name']);
  }
  for (const store of ['challenges', 'tasks']) {
    db.createObjectStore(store, { keyPath: `${store.slice(0, -1)}_id` }).createIndex('by_app', 'app_id');
  }
  db.createObjectStore('progress', { keyPath: ['task_id', 'account_name'] }).createIndex('by_app', 'app_id');
  db.createObjectStore('member_challenges', { keyPath: ['challenge_id', 'account_name'] }).createIndex('by_app', 'app_id');
  db.createObjectStore('endorsements', { keyPath: ['app_id', 'from_account', 'to_account', 'endorsement_id'] });
  db.createObjectStore('logs', { keyPath: 'seq', autoIncrement: true }).createIndex('by_app', 'app_id');
  const idempotency = db.createObjectStore('idempotency', { keyPath: ['api_key', 'idempotency_key'] });
  if (version >= 5) idempotency.createIndex('by_created', 'created_at');
  if (version > 1) db.createObjectStore('board_counts', { keyPath: 'key' });
  if (version === 3) db.createObjectStore('board_slots', { keyPath: 'key' });
  if (version >= 4) {
    db.createObjectStore('board_runs', { keyPath: 'key' });
    db.createObjectStore('board_rows', { keyPath: 'key' });
  }
  if (version >= 9) {
    db.createObjectStore('badge_awards', { keyPath: ['app_id', 'account_name', 'badge_id'] });
    db.createObjectStore('audit', { keyPath: ['app_id', 'at', 'id'] });
    const submissions = db.createObjectStore('submissions', { keyPath: 'submission_id' });
    submissions.createIndex('by_app', ['app_id', 'created_at', 'submission_id']);
    submissions.createIndex('by_status', ['app_id', 'status', 'created_at', 'submission_id']);
    submissions.createIndex('by_member', ['app_id', 'account_name', 'created_at', 'submission_id']);
    db.createObjectStore('attempts', { keyPath: ['task_id', 'account_name'] }).createIndex('by_app', 'app_id');
  }
  if (version >= 10) {
    const seasonPoints = db.createObjectStore('season_points', { keyPath: ['app_id', 'season_id', 'account_name'] });
    if (version < 13) seasonPoints.createIndex('by_order', ['app_id', 'season_id', 'order', 'at', 'account_name']);
  }
  if (version >= 11) db.createObjectStore('transfers', { keyPath: ['app_id', 'at', 'tx_id'] });
}
