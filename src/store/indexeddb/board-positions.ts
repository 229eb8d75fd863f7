// Keeps each board readable in pages and countable without walking it.
// Reading IndexedDB costs about 11 µs a record here, so members are not read
// one record each: every value group is cut into runs of at most RUN_SPLIT
// members in board order, and each run is one record holding its members'
// rows (board_rows). board_counts holds the members of each group of a board
// (a name list's are its runs' sum), and board_runs, one record per group,
// each run's start and size. A position is
// then a sum over a few records plus a search inside one run, and a page of a
// hundred members is a read of two to four records. Each season's board is
// laid out the same way, its rows the members' ties (season-boards.ts).
import { unwrap, type IDBPTransaction } from 'idb';
import { prefixRange } from './key-ranges.js';
import type { QuestboardSchema, StoreName } from './schema.js';
import { compareTies, isNameList, placements, rowOf, rowTie, seasonPlacement, type Placement } from '../placements.js';
import type { GroupKey, Tie, TieRow } from '../records.js';
import type { RowsRecord, RunBounds, RunKey, RunsRecord } from './board-records.js';

/** A run past this many members splits in two. */
export const RUN_SPLIT = 96;
/** Runs are rebuilt with this many members, leaving room to grow. */
export const RUN_FILL = 48;
/** Up to this many changes of a group find their runs beside the group's runs read (resizeGroups). */
const LOCATED_WITH_RUNS = 8;

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

// Loops, not Array.from with a mapping: a large group has hundreds of runs, and the mapping
// builtins cost about a millisecond of every write that moves members in three such groups.
export function decodeRuns(record: RunsRecord | undefined): RunBounds[] {
  if (!record) return [];
  const names = JSON.parse(record.starts_name) as string[];
  const runBounds: RunBounds[] = [];
  for (let index = 0; index < record.counts.length; index++) {
    runBounds.push({ start: index === 0 ? null : [record.starts_at[index]!, names[index]!], count: record.counts[index]! });
  }
  return runBounds;
}

function encodeRuns(key: GroupKey, runBounds: RunBounds[]): RunsRecord {
  const counts = new Uint16Array(runBounds.length);
  const startsAt = new Float64Array(runBounds.length);
  const names: string[] = [];
  for (const [index, { start, count }] of runBounds.entries()) {
    counts[index] = count;
    startsAt[index] = start?.[0] ?? 0;
    names.push(start?.[1] ?? '');
  }
  return { key, counts, starts_at: startsAt, starts_name: JSON.stringify(names) };
}

/**
 * A run's record, its rows packed as columns in one JSON text (RowsRecord): IndexedDB copies a
 * string whole, where rows as objects cost a copy of each field, and a row's field names, kept
 * once, not in every row, were half its text.
 */
export function encodeRows(key: RunKey, rows: TieRow[]): RowsRecord {
  const fields: string[] = [];
  for (const row of rows) for (const field in row) if (!fields.includes(field)) fields.push(field);
  const values: unknown[] = [];
  for (const row of rows) for (const field of fields) values.push((row as unknown as Record<string, unknown>)[field] ?? null);
  return { key, packed_rows: JSON.stringify([fields, values]) };
}

// In loops, as decodeRuns: a write that awards a badge decodes some twenty runs.
export function decodeRows(record: RowsRecord | undefined): TieRow[] {
  if (!record) return [];
  const [fields, values] = JSON.parse(record.packed_rows) as [string[], unknown[]];
  const rows: TieRow[] = [];
  for (let start = 0; start < values.length; start += fields.length) {
    const row: Record<string, unknown> = {};
    // A field a row lacks (a season's row laid out before version 13) stays absent.
    for (let index = 0; index < fields.length; index++)
      if (values[start + index] !== null) row[fields[index]!] = values[start + index];
    rows.push(row as unknown as TieRow);
  }
  return rows;
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

/**
 * Applies members' changes to the runs, counts and groups. Resolves once every write is asked
 * for: their answers are not waited for one by one, as one that fails aborts the transaction.
 */
export async function moveRows(raw: Raw, changes: RowChange[]): Promise<void> {
  const texts = changes.map(({ placement }) => groupText(placement.group));
  const resized = new Set(texts.filter((_, index) => changes[index]!.delta !== 0));
  const inPlace = changes.filter((_, index) => !resized.has(texts[index]!));
  const moving = changes.filter((_, index) => resized.has(texts[index]!));
  const writing = unwrap(raw);
  await Promise.all([rewriteRows(raw, writing, inPlace), resizeGroups(raw, writing, moving)]);
}

/**
 * The run holding a tie: the last one whose key sorts at or before the tie's own, found by its
 * key alone (none in a group without runs).
 */
async function runHolding(raw: Raw, { group, tie }: Placement): Promise<{ key: RunKey; rows: TieRow[] } | undefined> {
  const cursor = await raw.objectStore('board_rows').openCursor(IDBKeyRange.bound(group, runKey(group, tie)), 'prev');
  return cursor ? { key: cursor.value.key, rows: decodeRows(cursor.value) } : undefined;
}

/**
 * Rows that change where they stand, in groups that keep their size: the
 * groups' runs records stay as they are (a large group's is tens of KB).
 */
async function rewriteRows(raw: Raw, writing: IDBTransaction, changes: RowChange[]): Promise<void> {
  const located = await Promise.all(
    changes.map(async (change) => {
      const record = await runHolding(raw, change.placement);
      if (!record) throw new Error(`The board has no run for ${JSON.stringify(change.placement.tie)}.`);
      return { change, record };
    }),
  );
  const runs = groupBy(located, ({ record }) => JSON.stringify(record.key));
  for (const inRun of runs.values()) {
    const { key, rows } = inRun[0]!.record;
    writing.objectStore('board_rows').put(
      encodeRows(
        key,
        applyChanges(
          rows,
          inRun.map(({ change }) => change),
        ),
      ),
    );
  }
}

/**
 * Members joining, leaving or moving within groups. Each touched run takes all
 * its changes in one merge, so a write of thousands of members (a merge
 * import's chunk) costs in proportion to the members and runs it touches,
 * never to the size of the board.
 *
 * A write of a few members reads in one round of requests: each group's runs, and the run
 * holding each change, found by its key alone. A request is some 0.1 ms of such a write
 * (docs/performance.md), so a group's count is not read either: it is its runs' sum.
 */
async function resizeGroups(raw: Raw, writing: IDBTransaction, changes: RowChange[]): Promise<void> {
  const runsStore = raw.objectStore('board_runs');
  const rowsStore = raw.objectStore('board_rows');
  const groups = await Promise.all(
    [...groupBy(changes, (change) => groupText(change.placement.group)).values()].map(async (changes) => {
      const key = changes[0]!.placement.group;
      // Many changes (an import's chunk) read each run they touch once, once the runs are known.
      const locate = changes.length <= LOCATED_WITH_RUNS;
      const [record, holding] = await Promise.all([
        runsStore.get(key),
        locate ? Promise.all(changes.map((change) => runHolding(raw, change.placement))) : [],
      ]);
      const runBounds = decodeRuns(record);
      const count = changes.reduce((sum, { delta }) => sum + delta, sumCounts(runBounds));
      // A group's first run starts at the group itself (start null), so any member finds one.
      if (runBounds.length === 0) runBounds.push({ start: null, count: 0 });
      const perRun = groupBy(
        changes.map((change, index) => ({ change, record: holding[index] })),
        ({ change }) => runIndexOf(runBounds, change.placement.tie),
      );
      const changedRows = new Map<number, TieRow[]>();
      await Promise.all(
        [...perRun].map(async ([run, inRun]) => {
          const runAt = runKey(key, runBounds[run]!.start);
          // Found beside the runs (`locate`), or read now by the key its bounds give.
          const found = inRun[0]!.record;
          const rows = locate ? found?.rows : decodeRows(await rowsStore.get(runAt));
          // The runs and their rows are written together: a run found by its key is the one its bounds name.
          if (found && JSON.stringify(found.key) !== JSON.stringify(runAt)) {
            throw new Error(`The board's runs of ${groupText(key)} do not match its rows.`);
          }
          changedRows.set(
            run,
            applyChanges(
              rows ?? [],
              inRun.map(({ change }) => change),
            ),
          );
        }),
      );
      return { key, count, runBounds, changedRows };
    }),
  );

  const runsWrites = writing.objectStore('board_runs');
  const rowsWrites = writing.objectStore('board_rows');
  const countsWrites = writing.objectStore('board_counts');
  for (const { key, count, runBounds, changedRows } of groups) {
    if (count === 0) {
      countsWrites.delete(key);
      runsWrites.delete(key);
      rowsWrites.delete(prefixRange(key));
      continue;
    }
    // A name list is never counted whole (boards.ts counts the names before one from its runs).
    if (!isNameList(key)) countsWrites.put({ key, count });
    // Last run first, so that splicing one leaves the indexes of the others.
    for (const run of [...changedRows.keys()].sort((a, b) => b - a)) {
      const rows = changedRows.get(run)!;
      const start = runBounds[run]!.start;
      if (rows.length === 0 && run > 0) {
        runBounds.splice(run, 1);
        rowsWrites.delete(runKey(key, start));
        continue;
      }
      const pieces = halves(rows);
      const bounds = pieces.map((piece, index) => ({ start: index === 0 ? start : rowTie(piece[0]!), count: piece.length }));
      runBounds.splice(run, 1, ...bounds);
      pieces.forEach((piece, index) => rowsWrites.put(encodeRows(runKey(key, bounds[index]!.start), piece)));
    }
    runsWrites.put(encodeRuns(key, runBounds));
  }
}

const sumCounts = (runBounds: RunBounds[]) => runBounds.reduce((sum, { count }) => sum + count, 0);

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
      writes.push(rows.put(encodeRows(runKey(group, bounds.start), members)));
    }
    writes.push(raw.objectStore('board_runs').put(encodeRuns(group, runBounds)));
    if (!isNameList(group)) writes.push(raw.objectStore('board_counts').put({ key: group, count: end - start }));
    start = end;
  }
  await Promise.all(writes);
}
