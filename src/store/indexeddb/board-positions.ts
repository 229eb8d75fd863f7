// Keeps each board readable in pages and countable without walking it.
// Reading IndexedDB costs about 11 µs a record here, so members are not read
// one record each: every value group is cut into runs of at most RUN_SPLIT
// members in board order, and each run is one record holding its members'
// rows (board_rows). board_counts holds the members of each group, and
// board_runs, one record per group, each run's start and size. A position is
// then a sum over a few records plus a search inside one run, and a page of a
// hundred members is a read of two to four records. Each season's board is
// laid out the same way, its rows the members' ties (season-boards.ts).
import type { IDBPTransaction } from 'idb';
import { prefixRange } from './key-ranges.js';
import type { QuestboardSchema, StoreName } from './schema.js';
import { compareTies, placements, rowOf, rowTie, seasonPlacement, type Placement } from '../placements.js';
import type { GroupKey, Tie, TieRow } from '../records.js';
import type { RunBounds, RunKey, RunsRecord } from './board-records.js';

/** A run past this many members splits in two. */
const RUN_SPLIT = 96;
/** Runs are rebuilt with this many members, leaving room to grow. */
export const RUN_FILL = 48;

type Raw = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite' | 'versionchange'>;

/** The key of the run that starts at `start` (null: the group's first run). */
export const runKey = (group: GroupKey, start: Tie | null): RunKey => (start === null ? group : [...group, ...start]);

/** Orders placements exactly as IndexedDB orders their run keys. */
export function comparePlacements(a: Placement, b: Placement): number {
  const parts = [...a.group, ...a.tie];
  const others = [...b.group, ...b.tie];
  for (let i = 0; i < parts.length; i++) {
    const x = parts[i]!;
    const y = others[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

const groupText = (group: GroupKey) => JSON.stringify(group);

export function decodeRuns(record: RunsRecord | undefined): RunBounds[] {
  if (!record) return [];
  const names = JSON.parse(record.starts_name) as string[];
  return Array.from(record.counts, (count, index) => ({
    start: index === 0 ? null : [record.starts_at[index]!, names[index]!],
    count,
  }));
}

function encodeRuns(key: GroupKey, runBounds: RunBounds[]): RunsRecord {
  return {
    key,
    counts: Uint16Array.from(runBounds, (bounds) => bounds.count),
    starts_at: Float64Array.from(runBounds, (bounds) => bounds.start?.[0] ?? 0),
    starts_name: JSON.stringify(runBounds.map((bounds) => bounds.start?.[1] ?? '')),
  };
}

/** The index of the run holding `tie`: the last one starting at or before it. */
export function runIndexOf(runBounds: RunBounds[], tie: Tie): number {
  let low = 0;
  let high = runBounds.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (compareTies(runBounds[middle]!.start!, tie) <= 0) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** How many rows of a run sort before `tie`. */
export function rowsBefore(rows: TieRow[], tie: Tie): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareTies(rowTie(rows[middle]!), tie) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** One member's row in one group: leaving it (row null), joining it (delta 1) or changed in place (delta 0). */
export interface RowChange {
  placement: Placement;
  row: TieRow | null;
  delta: -1 | 0 | 1;
}

interface GroupInWrite {
  key: GroupKey;
  runBounds: RunBounds[];
  /** The rows of each run this write touches, by run index. */
  changedRows: Map<number, TieRow[]>;
}

/** Applies members' changes to the runs, counts and groups. */
export async function moveRows(raw: Raw, changes: RowChange[]): Promise<void> {
  const texts = changes.map(({ placement }) => groupText(placement.group));
  const resized = new Set(texts.filter((_, index) => changes[index]!.delta !== 0));
  const inPlace = changes.filter((_, index) => !resized.has(texts[index]!));
  const moving = changes.filter((_, index) => resized.has(texts[index]!));
  await Promise.all([rewriteRows(raw, inPlace), resizeGroups(raw, moving)]);
}

/**
 * Rows that change where they stand, in groups that keep their size: the
 * groups' runs records stay as they are (a large group's is tens of KB), and
 * each run is found by its key alone.
 */
async function rewriteRows(raw: Raw, changes: RowChange[]): Promise<void> {
  const rowsStore = raw.objectStore('board_rows');
  const located = await Promise.all(
    changes.map(async (change) => {
      const { group, tie } = change.placement;
      // The run holding a tie is the last one whose key sorts at or before the tie's own.
      const cursor = await rowsStore.openCursor(IDBKeyRange.bound(group, runKey(group, tie)), 'prev');
      if (!cursor) throw new Error(`The board has no run for ${JSON.stringify(tie)}.`);
      return { change, record: cursor.value };
    }),
  );
  const runs = groupBy(located, ({ record }) => JSON.stringify(record.key));
  await Promise.all(
    [...runs.values()].map((inRun) =>
      rowsStore.put({
        ...inRun[0]!.record,
        rows: applyChanges(
          inRun[0]!.record.rows,
          inRun.map(({ change }) => change),
        ),
      }),
    ),
  );
}

/**
 * Members joining, leaving or moving within groups. Each touched run takes all
 * its changes in one merge, so a write of thousands of members (a merge
 * import's chunk) costs in proportion to the members and runs it touches,
 * never to the size of the board.
 */
async function resizeGroups(raw: Raw, changes: RowChange[]): Promise<void> {
  if (changes.length === 0) return;
  const runsStore = raw.objectStore('board_runs');
  const rowsStore = raw.objectStore('board_rows');

  // The groups' counts and their runs read together (a round of requests less for each write
  // that moves a member); a group the write empties is then left out.
  const groups = new Map<string, GroupInWrite>();
  const byGroup = groupBy(changes, (change) => groupText(change.placement.group));
  const [emptied] = await Promise.all([
    updateGroupCounts(raw, changes),
    Promise.all(
      [...byGroup.keys()].map(async (text) => {
        const key = JSON.parse(text) as GroupKey;
        const runBounds = decodeRuns(await runsStore.get(key));
        // A group's first run starts at the group itself (start null), so any member finds one.
        groups.set(text, {
          key,
          runBounds: runBounds.length > 0 ? runBounds : [{ start: null, count: 0 }],
          changedRows: new Map(),
        });
      }),
    ),
  ]);
  for (const text of emptied) {
    byGroup.delete(text);
    groups.delete(text);
  }
  // Every change finds its run among the runs as they were before this write.
  await Promise.all(
    [...byGroup].map(async ([text, changes]) => {
      const group = groups.get(text)!;
      const perRun = groupBy(changes, (change) => runIndexOf(group.runBounds, change.placement.tie));
      await Promise.all(
        [...perRun].map(async ([run, changes]) => {
          const rows = (await rowsStore.get(runKey(group.key, group.runBounds[run]!.start)))?.rows ?? [];
          group.changedRows.set(run, applyChanges(rows, changes));
        }),
      );
    }),
  );

  const writes: Promise<unknown>[] = [];
  for (const group of groups.values()) {
    // Last run first, so that splicing one leaves the indexes of the others.
    for (const run of [...group.changedRows.keys()].sort((a, b) => b - a)) {
      const rows = group.changedRows.get(run)!;
      const start = group.runBounds[run]!.start;
      if (rows.length === 0 && run > 0) {
        group.runBounds.splice(run, 1);
        writes.push(rowsStore.delete(runKey(group.key, start)));
        continue;
      }
      const pieces = halves(rows);
      const runBounds = pieces.map((piece, index) => ({ start: index === 0 ? start : rowTie(piece[0]!), count: piece.length }));
      group.runBounds.splice(run, 1, ...runBounds);
      pieces.forEach((piece, index) =>
        writes.push(rowsStore.put({ key: runKey(group.key, runBounds[index]!.start), rows: piece })),
      );
    }
    writes.push(runsStore.put(encodeRuns(group.key, group.runBounds)));
  }
  for (const text of emptied) {
    const key = JSON.parse(text) as GroupKey;
    writes.push(runsStore.delete(key), rowsStore.delete(prefixRange(key)));
  }
  await Promise.all(writes);
}

/**
 * One run's rows after its changes: those leaving go first (a member who moves
 * inside the run leaves and joins), then the rest change in place, and those
 * joining, sorted, are merged in: one pass, however many join.
 */
function applyChanges(rows: TieRow[], changes: RowChange[]): TieRow[] {
  const leaving = new Set<string>();
  const changed = new Map<string, TieRow>();
  const joining: TieRow[] = [];
  for (const {
    placement: { tie },
    row,
    delta,
  } of changes) {
    if (delta === 1) joining.push({ ...row!, at: tie[0] });
    else if (row === null) leaving.add(tie[1]);
    else changed.set(tie[1], { ...row, at: tie[0] });
  }
  const kept: TieRow[] = [];
  for (const row of rows) {
    if (leaving.delete(row.account_name)) continue;
    const update = changed.get(row.account_name);
    if (update) changed.delete(row.account_name);
    kept.push(update ?? row);
  }
  const [missing] = [...leaving, ...changed.keys()];
  if (missing !== undefined) throw new Error(`The board has no row for ${JSON.stringify(missing)}.`);
  joining.sort((a, b) => compareTies(rowTie(a), rowTie(b)));
  const merged: TieRow[] = [];
  let i = 0;
  for (const row of joining) {
    while (i < kept.length && compareTies(rowTie(kept[i]!), rowTie(row)) < 0) merged.push(kept[i++]!);
    merged.push(row);
  }
  while (i < kept.length) merged.push(kept[i++]!);
  return merged;
}

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** A run cut in halves until none holds more than RUN_SPLIT members. */
function halves(rows: TieRow[]): TieRow[][] {
  if (rows.length <= RUN_SPLIT) return [rows];
  const half = rows.length >> 1;
  return [...halves(rows.slice(0, half)), ...halves(rows.slice(half))];
}

/** Returns the groups left empty. */
async function updateGroupCounts(raw: Raw, changes: RowChange[]): Promise<Set<string>> {
  const deltas = new Map<string, number>();
  for (const { placement, delta } of changes) {
    const text = groupText(placement.group);
    deltas.set(text, (deltas.get(text) ?? 0) + delta);
  }
  const counts = raw.objectStore('board_counts');
  const emptied = new Set<string>();
  await Promise.all(
    [...deltas].map(async ([text, delta]) => {
      if (delta === 0) return;
      const key = JSON.parse(text) as GroupKey;
      const count = ((await counts.get(key))?.count ?? 0) + delta;
      if (count > 0) return counts.put({ key, count });
      emptied.add(text);
      return counts.delete(key);
    }),
  );
  return emptied;
}

/**
 * Lays out an app's boards afresh from its members: one read of the members and
 * a sort (the upgrade from boards kept before version 4, which had no seasons).
 */
export async function rebuildPositions(raw: Raw, app_id: string): Promise<void> {
  const appRange = prefixRange([app_id]);
  const [members] = await Promise.all([
    raw.objectStore('users').getAll(appRange),
    raw.objectStore('board_counts').delete(appRange),
    raw.objectStore('board_runs').delete(appRange),
    raw.objectStore('board_rows').delete(appRange),
  ]);
  await layOut(
    raw,
    members.flatMap((user) => placements(user).map((placement) => ({ ...placement, row: rowOf(user) }))),
  );
}

/** Lays out every season's board from its members' points (the upgrade to version 13): rows of their ties alone (SeasonRow). */
export async function layOutSeasons(raw: Raw): Promise<void> {
  const records = await raw.objectStore('season_points').getAll();
  await layOut(
    raw,
    records.map((record) => ({ ...seasonPlacement(record), row: { account_name: record.account_name, at: record.at } })),
  );
}

/** Writes the groups of the placements given, whole, in runs of RUN_FILL members: each row at its tie's time. */
async function layOut(raw: Raw, placed: (Placement & { row: TieRow })[]): Promise<void> {
  const all = placed.sort(comparePlacements);
  const rows = raw.objectStore('board_rows');
  const writes: Promise<unknown>[] = [];
  let start = 0;
  while (start < all.length) {
    const group = all[start]!.group;
    const text = groupText(group);
    let end = start;
    while (end < all.length && groupText(all[end]!.group) === text) end++;
    const runBounds: RunBounds[] = [];
    for (let from = start; from < end; from += RUN_FILL) {
      const bounds: RunBounds = { start: from === start ? null : all[from]!.tie, count: Math.min(RUN_FILL, end - from) };
      runBounds.push(bounds);
      const members = all.slice(from, from + bounds.count).map(({ row, tie }) => ({ ...row, at: tie[0] }));
      writes.push(rows.put({ key: runKey(group, bounds.start), rows: members }));
    }
    writes.push(
      raw.objectStore('board_counts').put({ key: group, count: end - start }),
      raw.objectStore('board_runs').put(encodeRuns(group, runBounds)),
    );
    start = end;
  }
  await Promise.all(writes);
}
