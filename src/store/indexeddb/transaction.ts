// A transaction over every store. It caches what it reads and writes each
// changed record once when the work is done, so a replay of many events on the
// same member costs one put, not one per event; and it moves the board rows of
// exactly the members it wrote, on the boards and on the seasons' boards.
import {
  challengeCompleters,
  challengeMembers,
  deleteAppData,
  deleteTask,
  listSubmissions,
  membersReaching,
  readAppData,
  takeMemberHistory,
} from './app-data.js';
import { unwrap } from 'idb';
import { moveRows, type RowChange } from './board-positions.js';
import { prefixRange } from './key-ranges.js';
import {
  boardPage,
  countDistinctHigher,
  countHigher,
  countOnBoard,
  countUnrankedBefore,
  pageAround,
  unrankedPage,
} from './boards.js';
import type { RawTransaction } from './schema.js';
import { countSeasonHigher, seasonBoardPage, seasonPage, seasonPageAround } from './season-boards.js';
import {
  isShown,
  placements,
  placementText,
  rowOf,
  seasonPlacement,
  seasonRow,
  seasonShown,
  type Placement,
} from '../placements.js';
import {
  keyText,
  keyTextOf,
  type BoardRef,
  type MemberMeasure,
  type PageWindow,
  type RecordKeys,
  type RecordKind,
  type Records,
  type SubmissionFilter,
  type Transaction,
} from '../port.js';
import type {
  ApiKeyRecord,
  BoardRow,
  AuditRecord,
  ChallengeRecord,
  LogRecord,
  SeasonPointsRecord,
  TransferRecord,
  UserRecord,
} from '../records.js';

export class IndexedDbTransaction implements Transaction {
  private readonly cache = new Map<string, unknown>();
  private readonly dirty = new Map<string, [RecordKind, unknown]>();
  /**
   * Where each member, and each member's points in a season, stood on the boards when first read,
   * and as what row, to keep the boards right.
   */
  private readonly boardsAtRead = new Map<string, OnBoards>();

  /**
   * The transaction's writes are asked for on it directly, past idb's wrapper, and their answers
   * are not waited for: nothing in the work reads them, a request runs after those asked before it
   * (a read sees them), and one that fails aborts the transaction, which the store's `done` tells.
   * A promise and two listeners for each of some forty writes were a millisecond of a write that
   * awards a badge (docs/performance.md).
   */
  private readonly writing: IDBTransaction;

  constructor(readonly raw: RawTransaction) {
    this.writing = unwrap(raw);
  }

  async get<K extends RecordKind>(store: K, key: RecordKeys[K]): Promise<Records[K] | undefined> {
    const cacheKey = keyText(store, key);
    if (this.cache.has(cacheKey)) return this.cache.get(cacheKey) as Records[K] | undefined;
    const value = (await this.raw.objectStore(store).get(key as never)) as Records[K] | undefined;
    this.cache.set(cacheKey, value);
    if (onSomeBoard(store)) this.boardsAtRead.set(cacheKey, value ? onBoards(store, value) : NOT_ON_BOARDS);
    return value;
  }

  // IndexedDB reads in parallel within a transaction: one get each costs what a batch would.
  async getMany<K extends RecordKind>(store: K, keys: RecordKeys[K][]): Promise<void> {
    const unread = new Map<string, RecordKeys[K]>();
    for (const key of keys) {
      const text = keyText(store, key);
      if (!this.cache.has(text)) unread.set(text, key);
    }
    if (store === 'badge_awards') await this.readAwardsOf(unread.values() as Iterable<RecordKeys['badge_awards']>);
    else await Promise.all([...unread.values()].map((key) => this.get(store, key)));
  }

  /**
   * The awards asked for, by reading each member's awards whole: one range, where a log asks for
   * each of the app's rule badges (a request each was some 0.1 ms of a write that awards a badge).
   */
  private async readAwardsOf(keys: Iterable<RecordKeys['badge_awards']>): Promise<void> {
    const members = new Map<string, [string, string]>();
    const asked: RecordKeys['badge_awards'][] = [];
    for (const key of keys) {
      asked.push(key);
      members.set(JSON.stringify(key.slice(0, 2)), [key[0], key[1]]);
    }
    await Promise.all(
      [...members.values()].map(async (member) => {
        for (const award of await this.raw.objectStore('badge_awards').getAll(prefixRange(member))) {
          const text = keyTextOf('badge_awards', award);
          // What this transaction has read or written already stays as it is.
          if (!this.cache.has(text)) this.cache.set(text, award);
        }
      }),
    );
    this.knownAbsent('badge_awards', asked);
  }

  knownAbsent<K extends RecordKind>(store: K, keys: RecordKeys[K][]): void {
    for (const key of keys) {
      const cacheKey = keyText(store, key);
      if (this.cache.has(cacheKey)) continue;
      this.cache.set(cacheKey, undefined);
    }
  }

  /** Records the value; it is written when the transaction's work is done. */
  put<K extends RecordKind>(store: K, value: Records[K]): void {
    const cacheKey = keyTextOf(store, value);
    this.cache.set(cacheKey, value);
    this.dirty.set(cacheKey, [store, value]);
    // A member (or their points in a season) put without a read is new: on no board yet.
    if (onSomeBoard(store) && !this.boardsAtRead.has(cacheKey)) this.boardsAtRead.set(cacheKey, NOT_ON_BOARDS);
  }

  /** Drops what was read (not what waits to be written), after deleting behind the cache. */
  private forgetReads(): void {
    for (const key of this.cache.keys()) {
      if (!this.dirty.has(key)) {
        this.cache.delete(key);
        this.boardsAtRead.delete(key);
      }
    }
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return (await this.raw.objectStore('meta').get(key)) as T | undefined;
  }

  async putMeta(key: string, value: unknown): Promise<void> {
    this.writing.objectStore('meta').put(value, key);
  }

  async append(log: LogRecord): Promise<void> {
    this.writing.objectStore('logs').add(log);
  }

  async hasApps(): Promise<boolean> {
    return (await this.raw.objectStore('apps').openKeyCursor()) !== null;
  }

  async appIds(limit: number): Promise<string[]> {
    return (await this.raw.objectStore('apps').getAllKeys(null, limit)) as string[];
  }

  async keysOf(app_id: string): Promise<ApiKeyRecord[]> {
    return this.raw.objectStore('api_keys').index('by_app').getAll(app_id);
  }

  async challengesOf(app_id: string): Promise<ChallengeRecord[]> {
    return this.raw.objectStore('challenges').index('by_app').getAll(app_id);
  }

  async membersNamed(app_id: string, prefix: string, offset: number, limit: number): Promise<UserRecord[]> {
    // '\uffff' sorts after every UTF-16 code unit, so the range holds every name that starts with the prefix.
    const range = IDBKeyRange.bound([app_id, prefix], [app_id, `${prefix}\uffff`]);
    const members: UserRecord[] = [];
    let cursor = await this.raw.objectStore('users').openCursor(range);
    if (cursor && offset > 0) cursor = await cursor.advance(offset);
    for (; cursor && members.length < limit; cursor = await cursor.continue()) members.push(cursor.value);
    return members;
  }

  async appendAudit(entry: AuditRecord): Promise<void> {
    this.writing.objectStore('audit').put(entry);
  }

  async auditPage(app_id: string, before: number, limit: number): Promise<AuditRecord[]> {
    const range = IDBKeyRange.bound([app_id, -Infinity, ''], [app_id, before, ''], false, true);
    const entries: AuditRecord[] = [];
    for (
      let cursor = await this.raw.objectStore('audit').openCursor(range, 'prev');
      cursor && entries.length < limit;
      cursor = await cursor.continue()
    )
      entries.push(cursor.value);
    return entries;
  }

  async appendTransfer(transfer: TransferRecord): Promise<void> {
    await this.raw.objectStore('transfers').put(transfer);
  }

  async transfersPage(app_id: string, offset: number, limit: number): Promise<TransferRecord[]> {
    const range = IDBKeyRange.bound([app_id, -Infinity, ''], [app_id, Infinity, '']);
    const transfers: TransferRecord[] = [];
    let cursor = await this.raw.objectStore('transfers').openCursor(range, 'prev');
    if (cursor && offset > 0) cursor = await cursor.advance(offset);
    for (; cursor && transfers.length < limit; cursor = await cursor.continue()) transfers.push(cursor.value);
    return transfers;
  }

  async forgetIdempotency(createdAtMost: number, limit: number): Promise<void> {
    const records = this.raw.objectStore('idempotency');
    const keys = await records.index('by_created').getAllKeys(IDBKeyRange.upperBound(createdAtMost), limit);
    await Promise.all(keys.map((key) => records.delete(key)));
  }

  countOnBoard = (board: BoardRef) => countOnBoard(this.raw, board);
  countHigher = (board: BoardRef, value: number) => countHigher(this.raw, board, value);
  countDistinctHigher = (board: BoardRef, value: number) => countDistinctHigher(this.raw, board, value);
  pageAround = (board: BoardRef, user: UserRecord, window: PageWindow) => pageAround(this.raw, board, user, window);
  boardPage = (board: BoardRef, offset: number, limit: number) => boardPage(this.raw, board, offset, limit);
  countUnrankedBefore = (board: BoardRef, name: string) => countUnrankedBefore(this.raw, board, name);
  unrankedPage = (board: BoardRef, skip: number, limit: number) => unrankedPage(this.raw, board, skip, limit);
  countSeasonHigher = (app_id: string, season_id: string, points: number, distinct: boolean) =>
    countSeasonHigher(this.raw, app_id, season_id, points, distinct);
  seasonPageAround = (member: SeasonPointsRecord, window: PageWindow) => seasonPageAround(this.raw, member, window);
  seasonPage = (app_id: string, season_id: string, offset: number, limit: number) =>
    seasonPage(this.raw, app_id, season_id, offset, limit);
  seasonBoardPage = (app_id: string, season_id: string, offset: number, limit: number) =>
    seasonBoardPage(this.raw, app_id, season_id, offset, limit);
  readAppData = (app_id: string) => readAppData(this.raw, app_id);
  challengeMembers = (challenge_id: string) => challengeMembers(this.raw, challenge_id);
  challengeCompleters = (challenge_id: string) => challengeCompleters(this.raw, challenge_id);
  membersReaching = (app_id: string, measure: MemberMeasure, at_least: number) =>
    membersReaching(this.raw, app_id, measure, at_least);
  listSubmissions = (app_id: string, filter: SubmissionFilter, offset: number, limit: number) =>
    listSubmissions(this.raw, app_id, filter, offset, limit);

  async deleteAppData(app_id: string): Promise<void> {
    await deleteAppData(this.raw, app_id);
    this.forgetReads();
  }

  async deleteTask(task_id: string): Promise<string[]> {
    const members = await deleteTask(this.raw, task_id);
    this.forgetReads();
    return members;
  }

  async takeMemberHistory(app_id: string, names: Set<string>) {
    const history = await takeMemberHistory(this.raw, app_id, names);
    this.forgetReads();
    return history;
  }

  async flush(): Promise<void> {
    const changes: RowChange[] = [];
    /** Members' points joining a place on a season's board: their rows wait for what it shows of them. */
    const seasonJoins: SeasonPointsRecord[] = [];
    /** Members whose record changed what a season's board shows of them. */
    const shownChanged: UserRecord[] = [];
    for (const [cacheKey, [store, value]] of this.dirty) {
      if (!onSomeBoard(store)) continue;
      const before = this.boardsAtRead.get(cacheKey) ?? NOT_ON_BOARDS;
      const after = onBoards(store, value);
      const beforeTexts = new Set(before.placements.map(placementText));
      const afterTexts = new Set(after.placements.map(placementText));
      for (const placement of before.placements) {
        if (!afterTexts.has(placementText(placement))) changes.push({ placement, row: null, delta: -1 });
      }
      for (const placement of after.placements) {
        const joining = !beforeTexts.has(placementText(placement));
        if (store === 'season_points') {
          // A season's row in the same place is the same tie; what it shows follows the member's record.
          if (joining) seasonJoins.push(value as SeasonPointsRecord);
        } else if (joining) changes.push({ placement, row: JSON.parse(after.row) as BoardRow, delta: 1 });
        // A row shows more than its place (counts, score, XP): where it is shown, it follows every change.
        else if (after.row !== before.row && isShown(placement)) {
          changes.push({ placement, row: JSON.parse(after.row) as BoardRow, delta: 0 });
        }
      }
      if (store === 'users' && shownText(before.row) !== shownText(after.row)) shownChanged.push(value as UserRecord);
    }
    const seasonChanges = await this.seasonRowChanges(seasonJoins, shownChanged);
    // A transaction's requests run in the order asked: the boards' reads go first, so that their
    // answers come while the records are written; the boards' writes follow.
    const moved = moveRows(this.raw, [...changes, ...seasonChanges]);
    for (const [store, value] of this.dirty.values()) this.writing.objectStore(store).put(value);
    this.dirty.clear();
    await moved;
    // Asked to commit once every request is made, the database need not wait for their answers to
    // reach this thread first: a round of requests less for every write.
    this.raw.commit();
  }

  /**
   * The season boards' rows that follow this write: those joining, with what the board shows of
   * their members, and the rows of members whose record changed what it shows, on every season of
   * the app they have points in.
   */
  private async seasonRowChanges(joining: SeasonPointsRecord[], shownChanged: UserRecord[]): Promise<RowChange[]> {
    const joined = new Set(joining.map((points) => placementText(seasonPlacement(points))));
    const held = await Promise.all(
      shownChanged.map(async ({ app_id, account_name }) => {
        const seasons = (await this.get('apps', app_id))?.seasons ?? [];
        return Promise.all(seasons.map(({ season_id }) => this.get('season_points', [app_id, season_id, account_name])));
      }),
    );
    // A row joining in this write is made with what the board shows now.
    const staying = held
      .flat()
      .filter(
        (points): points is SeasonPointsRecord => points !== undefined && !joined.has(placementText(seasonPlacement(points))),
      );
    const change =
      (delta: 0 | 1) =>
      async (points: SeasonPointsRecord): Promise<RowChange> => ({
        placement: seasonPlacement(points),
        row: seasonRow(points, seasonShown(await this.get('users', [points.app_id, points.account_name]))),
        delta,
      });
    return Promise.all([...joining.map(change(1)), ...staying.map(change(0))]);
  }
}

interface OnBoards {
  placements: Placement[];
  /** The member's row on the boards as JSON text, to tell whether it changed (none for points in a season). */
  row: string;
}

const NOT_ON_BOARDS: OnBoards = { placements: [], row: '' };
const onSomeBoard = (store: RecordKind) => store === 'users' || store === 'season_points';

/**
 * Where a member stands on the boards, or their points in a season on its board: there the place
 * is the tie, and what the row shows follows the member's record (flush).
 */
function onBoards(store: RecordKind, value: unknown): OnBoards {
  if (store === 'users') return { placements: placements(value as UserRecord), row: JSON.stringify(rowOf(value as UserRecord)) };
  const points = value as SeasonPointsRecord;
  return { placements: [seasonPlacement(points)], row: '' };
}

/** What a season's board shows of a member, from their row on the boards ('' before they had one). */
const shownText = (row: string) => JSON.stringify(seasonShown(row === '' ? undefined : (JSON.parse(row) as BoardRow)));
