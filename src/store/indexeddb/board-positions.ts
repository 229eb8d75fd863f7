// Keeps each board readable in pages and countable without walking it.
// Reading IndexedDB costs about 11 µs a record here, so members are not read
// one record each: every value group is cut into runs of at most RUN_SPLIT
// members in board order, and each run is one record holding its members'
// rows (board_rows). board_runs holds each run's start and size, in pages of at
// most PAGE_SPLIT runs, each keyed by its first run's key: a group's members are
// the sum of its pages' run sizes, read with them. A position is then a sum over
// a few records plus a search inside one run, and a page of a hundred members is
// a read of two to four records. A write reads and rewrites the page of runs it
// changes, never every run of a large group, and no count besides. Each
// season's board is laid out the same way, its rows the members' ties
// (season-boards.ts).
import { unwrap, type IDBPTransaction } from 'idb';
import { prefixRange } from './key-ranges.js';
import type { QuestboardSchema, StoreName } from './schema.js';
import { compareTies, placements, rowOf, rowTie, seasonPlacement, type Placement } from '../placements.js';
import type { GroupKey, Tie, TieRow } from '../records.js';
import type { RowsRecord, RunBounds, RunKey, RunsRecord } from './board-records.js';

/** A run past this many members splits in two. */
export const RUN_SPLIT = 96;
/** Runs are rebuilt with this many members, leaving room to grow. */
export const RUN_FILL = 48;
/**
 * A page of runs past this many splits in two. One record for all of a group's runs was 16 KB at
 * 100,000 members, read and written whole by every write that moved a member in or out of it:
 * some 80 KB each way of a write that awards a badge (docs/performance.md).
 */
export const PAGE_SPLIT = 128;
/** Pages are laid out with this many runs, leaving room to grow. */
export const PAGE_FILL = 64;
/** Up to this many changes of a group find their page and run by their keys; more read the group's pages whole (resizeGroups). */
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

/** The tie a run or page key starts at: null for the group's own key. */
const startOf = (key: RunKey): Tie | null => (key.length > 4 ? [key[4] as number, key[5] as string] : null);

// Loops, not Array.from with a mapping: a large group has hundreds of runs, and the mapping
// builtins cost about a millisecond of every write that moves members in three such groups.
/** A page's runs, the first starting where the page's key does. */
export function decodeRuns(record: RunsRecord | undefined): RunBounds[] {
  if (!record) return [];
  const names = JSON.parse(record.starts_name) as string[];
  const runBounds: RunBounds[] = [];
  for (let index = 0; index < record.counts.length; index++) {
    const start = index === 0 ? startOf(record.key) : ([record.starts_at[index]!, names[index]!] as Tie);
    runBounds.push({ start, count: record.counts[index]! });
  }
  return runBounds;
}

/** A group's runs from its pages, read in key order (board order). */
export function decodePages(records: RunsRecord[]): RunBounds[] {
  const runBounds: RunBounds[] = [];
  for (const record of records) for (const run of decodeRuns(record)) runBounds.push(run);
  return runBounds;
}

/** The page of `group` holding `runBounds`, keyed by its first run. */
export function encodeRuns(group: GroupKey, runBounds: RunBounds[]): RunsRecord {
  const counts = new Uint16Array(runBounds.length);
  const startsAt = new Float64Array(runBounds.length);
  const names: string[] = [];
  for (const [index, { start, count }] of runBounds.entries()) {
    counts[index] = count;
    startsAt[index] = index === 0 ? 0 : start![0];
    names.push(index === 0 ? '' : start![1]);
  }
  return { key: runKey(group, runBounds[0]!.start), counts, starts_at: startsAt, starts_name: JSON.stringify(names) };
}

/** How many members a page of runs holds. */
export function pageCount(page: RunsRecord): number {
  let count = 0;
  for (const runCount of page.counts) count += runCount;
  return count;
}

/** A group's runs laid out in pages of PAGE_FILL runs (layOut, and the upgrade to version 16). */
export function layOutPages(group: GroupKey, runBounds: RunBounds[]): RunsRecord[] {
  const pages: RunsRecord[] = [];
  for (let from = 0; from < runBounds.length; from += PAGE_FILL)
    pages.push(encodeRuns(group, runBounds.slice(from, from + PAGE_FILL)));
  return pages;
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
 * The record of `store` holding a tie, a run of rows or a page of runs: the last one whose key
 * sorts at or before the tie's own, found by its key alone (none in a group without runs).
 */
async function holding<Name extends 'board_rows' | 'board_runs'>(raw: Raw, store: Name, { group, tie }: Placement) {
  const cursor = await raw.objectStore(store).openCursor(IDBKeyRange.bound(group, runKey(group, tie)), 'prev');
  return cursor?.value;
}

/** The run holding a tie, with its rows. */
async function runHolding(raw: Raw, placement: Placement): Promise<{ key: RunKey; rows: TieRow[] } | undefined> {
  const record = await holding(raw, 'board_rows', placement);
  return record && { key: record.key, rows: decodeRows(record) };
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

/** A page of a group's runs as read, and as the changes leave it. */
interface Page {
  /** The key it was read under; null for a page new to the group. */
  key: RunKey | null;
  runs: RunBounds[];
}

/**
 * Members joining, leaving or moving within groups. Each touched run takes all
 * its changes in one merge, so a write of thousands of members (a merge
 * import's chunk) costs in proportion to the members and runs it touches,
 * never to the size of the board.
 *
 * A write of a few members reads in one round of requests: for each change, the page of runs
 * and the run holding it, each found by its key alone. A request is some 0.1 to 0.3 ms of such
 * a write (docs/performance.md), so no count is kept beside the pages: a page's runs count its
 * members. Many changes read the group's pages whole.
 */
async function resizeGroups(raw: Raw, writing: IDBTransaction, changes: RowChange[]): Promise<void> {
  const pagesStore = raw.objectStore('board_runs');
  const rowsStore = raw.objectStore('board_rows');
  const groups = await Promise.all(
    [...groupBy(changes, (change) => groupText(change.placement.group)).values()].map(async (changes) => {
      const key = changes[0]!.placement.group;
      const locate = changes.length <= LOCATED_WITH_RUNS;
      const [records, held] = await Promise.all([
        locate
          ? Promise.all(changes.map((change) => holding(raw, 'board_runs', change.placement)))
          : pagesStore.getAll(prefixRange(key)),
        locate ? Promise.all(changes.map((change) => runHolding(raw, change.placement))) : [],
      ]);
      // Each page read once, in board order.
      const pages = new Map<string, Page>();
      for (const record of records)
        if (record) pages.set(JSON.stringify(record.key), { key: record.key, runs: decodeRuns(record) });
      // A group's first run starts at the group itself (start null), so any member finds one.
      if (!pages.has(groupText(key))) pages.set(groupText(key), { key: null, runs: [{ start: null, count: 0 }] });
      const ordered = [...pages.values()].sort((a, b) => compareStarts(a.runs[0]!.start, b.runs[0]!.start));
      const changedRows = new Map<Page, Map<number, TieRow[]>>();
      await Promise.all(
        [
          ...groupBy(
            changes.map((change, index) => ({ change, record: held[index] })),
            ({ change }) => pageOf(ordered, change.placement.tie),
          ),
        ].map(async ([page, inPage]) => {
          const perRun = groupBy(inPage, ({ change }) => runIndexOf(page.runs, change.placement.tie));
          const rowsOfPage = new Map<number, TieRow[]>();
          changedRows.set(page, rowsOfPage);
          await Promise.all(
            [...perRun].map(async ([run, inRun]) => {
              const runAt = runKey(key, page.runs[run]!.start);
              // Found by its key (`locate`), or read now by the key its bounds give.
              const found = inRun[0]!.record;
              const rows = locate ? found?.rows : decodeRows(await rowsStore.get(runAt));
              // The runs and their rows are written together: a run found by its key is the one its bounds name.
              if (found && JSON.stringify(found.key) !== JSON.stringify(runAt)) {
                throw new Error(`The board's runs of ${groupText(key)} do not match its rows.`);
              }
              rowsOfPage.set(
                run,
                applyChanges(
                  rows ?? [],
                  inRun.map(({ change }) => change),
                ),
              );
            }),
          );
        }),
      );
      return { key, changedRows };
    }),
  );

  const pagesWrites = writing.objectStore('board_runs');
  const rowsWrites = writing.objectStore('board_rows');
  for (const { key, changedRows } of groups) {
    const rewritten = [...changedRows].map(([page, rowsOfRuns]) => ({
      page,
      runs: rewriteRuns(key, page, rowsOfRuns, rowsWrites),
    }));
    // Emptied: its first page holds none, and every page after it is emptied too (the group's
    // pages asked for only then: its first run stays while any member is in the group, so the
    // first page alone cannot tell).
    const first = rewritten.find(({ page }) => page.runs[0]!.start === null);
    if (first && sumCounts(first.runs) === 0) {
      const emptiedHere = new Set(rewritten.filter(({ runs }) => runs.length === 0).map(({ page }) => JSON.stringify(page.key)));
      const others = (await pagesStore.getAllKeys(prefixRange(key))).slice(1);
      if (others.every((other) => emptiedHere.has(JSON.stringify(other)))) {
        pagesWrites.delete(prefixRange(key));
        rowsWrites.delete(prefixRange(key));
        continue;
      }
    }
    for (const { page, runs } of rewritten) {
      // A page keyed by a run that left goes: its runs are put under their first's key.
      if (page.key !== null && (runs.length === 0 || compareStarts(runs[0]!.start, startOf(page.key)) !== 0))
        pagesWrites.delete(page.key);
      if (runs.length > 0) for (const piece of halvesOf(runs, PAGE_SPLIT)) pagesWrites.put(encodeRuns(key, piece));
    }
  }
}

/**
 * A page's runs after its runs' new rows (by run index), whose records are written: a run
 * past RUN_SPLIT members splits, one left empty goes (but the group's first, which any member
 * finds).
 */
function rewriteRuns(group: GroupKey, page: Page, rowsOfRuns: Map<number, TieRow[]>, rowsWrites: IDBObjectStore): RunBounds[] {
  const runs = [...page.runs];
  // Last run first, so that splicing one leaves the indexes of the others.
  for (const run of [...rowsOfRuns.keys()].sort((a, b) => b - a)) {
    const rows = rowsOfRuns.get(run)!;
    const start = runs[run]!.start;
    if (rows.length === 0 && start !== null) {
      runs.splice(run, 1);
      rowsWrites.delete(runKey(group, start));
      continue;
    }
    const pieces = halvesOf(rows, RUN_SPLIT);
    const bounds = pieces.map((piece, index) => ({ start: index === 0 ? start : rowTie(piece[0]!), count: piece.length }));
    runs.splice(run, 1, ...bounds);
    pieces.forEach((piece, index) => rowsWrites.put(encodeRows(runKey(group, bounds[index]!.start), piece)));
  }
  return runs;
}

/** Orders run starts as their keys sort: the group's own (null) first. */
const compareStarts = (a: Tie | null, b: Tie | null) => (a === null ? (b === null ? 0 : -1) : b === null ? 1 : compareTies(a, b));

/** The page holding `tie`: the last starting at or before it, of pages in board order, the first the group's own. */
function pageOf(pages: Page[], tie: Tie): Page {
  let found = pages[0]!;
  for (const page of pages) if (compareStarts(page.runs[0]!.start, tie) <= 0) found = page;
  return found;
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

/** Items cut in halves until no piece holds more than `most`: a run's rows, a page's runs. */
function halvesOf<T>(items: T[], most: number): T[][] {
  if (items.length <= most) return [items];
  const half = items.length >> 1;
  return [...halvesOf(items.slice(0, half), most), ...halvesOf(items.slice(half), most)];
}

/**
 * Lays out an app's boards afresh from its members: one read of the members and
 * a sort (the upgrade from boards kept before version 4, which had no seasons).
 */
export async function rebuildPositions(raw: Raw, app_id: string): Promise<void> {
  const appRange = prefixRange([app_id]);
  const [members] = await Promise.all([
    raw.objectStore('users').getAll(appRange),
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
    for (const page of layOutPages(group, runBounds)) writes.push(raw.objectStore('board_runs').put(page));
    start = end;
  }
  await Promise.all(writes);
}
