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
import { GENERATION_KEY, keepOnCommit, keptBoards, newGeneration, type BoardsPages, type PagesByGroup } from './kept-boards.js';

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

type Raw = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite' | 'versionchange'>;
type AnyTransaction = IDBPTransaction<QuestboardSchema, StoreName[], IDBTransactionMode>;

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
/** The board a group is of, as JSON: its first three parts. */
const boardText = (group: GroupKey) => JSON.stringify(group.slice(0, 3));

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
  for (const record of records) for (const run of pageRuns(record)) runBounds.push(run);
  return runBounds;
}

/** Pages decoded, by record: a kept page (kept-boards.ts), never changed, is decoded once, not by every request that reads it. */
const decodedPages = new WeakMap<RunsRecord, RunBounds[]>();

/** A page's runs (decodeRuns), decoded once a record. */
function pageRuns(record: RunsRecord): RunBounds[] {
  let runs = decodedPages.get(record);
  if (!runs) decodedPages.set(record, (runs = decodeRuns(record)));
  return runs;
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
 * Applies members' changes to the runs and their pages. Each touched run takes all its changes in
 * one merge, so a write of thousands of members (a merge import's chunk) costs in proportion to
 * the members and runs it touches, never to the size of the board. Resolves once every write is
 * asked for: their answers are not waited for one by one, as one that fails aborts the transaction.
 *
 * The boards' pages are those this connection keeps (kept-boards.ts) when the boards generation,
 * read in the same round, is the one they were kept at: then that round reads the changed runs
 * alone, each by the key its page gives. Else a board's pages are read whole first, and kept once
 * this commits.
 */
export async function moveRows(raw: Raw, changes: RowChange[]): Promise<void> {
  if (changes.length === 0) return;
  const writing = unwrap(raw);
  const kept = keptBoards(writing.db);
  let [seen, { boards, groups }] = await Promise.all([generationOf(raw), readGroups(raw, changes, kept?.boards)]);
  // Another connection wrote pages since these were kept: what was read by them is read again.
  if (kept && seen !== kept.generation) ({ boards, groups } = await readGroups(raw, changes));
  let wrotePages = false;
  const grown = new Set<string>();
  for (const group of groups) {
    const board = boardText(group.key);
    const pages = boards.get(board)!;
    const after = resizeGroup(writing, group);
    if (after === group.pages) continue;
    wrotePages = true;
    if (after.length === 0) pages.delete(groupText(group.key));
    else {
      if (group.pages.length === 0) grown.add(board);
      pages.set(groupText(group.key), after);
    }
  }
  // A board's groups are listed in board order, as read (boards.ts counts them so): a new one is put in its place.
  for (const board of grown)
    boards.set(board, new Map([...boards.get(board)!].sort(([, a], [, b]) => groupValue(a) - groupValue(b))));
  keepOnCommit(writing, seen, wrotePages ? newBoardsGeneration(raw) : seen, boards);
}

/** The negated value of the group whose pages these are: board order is ascending in it. */
const groupValue = (pages: RunsRecord[]) => pages[0]!.key[3] as number;

/** A group changed: its pages, whole, in key order, and the rows of the runs its changes fall in, by run key as JSON. */
interface GroupRead {
  key: GroupKey;
  pages: RunsRecord[];
  changes: RowChange[];
  rows: Map<string, TieRow[]>;
}

/**
 * Reads the groups changed: their boards' pages, whole (`known`, or read in one request a board),
 * then the run each change falls in, by the key its page gives. Returns the boards' pages by
 * group, a copy of those known for the write to change.
 */
async function readGroups(raw: Raw, changes: RowChange[], known?: BoardsPages) {
  const boards: BoardsPages = new Map();
  const reads: Promise<void>[] = [];
  for (const { placement } of changes) {
    const board = boardText(placement.group);
    if (boards.has(board)) continue;
    const pages = new Map(known?.get(board));
    boards.set(board, pages);
    if (!known?.has(board)) reads.push(readBoard(raw, placement.group.slice(0, 3) as string[], pages));
  }
  await Promise.all(reads);
  const groups = [...groupBy(changes, (change) => groupText(change.placement.group))].map(([text, changes]): GroupRead => {
    const key = changes[0]!.placement.group;
    return { key, pages: boards.get(boardText(key))!.get(text) ?? [], changes, rows: new Map<string, TieRow[]>() };
  });
  const runs = new Map<string, [RunKey, GroupRead]>();
  for (const group of groups)
    for (const { placement } of group.changes) {
      const runAt = runKeyIn(group, placement.tie);
      runs.set(JSON.stringify(runAt), [runAt, group]);
    }
  await Promise.all(
    [...runs].map(async ([text, [runAt, group]]) =>
      group.rows.set(text, decodeRows(await raw.objectStore('board_rows').get(runAt))),
    ),
  );
  return { boards, groups };
}

/** The boards generation of each transaction, read once, and as it writes one. */
const generations = new WeakMap<IDBTransaction, Promise<unknown>>();

function generationOf(tx: AnyTransaction): Promise<unknown> {
  let generation = generations.get(unwrap(tx));
  if (!generation) generations.set(unwrap(tx), (generation = tx.objectStore('meta').get(GENERATION_KEY)));
  return generation;
}

/** Writes a new boards generation in `tx`: pages kept in any context are read again. */
export function newBoardsGeneration(tx: AnyTransaction): unknown {
  const writing = unwrap(tx);
  const generation = newGeneration();
  writing.objectStore('meta').put(generation, GENERATION_KEY);
  generations.set(writing, Promise.resolve(generation));
  return generation;
}

/**
 * A board's pages by group, for a read: those its connection keeps (kept-boards.ts) while the
 * boards generation is the one they were kept at, else read whole, and kept once the
 * transaction ends. A season's board at 100,000 members is some 230 pages: a read of them
 * whole took 4.4 ms, of the generation 0.6–1 ms.
 */
export async function boardPagesOf(tx: AnyTransaction, prefix: string[]): Promise<PagesByGroup> {
  const board = JSON.stringify(prefix);
  const kept = keptBoards(unwrap(tx).db);
  const keptPages = kept?.boards.get(board);
  if (kept && keptPages && (await generationOf(tx)) === kept.generation) return keptPages;
  const pages: PagesByGroup = new Map();
  const [seen] = await Promise.all([generationOf(tx), readBoard(tx, prefix, pages)]);
  keepOnCommit(unwrap(tx), seen, seen, new Map([[board, pages]]));
  return pages;
}

/** A board's pages, read whole into `pages` by group, each group's in key order. */
async function readBoard(raw: AnyTransaction, prefix: string[], pages: PagesByGroup): Promise<void> {
  for (const page of await raw.objectStore('board_runs').getAll(prefixRange(prefix))) {
    const text = groupText(page.key.slice(0, 4) as GroupKey);
    const group = pages.get(text);
    if (group) group.push(page);
    else pages.set(text, [page]);
  }
}

/** The index of the page holding `tie`, of a group's pages in key order: the last starting at or before it (-1: none). */
function pageIndexOf(pages: RunsRecord[], tie: Tie): number {
  let found = pages.length === 0 ? -1 : 0;
  for (let index = 1; index < pages.length; index++) if (compareTies(startOf(pages[index]!.key)!, tie) <= 0) found = index;
  return found;
}

/** A page of a group's runs as read (key null: a group without members has none), and as the changes leave it. */
interface Page {
  key: RunKey | null;
  runs: RunBounds[];
}

/** The page at `index` of a group's pages, decoded; a group without pages has its first run at the group itself. */
function pageAt({ pages }: { pages: RunsRecord[] }, index: number): Page {
  if (index < 0) return { key: null, runs: [{ start: null, count: 0 }] };
  return { key: pages[index]!.key, runs: pageRuns(pages[index]!) };
}

/** The key of the run of `group` holding `tie`. */
function runKeyIn(group: { key: GroupKey; pages: RunsRecord[] }, tie: Tie): RunKey {
  const { runs } = pageAt(group, pageIndexOf(group.pages, tie));
  return runKey(group.key, runs[runIndexOf(runs, tie)]!.start);
}

/**
 * Writes a group's changed runs, and its pages whose runs changed; returns its pages after them,
 * in key order (the very list read when none changed: rows that change in place leave them). A
 * group its last member leaves goes whole.
 */
function resizeGroup(writing: IDBTransaction, group: GroupRead): RunsRecord[] {
  const { key, pages, changes, rows } = group;
  const pagesWrites = writing.objectStore('board_runs');
  const rowsWrites = writing.objectStore('board_rows');
  const rewritten = new Map<number, RunsRecord[]>();
  for (const [index, inPage] of groupBy(changes, (change) => pageIndexOf(pages, change.placement.tie))) {
    const page = pageAt(group, index);
    const rowsOfRuns = new Map<number, TieRow[]>();
    for (const [run, inRun] of groupBy(inPage, (change) => runIndexOf(page.runs, change.placement.tie)))
      rowsOfRuns.set(run, applyChanges(rows.get(JSON.stringify(runKey(key, page.runs[run]!.start)))!, inRun));
    const runsAfter = rewriteRuns(key, page, rowsOfRuns, rowsWrites);
    if (sameRuns(page.runs, runsAfter)) continue;
    // A page keyed by a run that left goes: its runs are put under their first's key.
    if (page.key !== null && (runsAfter.length === 0 || compareStarts(runsAfter[0]!.start, startOf(page.key)) !== 0))
      pagesWrites.delete(page.key);
    rewritten.set(index, runsAfter.length === 0 ? [] : halvesOf(runsAfter, PAGE_SPLIT).map((piece) => encodeRuns(key, piece)));
  }
  if (rewritten.size === 0) return pages;
  const after = pages.length === 0 ? rewritten.get(-1)! : pages.flatMap((page, index) => rewritten.get(index) ?? [page]);
  // Emptied: its pages and runs go whole (the group's first run stays while any member is in it).
  if (after.every((page) => pageCount(page) === 0)) {
    pagesWrites.delete(prefixRange(key));
    rowsWrites.delete(prefixRange(key));
    return [];
  }
  for (const pieces of rewritten.values()) for (const piece of pieces) pagesWrites.put(piece);
  return after;
}

/** Whether a page's runs are as they were: the same starts and sizes. */
const sameRuns = (before: RunBounds[], after: RunBounds[]) =>
  before.length === after.length &&
  before.every((run, index) => run.start === after[index]!.start && run.count === after[index]!.count);

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
