// Leaderboard queries. Members of one board sort in its index by
// [app_id, (period,) -value, reached_at, account_name]; per-value counts
// (board_counts) turn positions into sums over distinct values, so that only
// the walk inside one group of equal values is proportional to members.
import type { LeaderboardType } from '../api/schemas.js';
import type { Transaction } from './index.js';
import { BOARD_INDEX, type BoardKey, type UserRecord } from './records.js';

/** Sorts after every number and string, so it closes a range. */
const AFTER_ALL: [] = [];

export interface BoardRef {
  type: LeaderboardType;
  app_id: string;
  /** The week or month of a period board; null for score and xp. */
  period: string | null;
}

const indexPrefix = (board: BoardRef): IDBValidKey[] =>
  board.period === null ? [board.app_id] : [board.app_id, board.period];
const boardIndex = (tx: Transaction, board: BoardRef) => tx.raw.objectStore('users').index(BOARD_INDEX[board.type]);

/** The per-value counts of the board whose values are above `negatedBelow`'s, highest first. */
function valueCounts(tx: Transaction, board: BoardRef, negatedBelow: number = Infinity) {
  const prefix = [board.app_id, board.type, board.period ?? ''];
  return tx.raw.objectStore('board_counts').getAll(IDBKeyRange.bound(prefix, [...prefix, negatedBelow], false, true));
}

/** Members on the board (for a period board: members with points in the period). */
export async function countOnBoard(tx: Transaction, board: BoardRef): Promise<number> {
  return (await valueCounts(tx, board)).reduce((sum, record) => sum + record.count, 0);
}

/** How many members hold a value strictly above `value`. */
export async function countHigher(tx: Transaction, board: BoardRef, value: number): Promise<number> {
  return (await valueCounts(tx, board, -value)).reduce((sum, record) => sum + record.count, 0);
}

/** How many distinct values lie strictly above `value`. */
export async function countDistinctHigher(tx: Transaction, board: BoardRef, value: number): Promise<number> {
  return (await valueCounts(tx, board, -value)).length;
}

/** The member's 0-based position on the board. */
export async function positionOf(tx: Transaction, board: BoardRef, key: BoardKey): Promise<number> {
  const prefix = indexPrefix(board);
  const negated = key[prefix.length] as number;
  const [higher, equalBefore] = await Promise.all([
    countHigher(tx, board, -negated),
    boardIndex(tx, board).count(IDBKeyRange.bound([...prefix, negated], key, false, true)),
  ]);
  return higher + equalBefore;
}

/** `limit` members from position `offset`, read in one request once the start is found. */
export async function boardPage(tx: Transaction, board: BoardRef, offset: number, limit: number): Promise<UserRecord[]> {
  if (limit === 0) return [];
  const prefix = indexPrefix(board);
  const end = [...prefix, AFTER_ALL];
  let start: IDBValidKey = prefix;
  if (offset > 0) {
    // Jump over whole groups of equal values, then step inside one group.
    let skipped = 0;
    let group: number | undefined;
    for (const record of await valueCounts(tx, board)) {
      if (skipped + record.count > offset) {
        group = record.negated;
        break;
      }
      skipped += record.count;
    }
    if (group === undefined) return [];
    let cursor = await boardIndex(tx, board).openKeyCursor(IDBKeyRange.bound([...prefix, group], end));
    if (cursor && offset > skipped) cursor = await cursor.advance(offset - skipped);
    if (!cursor) return [];
    start = cursor.key;
  }
  return boardIndex(tx, board).getAll(IDBKeyRange.bound(start, end), limit);
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
