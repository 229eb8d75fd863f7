// Leaderboard queries. Members of one board sort in its index by
// [app_id, (period,) -value, reached_at, account_name]; positions are sums
// over the group counts and runs that board-positions.ts keeps, plus a walk
// inside one run, never a walk over the board.
import type { LeaderboardType } from '../api/schemas.js';
import { AFTER_ALL, groupIndexEnd, orderingSource, slotOf } from './board-positions.js';
import type { Transaction } from './index.js';
import { indexKey, negated, placements, type GroupKey, type Tie } from './placements.js';
import { BOARD_INDEX, type BoardCountRecord, type Slot, type UserRecord } from './records.js';

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

/** A group's runs, empty when the group has no members. */
async function runsOf(tx: Transaction, group: GroupKey): Promise<Slot[]> {
  return (await tx.raw.objectStore('board_slots').get(group))?.slots ?? [];
}

/** How many members of one group sort before `tie`, which need not be a member's. */
async function countBeforeInGroup(tx: Transaction, group: GroupKey, tie: Tie, slots?: Slot[]): Promise<number> {
  slots ??= await runsOf(tx, group);
  if (slots.length === 0) return 0;
  const own = slotOf(slots, tie);
  const runStart = slots[own]!.start;
  // A tie that starts a run has no one before it in the run (and an empty range is an error).
  const startsRun = runStart !== null && runStart[0] === tie[0] && runStart[1] === tie[1];
  const inOwnRun = startsRun
    ? 0
    : await orderingSource(tx.raw.objectStore('users'), group[1]).count(
        IDBKeyRange.bound(indexKey(group, runStart ?? []), indexKey(group, tie), false, true),
      );
  return total(slots.slice(0, own)) + inOwnRun;
}

/** The member's 0-based position on the board; the member must be on it. */
export async function positionOf(tx: Transaction, board: BoardRef, user: UserRecord): Promise<number> {
  const { group, tie } = placements(user).find(
    ({ group: [, type, period] }) => type === board.type && (board.period === null || period === board.period),
  )!;
  const [higher, before] = await Promise.all([
    countHigher(tx, board, negated(group[3])),
    countBeforeInGroup(tx, group, tie),
  ]);
  return higher + before;
}

const namesGroup = (app_id: string): GroupKey => [app_id, 'names', '', 0];
const periodNamesGroup = (board: BoardRef): GroupKey => [
  board.app_id,
  board.type === 'weekly' ? 'weekly_names' : 'monthly_names',
  board.period!,
  0,
];
/** Whether the member is ranked on the board: has points in its period, or it has none. */
export const isRanked = (board: BoardRef, user: UserRecord) =>
  board.period === null || (board.type === 'weekly' ? user.week : user.month) === board.period;

/**
 * How many members without points in a period board's period sort before
 * `name` by name: all members before it, less those with points in the period.
 */
export async function countUnrankedBefore(tx: Transaction, board: BoardRef, name: string): Promise<number> {
  const [all, ranked] = await Promise.all([
    countBeforeInGroup(tx, namesGroup(board.app_id), [0, name]),
    countBeforeInGroup(tx, periodNamesGroup(board), [0, name]),
  ]);
  return all - ranked;
}

/** Members read at a time while skipping the ranked ones among the unranked. */
const UNRANKED_CHUNK = 200;

/**
 * `limit` members without points in the period board's period, in name order,
 * from the `skip`-th. The runs of all members and of the period's members,
 * both in memory, bound how many unranked members precede each run of all
 * members; only the few runs those bounds cannot decide cost a count. Then a
 * short read from that run skips the ranked members in between.
 */
export async function unrankedPage(tx: Transaction, board: BoardRef, skip: number, limit: number): Promise<UserRecord[]> {
  const names = namesGroup(board.app_id);
  const periodNames = periodNamesGroup(board);
  const [slots, periodSlots] = await Promise.all([runsOf(tx, names), runsOf(tx, periodNames)]);
  if (slots.length === 0 || limit === 0) return [];
  const sums = (runs: Slot[]) => {
    const before = [0];
    for (const run of runs) before.push(before.at(-1)! + run.count);
    return before;
  };
  const allBefore = sums(slots);
  const periodBefore = sums(periodSlots);

  /** Unranked members before run `i` of all members: [at least, at most]. */
  const bounds = (i: number): [number, number] => {
    if (i === 0 || periodSlots.length === 0) return [allBefore[i]!, allBefore[i]!];
    const j = slotOf(periodSlots, slots[i]!.start!);
    return [allBefore[i]! - periodBefore[j + 1]!, allBefore[i]! - periodBefore[j]!];
  };
  const exact = async (i: number) => {
    const [least, most] = bounds(i);
    if (least === most) return least;
    return allBefore[i]! - (await countBeforeInGroup(tx, periodNames, slots[i]!.start!, periodSlots));
  };
  // The last run that starts at or before the skip-th unranked member. Counts
  // grow with the run, so the bounds fence it in and a binary search settles it.
  let low = 0;
  let high = slots.length - 1;
  for (let i = 1; i < slots.length; i++) {
    const [least, most] = bounds(i);
    if (most <= skip) low = i;
    if (least > skip) {
      high = i - 1;
      break;
    }
  }
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((await exact(middle)) <= skip) low = middle;
    else high = middle - 1;
  }
  const [run, before] = [low, await exact(low)];
  let toSkip = skip - before;
  const members: UserRecord[] = [];
  let range = IDBKeyRange.bound(indexKey(names, slots[run]!.start ?? []), groupIndexEnd(names));
  for (;;) {
    const chunk = await tx.raw.objectStore('users').getAll(range, UNRANKED_CHUNK);
    for (const member of chunk) {
      if (isRanked(board, member)) continue;
      if (toSkip > 0) toSkip--;
      else if (members.push(member) === limit) return members;
    }
    if (chunk.length < UNRANKED_CHUNK) return members;
    range = IDBKeyRange.bound([board.app_id, chunk.at(-1)!.account_name], groupIndexEnd(names), true);
  }
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
