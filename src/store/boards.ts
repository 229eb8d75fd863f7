// Leaderboard queries: ranges of the board indexes, read in order. Members of
// one board sort by [app_id, (period,) -value, reached_at, account_name].
import type { LeaderboardType } from '../api/schemas.js';
import type { Transaction } from './index.js';
import { BOARD_INDEX, type BoardKey, type UserRecord } from './records.js';

/** Sorts after every number and string, so it closes a range. */
const AFTER_ALL: [] = [];

function boardIndex(tx: Transaction, type: LeaderboardType) {
  return tx.raw.objectStore('users').index(BOARD_INDEX[type]);
}

/** The key prefix of one board: the app, and for period boards the period. */
export function boardPrefix(app_id: string, period: string | null): IDBValidKey[] {
  return period === null ? [app_id] : [app_id, period];
}

export async function boardPage(
  tx: Transaction,
  type: LeaderboardType,
  prefix: IDBValidKey[],
  offset: number,
  limit: number,
): Promise<UserRecord[]> {
  const members: UserRecord[] = [];
  if (limit === 0) return members;
  let cursor = await boardIndex(tx, type).openCursor(IDBKeyRange.bound(prefix, [...prefix, AFTER_ALL]));
  if (cursor && offset > 0) cursor = await cursor.advance(offset);
  while (cursor && members.length < limit) {
    members.push(cursor.value);
    cursor = await cursor.continue();
  }
  return members;
}

/** How many members of the board sort before `key` (its 0-based position). */
export function countBefore(tx: Transaction, type: LeaderboardType, prefix: IDBValidKey[], key: BoardKey) {
  return boardIndex(tx, type).count(IDBKeyRange.bound(prefix, key, false, true));
}

/** How many members of the board have a value strictly above `negatedValue`'s. */
export function countHigher(tx: Transaction, type: LeaderboardType, prefix: IDBValidKey[], negatedValue: number) {
  return boardIndex(tx, type).count(IDBKeyRange.bound(prefix, [...prefix, negatedValue], false, true));
}

/** How many distinct values lie above `negatedValue`: one cursor step per value. */
export async function countDistinctHigher(
  tx: Transaction,
  type: LeaderboardType,
  prefix: IDBValidKey[],
  negatedValue: number,
): Promise<number> {
  let distinct = 0;
  let cursor = await boardIndex(tx, type).openKeyCursor(
    IDBKeyRange.bound(prefix, [...prefix, negatedValue], false, true),
  );
  while (cursor) {
    distinct++;
    const value = (cursor.key as IDBValidKey[])[prefix.length]!;
    cursor = await cursor.continue([...prefix, value, AFTER_ALL]);
  }
  return distinct;
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
