// Leaderboard queries. A board's members sit in runs of rows in board order
// (board-positions.ts): a position is a sum over group counts and run sizes
// plus a search inside one run, and a page is a read of the few runs it
// spans, never a walk over the board. A season's board is laid out the same
// way (season-boards.ts), so the counts and pages here serve it too.
import { boardPagesOf, decodePages, decodeRows, pageCount, rowsBefore, RUN_FILL, runIndexOf, runKey } from './board-positions.js';
import type { PagesByGroup } from './kept-boards.js';
import type { GroupCount, RunBounds, RunKey } from './board-records.js';
import { prefixRange } from './key-ranges.js';
import type { RawTransaction } from './schema.js';
import { compareTies, negated, placements, type Placement } from '../placements.js';
import { isRanked, windowStart, type BoardRef, type Listed, type PageWindow } from '../port.js';
import type { BoardRow, GroupKey, Tie, TieRow, UserRecord } from '../records.js';

type Transaction = RawTransaction;

/** A board laid out in runs: one of the port's, or a season's (its period the season's id). */
export type RunBoard = Omit<BoardRef, 'type'> & { type: BoardRef['type'] | 'season' };

const boardPrefix = (board: RunBoard) => [board.app_id, board.type, board.period ?? ''];

// Boards are read in read transactions only, so what one request reads stays true until it ends.
const pagesRead = new WeakMap<Transaction, Map<string, Promise<PagesByGroup>>>();
const rowsRead = new WeakMap<Transaction, Map<string, Promise<TieRow[]>>>();

function readOnce<T>(memo: WeakMap<Transaction, Map<string, Promise<T>>>, tx: Transaction, key: unknown, read: () => Promise<T>) {
  const reads = memo.get(tx) ?? new Map<string, Promise<T>>();
  memo.set(tx, reads);
  const text = JSON.stringify(key);
  let value = reads.get(text);
  if (!value) reads.set(text, (value = read()));
  return value;
}

/** The board's value groups, highest first, down to (not including) `negatedBelow`. */
async function groups(tx: Transaction, board: RunBoard, negatedBelow: number = Infinity) {
  return countsOf(await boardPages(tx, boardPrefix(board))).filter((record) => record.key[3] < negatedBelow);
}

/**
 * Every page of the board's runs by group, kept or in one read (boardPagesOf): each group's
 * count is the sum of its pages' run sizes, and the group a page then lists is found among them
 * without another read.
 */
const boardPages = (tx: Transaction, prefix: string[]): Promise<PagesByGroup> =>
  readOnce(pagesRead, tx, prefix, () => boardPagesOf(tx, prefix));

// Kept pages are never changed (kept-boards.ts): the counts derived from them are kept with them.
const groupCounts = new WeakMap<PagesByGroup, GroupCount[]>();

/** Each group's count, highest first: its pages' run sizes summed. */
function countsOf(pagesOf: PagesByGroup): GroupCount[] {
  let counts = groupCounts.get(pagesOf);
  if (!counts) {
    counts = [...pagesOf.values()].map((pages) => ({
      key: pages[0]!.key.slice(0, 4) as GroupKey,
      count: pages.reduce((sum, page) => sum + pageCount(page), 0),
    }));
    groupCounts.set(pagesOf, counts);
  }
  return counts;
}

const total = (records: { count: number }[]) => records.reduce((sum, record) => sum + record.count, 0);

/** Members on the board (for a period board: members with points in the period). */
export async function countOnBoard(tx: Transaction, board: BoardRef): Promise<number> {
  return total(await groups(tx, board));
}

/** How many members hold a value strictly above `value`. */
export async function countHigher(tx: Transaction, board: RunBoard, value: number): Promise<number> {
  return total(await groups(tx, board, negated(value)));
}

/** How many distinct values lie strictly above `value`. */
export async function countDistinctHigher(tx: Transaction, board: RunBoard, value: number): Promise<number> {
  return (await groups(tx, board, negated(value))).length;
}

/** A group's runs, from its board's pages; empty when the group has no members. */
async function runsOf(tx: Transaction, group: GroupKey): Promise<RunBounds[]> {
  // A group's first three parts are its board's prefix (boardPrefix).
  return decodePages((await boardPages(tx, group.slice(0, 3) as string[])).get(JSON.stringify(group)) ?? []);
}

/**
 * Runs in key order within `range`, read in batches sized for the `rowsWanted()` still wanted.
 * Runs hold RUN_FILL members or more unless members left them or their group is small, so a
 * first batch guesses RUN_FILL a run, and each later one goes by the rows a run of the batch
 * before held, at most twice its size: a season's groups hold a few members each at the top of
 * its board and more further down, and a page of them was read in up to twelve batches one
 * after another; sized by the top's runs alone, a batch read some thirty runs, most of them full.
 */
async function* runsIn(
  tx: Transaction,
  range: IDBKeyRange,
  rowsWanted: () => number,
): AsyncGenerator<{ key: RunKey; rows: TieRow[] }> {
  let perRun = RUN_FILL;
  let size = Infinity;
  for (let lower = range.lower as IDBValidKey, open = range.lowerOpen; ; open = true) {
    size = Math.min(Math.ceil(rowsWanted() / perRun) + 1, 2 * size);
    const records = await tx.objectStore('board_rows').getAll(IDBKeyRange.bound(lower, range.upper, open), size);
    let rowsRead = 0;
    for (const record of records) {
      const rows = decodeRows(record);
      rowsRead += rows.length;
      yield { key: record.key, rows };
    }
    if (records.length < size) return;
    perRun = Math.max(1, rowsRead / records.length);
    lower = records.at(-1)!.key;
  }
}

/** How many members of one group sort before `tie`, which need not be a member's. */
async function countBeforeInGroup(tx: Transaction, group: GroupKey, tie: Tie, runBounds?: RunBounds[]): Promise<number> {
  runBounds ??= await runsOf(tx, group);
  if (runBounds.length === 0) return 0;
  const own = runIndexOf(runBounds, tie);
  const key = runKey(group, runBounds[own]!.start);
  const rows = await readOnce(rowsRead, tx, key, async () => decodeRows(await tx.objectStore('board_rows').get(key)));
  return total(runBounds.slice(0, own)) + rowsBefore(rows, tie);
}

/** The 0-based position of a member placed on the board; the member must be on it. */
export async function positionOf(tx: Transaction, board: RunBoard, { group, tie }: Placement): Promise<number> {
  const [higher, before] = await Promise.all([countHigher(tx, board, negated(group[3])), countBeforeInGroup(tx, group, tie)]);
  return higher + before;
}

const namesGroup = (app_id: string): GroupKey => [app_id, 'names', '', 0];
const periodNamesGroup = (board: BoardRef): GroupKey => [
  board.app_id,
  board.type === 'weekly' ? 'weekly_names' : 'monthly_names',
  board.period!,
  0,
];
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

/**
 * `limit` members without points in the period board's period, in name order,
 * from the `skip`-th. The runs of all members and of the period's members,
 * both in memory, bound how many unranked members precede each run of all
 * members; only the few runs those bounds cannot decide cost a count. Then a
 * short read from that run skips the ranked members in between.
 */
export async function unrankedPage(tx: Transaction, board: BoardRef, skip: number, limit: number): Promise<Listed[]> {
  const names = namesGroup(board.app_id);
  const periodNames = periodNamesGroup(board);
  const [runBounds, periodRunBounds] = await Promise.all([runsOf(tx, names), runsOf(tx, periodNames)]);
  if (runBounds.length === 0 || limit === 0) return [];
  const sums = (runs: RunBounds[]) => {
    const before = [0];
    for (const run of runs) before.push(before.at(-1)! + run.count);
    return before;
  };
  const allBefore = sums(runBounds);
  const periodBefore = sums(periodRunBounds);

  // The period's run holding the start of each run of all members: both lists
  // are in name order, so one pass over the two finds them all.
  const periodRunAt: number[] = [0];
  for (let i = 1, j = 0; i < runBounds.length; i++) {
    while (j + 1 < periodRunBounds.length && compareTies(periodRunBounds[j + 1]!.start!, runBounds[i]!.start!) <= 0) j++;
    periodRunAt.push(j);
  }
  /** Unranked members before run `i` of all members: [at least, at most]. */
  const bounds = (i: number): [number, number] => {
    if (i === 0 || periodRunBounds.length === 0) return [allBefore[i]!, allBefore[i]!];
    const j = periodRunAt[i]!;
    return [allBefore[i]! - periodBefore[j + 1]!, allBefore[i]! - periodBefore[j]!];
  };
  const exact = async (i: number) => {
    const [least, most] = bounds(i);
    if (least === most) return least;
    return allBefore[i]! - (await countBeforeInGroup(tx, periodNames, runBounds[i]!.start!, periodRunBounds));
  };
  // The last run that starts at or before the skip-th unranked member. Counts
  // grow with the run, so the bounds fence it in and a binary search settles it.
  let low = 0;
  let high = runBounds.length - 1;
  for (let i = 1; i < runBounds.length; i++) {
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
  const members: Listed[] = [];
  const range = prefixRange(names, runKey(names, runBounds[run]!.start));
  for await (const { rows } of runsIn(tx, range, () => toSkip + limit - members.length)) {
    for (const row of rows as BoardRow[]) {
      if (isRanked(board, row)) continue;
      if (toSkip > 0) toSkip--;
      else if (members.push({ row, value: 0 }) === limit) return members;
    }
  }
  return members;
}

/**
 * `limit` members from position `offset`, each with their group's value, in a read or two once
 * the start is found. Their rows as the board keeps them: whole, but a season's ties alone.
 */
export async function boardPage<Row extends TieRow = BoardRow>(
  tx: Transaction,
  board: RunBoard,
  offset: number,
  limit: number,
): Promise<{ row: Row; value: number }[]> {
  if (limit === 0) return [];
  const prefix = boardPrefix(board);
  let from: IDBValidKey = prefix;
  let skip = offset;
  if (offset > 0) {
    // Jump over whole groups, then whole runs; the rest is skipped in the rows read.
    const within = (record: { count: number }) => {
      if (skip < record.count) return true;
      skip -= record.count;
      return false;
    };
    const group = (await groups(tx, board)).find(within);
    if (!group) return [];
    const runBounds = await runsOf(tx, group.key);
    from = runKey(group.key, runBounds.find(within)!.start);
  }
  const members: { row: Row; value: number }[] = [];
  const range = prefixRange(prefix, from);
  for await (const { key, rows } of runsIn(tx, range, () => skip + limit - members.length)) {
    const value = negated(key[3]);
    if (skip >= rows.length) {
      skip -= rows.length;
      continue;
    }
    for (const row of rows.slice(skip) as Row[]) if (members.push({ row, value }) === limit) return members;
    skip = 0;
  }
  return members;
}

/** The page around a ranked member (Transaction.pageAround): their position, then a page from it. */
export async function pageAround(tx: Transaction, board: BoardRef, user: UserRecord, window: PageWindow) {
  const placement = placements(user).find(
    ({ group: [, type, period] }) => type === board.type && (board.period === null || period === board.period),
  )!;
  const offset = windowStart(await positionOf(tx, board, placement), window);
  return { offset, members: await boardPage(tx, board, offset, window.limit) };
}
