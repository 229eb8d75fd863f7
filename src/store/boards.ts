// Leaderboard queries. Members of one board sort in its index by
// [app_id, (period,) -value, reached_at, account_name]; positions are sums
// over the group counts and slots that board-positions.ts keeps, plus a walk
// inside one slot, never a walk over the board.
import type { LeaderboardType } from '../api/schemas.js';
import { AFTER_ALL, groupIndexEnd, slotOf } from './board-positions.js';
import type { Transaction } from './index.js';
import { indexKey, negated, placements } from './placements.js';
import { BOARD_INDEX, type BoardCountRecord, type UserRecord } from './records.js';

export interface BoardRef {
  type: LeaderboardType;
  app_id: string;
  /** The week or month of a period board; null for score and xp. */
  period: string | null;
}

const boardIndex = (tx: Transaction, board: BoardRef) => tx.raw.objectStore('users').index(BOARD_INDEX[board.type]);
const boardPrefix = (board: BoardRef) => [board.app_id, board.type, board.period ?? ''];

/** Each board's groups, read once per transaction (boards are read in read transactions only): a page asks up to three times. */
const groupsRead = new WeakMap<Transaction, Map<string, Promise<BoardCountRecord[]>>>();

/** The board's value groups, highest first, down to (not including) `negatedBelow`. */
async function groups(tx: Transaction, board: BoardRef, negatedBelow: number = Infinity) {
  const prefix = boardPrefix(board);
  const boards = groupsRead.get(tx) ?? new Map<string, Promise<BoardCountRecord[]>>();
  groupsRead.set(tx, boards);
  const text = JSON.stringify(prefix);
  let all = boards.get(text);
  if (!all) {
    all = tx.raw.objectStore('board_counts').getAll(IDBKeyRange.bound(prefix, [...prefix, AFTER_ALL]));
    boards.set(text, all);
  }
  return (await all).filter((record) => record.key[3] < negatedBelow);
}

const total = (records: { count: number }[]) => records.reduce((sum, record) => sum + record.count, 0);

/** Members on the board (for a period board: members with points in the period). */
export async function countOnBoard(tx: Transaction, board: BoardRef): Promise<number> {
  return total(await groups(tx, board));
}

/** How many members hold a value strictly above `value`. */
export async function countHigher(tx: Transaction, board: BoardRef, value: number): Promise<number> {
  return total(await groups(tx, board, negated(value)));
}

/** How many distinct values lie strictly above `value`. */
export async function countDistinctHigher(tx: Transaction, board: BoardRef, value: number): Promise<number> {
  return (await groups(tx, board, negated(value))).length;
}

/** The member's 0-based position on the board; the member must be on it. */
export async function positionOf(tx: Transaction, board: BoardRef, user: UserRecord): Promise<number> {
  const { group, tie } = placements(user).find(
    ({ group: [, type, period] }) => type === board.type && (board.period === null || period === board.period),
  )!;
  const [higher, record] = await Promise.all([
    countHigher(tx, board, negated(group[3])),
    tx.raw.objectStore('board_slots').get(group),
  ]);
  const slots = record!.slots;
  const own = slotOf(slots, tie);
  const runStart = slots[own]!.start;
  // A member who starts a run has no one before them in it (and an empty range is an error).
  const startsRun = runStart !== null && runStart[0] === tie[0] && runStart[1] === tie[1];
  const inOwnRun = startsRun
    ? 0
    : await boardIndex(tx, board).count(IDBKeyRange.bound(indexKey(group, runStart ?? []), indexKey(group, tie), false, true));
  return higher + total(slots.slice(0, own)) + inOwnRun;
}

/** `limit` members from position `offset`, read in one request once the start is found. */
export async function boardPage(tx: Transaction, board: BoardRef, offset: number, limit: number): Promise<UserRecord[]> {
  if (limit === 0) return [];
  const indexPrefix = board.period === null ? [board.app_id] : [board.app_id, board.period];
  let start: IDBValidKey = indexPrefix;
  if (offset > 0) {
    // Jump over whole groups, then whole runs, then step inside one run.
    let skip = offset;
    const within = <T extends { count: number }>(record: T) => {
      if (skip < record.count) return true;
      skip -= record.count;
      return false;
    };
    const group = (await groups(tx, board)).find(within);
    if (!group) return [];
    const run = (await tx.raw.objectStore('board_slots').get(group.key))!.slots.find(within)!;
    let cursor = await boardIndex(tx, board).openKeyCursor(
      IDBKeyRange.bound(indexKey(group.key, run.start ?? []), groupIndexEnd(group.key)),
    );
    if (cursor && skip > 0) cursor = await cursor.advance(skip);
    if (!cursor) return [];
    start = cursor.key;
  }
  return boardIndex(tx, board).getAll(IDBKeyRange.bound(start, [...indexPrefix, AFTER_ALL]), limit);
}

/** Members of the app in name order, skipping those `skip` says to. */
export async function membersByName(
  tx: Transaction,
  app_id: string,
  skip: (member: UserRecord) => boolean,
  offset: number,
  limit: number,
): Promise<UserRecord[]> {
  const members: UserRecord[] = [];
  let toSkip = offset;
  let cursor = await tx.raw.objectStore('users').openCursor(IDBKeyRange.bound([app_id], [app_id, AFTER_ALL]));
  while (cursor && members.length < limit) {
    if (!skip(cursor.value)) {
      if (toSkip > 0) toSkip--;
      else members.push(cursor.value);
    }
    cursor = await cursor.continue();
  }
  return members;
}
