// The migrations, one step per version from the one before, so an upgrade only
// does the work that is new. The database's version is how many there are.
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { SHA256_HEX, sha256Hex } from '../../api/key-hash.js';
import { decodeRuns, encodeRows, layOutPages, layOutSeasons, PAGE_FILL, rebuildPositions } from './board-positions.js';
import type { RunKey, RunsRecord } from './board-records.js';
import type { AppRecord, GroupKey, Season, TieRow } from '../records.js';
import { prefixRange } from './key-ranges.js';
import type { QuestboardSchema, StoreName } from './schema.js';

type UpgradeTransaction = IDBPTransaction<QuestboardSchema, StoreName[], 'versionchange'>;
// Earlier versions had stores and indexes this schema no longer names.
type AnyDatabase = IDBPDatabase<any>;
type AnyUpgrade = IDBPTransaction<any, any, 'versionchange'>;
/**
 * A version's step: its stores and indexes made at once, its records moved in requests that may
 * go on after it returns. `moved` settles once the moves the steps before returned are done: a
 * step that reads what they move waits for it, and returns its own.
 */
type Migration = (db: AnyDatabase, tx: AnyUpgrade, moved: Promise<void>) => Promise<void> | void;

const MIGRATIONS: Migration[] = [
  // Version 1: everything the /v1 API needs.
  (db) => {
    db.createObjectStore('meta');
    db.createObjectStore('apps', { keyPath: 'app_id' });
    db.createObjectStore('api_keys', { keyPath: 'key' }).createIndex('by_app', 'app_id');
    const users = db.createObjectStore('users', { keyPath: ['app_id', 'account_name'] });
    for (const board of OLD_BOARD_INDEXES) users.createIndex(board, board);
    db.createObjectStore('challenges', { keyPath: 'challenge_id' }).createIndex('by_app', 'app_id');
    db.createObjectStore('tasks', { keyPath: 'task_id' }).createIndex('by_app', 'app_id');
    db.createObjectStore('progress', { keyPath: ['task_id', 'account_name'] }).createIndex('by_app', 'app_id');
    db.createObjectStore('member_challenges', { keyPath: ['challenge_id', 'account_name'] }).createIndex('by_app', 'app_id');
    db.createObjectStore('endorsements', { keyPath: ['app_id', 'from_account', 'to_account', 'endorsement_id'] });
    db.createObjectStore('logs', { keyPath: 'seq', autoIncrement: true }).createIndex('by_app', 'app_id');
    db.createObjectStore('idempotency', { keyPath: ['api_key', 'idempotency_key'] });
  },
  // Version 2: board counts and runBounds, so that offsets and ranks need no walk over members.
  (db) => {
    db.createObjectStore('board_counts', { keyPath: 'key' });
    db.createObjectStore('board_slots', { keyPath: 'key' });
  },
  // Version 3: members by name within a week or month, so that the members a
  // period board lists after its ranked ones are counted, not walked.
  (_db, tx) => {
    const users = tx.objectStore('users');
    users.createIndex('by_week_name', ['app_id', 'week', 'account_name']);
    users.createIndex('by_month_name', ['app_id', 'month', 'account_name']);
  },
  // Version 4: boards kept as runs of member rows: a page reads a few records
  // instead of a hundred index entries, so the indexes over members go.
  (db, tx) => {
    db.deleteObjectStore('board_slots');
    db.createObjectStore('board_runs', { keyPath: 'key' });
    db.createObjectStore('board_rows', { keyPath: 'key' });
    const users = tx.objectStore('users');
    for (const index of [...OLD_BOARD_INDEXES, 'by_week_name', 'by_month_name']) users.deleteIndex(index);
  },
  // Version 5: idempotency records by creation time, so that those past their
  // window are deleted a few at a time. Earlier records had no time: their
  // window starts at the upgrade.
  (_db, tx) => {
    tx.objectStore('idempotency').createIndex('by_created', 'created_at');
    void dateIdempotencyRecords(tx, Date.now());
  },
  // Version 6: the badges members hold, by member (a member's are one range).
  (db) => {
    db.createObjectStore('badge_awards', { keyPath: ['app_id', 'account_name', 'badge_id'] });
  },
  // Version 7: API keys kept as their SHA-256 alone, so a copy of the database gives no key away.
  // A store's key path cannot change: the old store steps aside for a new one, into which its keys
  // move hashed, and the idempotency records move to their keys' hashes.
  (db, tx) => {
    tx.objectStore('api_keys').name = 'api_keys_in_clear';
    db.createObjectStore('api_keys', { keyPath: 'key_sha256' }).createIndex('by_app', 'app_id');
    void hashApiKeys(db, tx);
  },
  // Version 8: the audit log, each app's entries one range in time order.
  (db) => {
    db.createObjectStore('audit', { keyPath: ['app_id', 'at', 'id'] });
  },
  // Version 9: quests members complete themselves (docs/quests.md): submissions for review, listed
  // oldest first by app, by status (the queue) and by member; and each member's attempts at a task.
  (db) => {
    const submissions = db.createObjectStore('submissions', { keyPath: 'submission_id' });
    submissions.createIndex('by_app', ['app_id', 'created_at', 'submission_id']);
    submissions.createIndex('by_status', ['app_id', 'status', 'created_at', 'submission_id']);
    submissions.createIndex('by_member', ['app_id', 'account_name', 'created_at', 'submission_id']);
    db.createObjectStore('attempts', { keyPath: ['task_id', 'account_name'] }).createIndex('by_app', 'app_id');
  },
  // Version 10: seasons. An app's seasons kept on the app, which every log reads anyway, not in a
  // meta record of their own that each log read once more; each member's points in a season a
  // record of its own, indexed in board order, not one meta record holding every member's.
  (db, tx) => {
    db.createObjectStore('season_points', { keyPath: ['app_id', 'season_id', 'account_name'] }).createIndex('by_order', [
      'app_id',
      'season_id',
      'order',
      'at',
      'account_name',
    ]);
    return moveSeasonsOutOfMeta(tx);
  },
  // Version 11: the ledger's history, each app's transfers one range in time order.
  (db) => {
    db.createObjectStore('transfers', { keyPath: ['app_id', 'at', 'tx_id'] });
  },
  // Version 12: each season's entry on the app counts the members on its board (Season.member_count),
  // so that a page of it counts none; counted once version 10 has moved the points into records.
  (_db, tx, moved) => moved.then(() => countSeasonMembers(tx)),
  // Version 13: season boards laid out in runs like the others (season-boards.ts), so that a rank
  // or a page reads a few records, not an index entry per member above it. The index in board
  // order goes; the negated points it read (`order`) stay on the records from before, unread.
  (_db, tx, moved) => {
    tx.objectStore('season_points').deleteIndex('by_order');
    return moved.then(() => layOutSeasons(tx));
  },
  // Version 14: each run's rows kept as JSON text (RowsRecord), converted once the steps before
  // have laid their boards out, in text already.
  (_db, tx, moved) => moved.then(() => rowsAsText(tx)),
  // Version 15: each run's rows packed as columns (RowsRecord.packed_rows), converted once version
  // 14 has written them as text. (It also dropped the name lists' counts, which version 17 drops
  // with the others.)
  (_db, tx, moved) => moved.then(() => packRows(tx)),
  // Version 16: each group's runs, kept in one record, laid out in pages of runs
  // (board-positions.ts), so that a write reads and rewrites the page it changes, not every run of
  // a large group. (It also counted each page in a record of its own, which version 17 drops.)
  (_db, tx, moved) => moved.then(() => pageRuns(tx)),
  // Version 17: no counts kept beside the pages of runs, which count their members: a write that
  // moved a member in eight counted groups put eight records more (docs/storage.md). Nothing else
  // touches the store any longer (the earlier steps neither), so it goes at once.
  (db) => db.deleteObjectStore('board_counts'),
  // Version 18: the stores stay, but every transaction that writes pages of runs writes a new boards
  // generation (kept-boards.ts), by which a context trusts the pages it keeps: a build before it
  // would write pages and leave the generation as it was, so it may no longer open the database.
  () => undefined,
];

export const DATABASE_VERSION = MIGRATIONS.length;

/** Members carried their keys in these indexes up to version 3. */
const OLD_BOARD_INDEXES = ['board_score', 'board_xp', 'board_weekly', 'board_monthly'] as const;

export function migrate(db: IDBPDatabase<QuestboardSchema>, oldVersion: number, tx: UpgradeTransaction): void {
  let moved = Promise.resolve();
  for (let version = oldVersion; version < DATABASE_VERSION; version++) moved = MIGRATIONS[version]!(db, tx, moved) ?? moved;
  // Boards are derived from the members: a database from before version 4 lays its boards out anew, once.
  if (oldVersion > 0 && oldVersion < 4) void layOutExistingApps(tx);
}

async function layOutExistingApps(tx: UpgradeTransaction): Promise<void> {
  const users = tx.objectStore('users');
  // Drop the index keys members carried up to version 3.
  for (let cursor = await users.openCursor(); cursor; cursor = await cursor.continue()) {
    const user: Record<string, unknown> = { ...cursor.value };
    if (OLD_BOARD_INDEXES.some((field) => field in user)) {
      for (const field of OLD_BOARD_INDEXES) delete user[field];
      void cursor.update(user as never);
    }
  }
  for (const app_id of await tx.objectStore('apps').getAllKeys()) await rebuildPositions(tx, app_id);
}

async function hashApiKeys(db: AnyDatabase, tx: AnyUpgrade): Promise<void> {
  const inClear: { key: string }[] = await tx.objectStore('api_keys_in_clear').getAll();
  const hashes = new Map(inClear.map(({ key }) => [key, sha256Hex(key)]));
  for (const { key, ...rest } of inClear) void tx.objectStore('api_keys').put({ key_sha256: hashes.get(key), ...rest });
  db.deleteObjectStore('api_keys_in_clear');
  // An app key's records follow it to its hash; an installation admin key's were kept under its
  // hash already. Any other named a key no longer there (its app replaced): it could answer no one.
  const idempotency = tx.objectStore('idempotency');
  for (let cursor = await idempotency.openCursor(); cursor; cursor = await cursor.continue()) {
    const hash = hashes.get(cursor.value.api_key);
    if (hash === undefined && SHA256_HEX.test(cursor.value.api_key)) continue;
    void cursor.delete();
    if (hash !== undefined) void idempotency.put({ ...cursor.value, api_key: hash });
  }
}

/** The meta keys an app's seasons, and each season's points, were kept under up to version 9. */
const OLD_SEASONS_PREFIX = 'seasons ';
const OLD_POINTS_PREFIX = 'season ';

const startingWith = (prefix: string) => IDBKeyRange.bound(prefix, `${prefix}\uffff`);

async function moveSeasonsOutOfMeta(tx: AnyUpgrade): Promise<void> {
  const meta = tx.objectStore('meta');
  for (let cursor = await meta.openCursor(startingWith(OLD_SEASONS_PREFIX)); cursor; cursor = await cursor.continue()) {
    const app = await tx.objectStore('apps').get(String(cursor.key).slice(OLD_SEASONS_PREFIX.length));
    if (app) void tx.objectStore('apps').put({ ...app, seasons: cursor.value });
    void cursor.delete();
  }
  // 'season <app_id> <season_id>': a season's id is a GUID, without spaces.
  for (let cursor = await meta.openCursor(startingWith(OLD_POINTS_PREFIX)); cursor; cursor = await cursor.continue()) {
    const key = String(cursor.key);
    const app_id = key.slice(OLD_POINTS_PREFIX.length, key.lastIndexOf(' '));
    const season_id = key.slice(key.lastIndexOf(' ') + 1);
    const board = cursor.value as Record<string, [number, number]>;
    for (const [account_name, [points, at]] of Object.entries(board)) {
      void tx.objectStore('season_points').put({ app_id, season_id, account_name, points, at });
    }
    void cursor.delete();
  }
}

async function countSeasonMembers(tx: AnyUpgrade): Promise<void> {
  const members = tx.objectStore('season_points');
  for (let cursor = await tx.objectStore('apps').openCursor(); cursor; cursor = await cursor.continue()) {
    const app = cursor.value as AppRecord;
    if (!app.seasons) continue;
    const seasons: Season[] = [];
    for (const season of app.seasons) {
      seasons.push({ ...season, member_count: await members.count(prefixRange([app.app_id, season.season_id])) });
    }
    void cursor.update({ ...app, seasons });
  }
}

/** Runs read at a time: a large board has thousands. */
const RUNS_BATCH = 500;

/**
 * Calls `visit` with each record of `store` in key order, read RUNS_BATCH at a time; its writes
 * may put records after the one visited, which a later batch reads too.
 */
async function eachRecord<T extends { key: IDBValidKey }>(tx: AnyUpgrade, store: StoreName, visit: (record: T) => void) {
  const records = tx.objectStore(store);
  let range: IDBKeyRange | undefined;
  for (;;) {
    const batch: T[] = await records.getAll(range, RUNS_BATCH);
    for (const record of batch) visit(record);
    if (batch.length < RUNS_BATCH) return;
    range = IDBKeyRange.lowerBound(batch.at(-1)!.key, true);
  }
}

/** Each run's record rewritten from its rows, where `rowsOf` finds them in an earlier layout (undefined: none to convert). */
function reencodeRuns(tx: AnyUpgrade, rowsOf: (record: Record<string, unknown>) => TieRow[] | undefined): Promise<void> {
  const runs = tx.objectStore('board_rows');
  return eachRecord<Record<string, unknown> & { key: RunKey }>(tx, 'board_rows', (record) => {
    const rows = rowsOf(record);
    if (rows) void runs.put(encodeRows(record.key, rows));
  });
}

/** Version 14 from rows as objects; version 15 from version 14's JSON text. */
const rowsAsText = (tx: AnyUpgrade) => reencodeRuns(tx, (record) => record.rows as TieRow[] | undefined);
const packRows = (tx: AnyUpgrade) =>
  reencodeRuns(tx, ({ rows_json }) => (typeof rows_json === 'string' ? (JSON.parse(rows_json) as TieRow[]) : undefined));

/**
 * Each group's record of runs longer than a page cut in pages. The first page keeps the group's
 * key; the pages after it, read in a later batch, are no longer than a page.
 */
function pageRuns(tx: AnyUpgrade): Promise<void> {
  const pages = tx.objectStore('board_runs');
  return eachRecord<RunsRecord>(tx, 'board_runs', (record) => {
    if (record.counts.length <= PAGE_FILL) return;
    for (const page of layOutPages(record.key as GroupKey, decodeRuns(record))) void pages.put(page);
  });
}

async function dateIdempotencyRecords(tx: AnyUpgrade, now: number): Promise<void> {
  for (let cursor = await tx.objectStore('idempotency').openCursor(); cursor; cursor = await cursor.continue()) {
    void cursor.update({ ...cursor.value, created_at: now });
  }
}
