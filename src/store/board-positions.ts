// Keeps each board readable in pages and countable without walking it.
// Reading IndexedDB costs about 11 µs a record here, so members are not read
// one record each: every value group is cut into runs of at most SLOT_SPLIT
// members in board order, and each run is one record holding its members'
// rows (board_rows). board_counts holds the members of each group, and
// board_runs, one record per group, each run's start and size. A position is
// then a sum over a few records plus a search inside one run, and a page of a
// hundred members is a read of two to four records.
import type { IDBPTransaction } from 'idb';
import { prefixRange } from './key-ranges.js';
import type { QuestboardSchema, StoreName } from './schema.js';
import { comparePlacements, compareTies, placements, rowOf, rowTie, runKey, type Placement } from './placements.js';
import type { BoardRow, GroupKey, RowsRecord, RunsRecord, Slot, Tie } from './records.js';

/** A run past this many members splits in two. */
const SLOT_SPLIT = 96;
/** Runs are rebuilt with this many members, leaving room to grow. */
export const SLOT_FILL = 48;

type Raw = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite' | 'versionchange'>;

const groupText = (group: GroupKey) => JSON.stringify(group);

export function decodeRuns(record: RunsRecord | undefined): Slot[] {
  if (!record) return [];
  const names = JSON.parse(record.starts_name) as string[];
  return Array.from(record.counts, (count, index) => ({
    start: index === 0 ? null : [record.starts_at[index]!, names[index]!],
    count,
  }));
}

function encodeRuns(key: GroupKey, slots: Slot[]): RunsRecord {
  return {
    key,
    counts: Uint16Array.from(slots, (slot) => slot.count),
    starts_at: Float64Array.from(slots, (slot) => slot.start?.[0] ?? 0),
    starts_name: JSON.stringify(slots.map((slot) => slot.start?.[1] ?? '')),
  };
}

/** The index of the run holding `tie`: the last one starting at or before it. */
export function slotOf(slots: Slot[], tie: Tie): number {
  let low = 0;
  let high = slots.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (compareTies(slots[middle]!.start!, tie) <= 0) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** How many rows of a run sort before `tie`. */
export function rowsBefore(rows: BoardRow[], tie: Tie): number {
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
  row: BoardRow | null;
  delta: -1 | 0 | 1;
}

interface GroupInWrite {
  key: GroupKey;
  slots: Slot[];
  /** The rows of each run this write touches, by run index. */
  runs: Map<number, BoardRow[]>;
}

/** Applies members' changes to the runs, counts and groups: the users must already be written. */
export async function moveRows(raw: Raw, changes: RowChange[]): Promise<void> {
  const resized = new Set(changes.filter(({ delta }) => delta !== 0).map(({ placement }) => groupText(placement.group)));
  const inPlace = changes.filter(({ placement }) => !resized.has(groupText(placement.group)));
  const moving = changes.filter(({ placement }) => resized.has(groupText(placement.group)));
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
  const runs = new Map<string, RowsRecord>();
  for (const { change, record } of located) {
    const text = JSON.stringify(record.key);
    if (!runs.has(text)) runs.set(text, record);
    applyChange(runs.get(text)!.rows, change);
  }
  await Promise.all([...runs.values()].map((record) => rowsStore.put(record)));
}

async function resizeGroups(raw: Raw, changes: RowChange[]): Promise<void> {
  if (changes.length === 0) return;
  const emptied = await updateGroupCounts(raw, changes);
  const live = changes.filter((change) => !emptied.has(groupText(change.placement.group)));
  const runsStore = raw.objectStore('board_runs');
  const rowsStore = raw.objectStore('board_rows');

  const groups = new Map<string, GroupInWrite>();
  await Promise.all(
    [...new Set(live.map((change) => groupText(change.placement.group)))].map(async (text) => {
      const key = JSON.parse(text) as GroupKey;
      const slots = decodeRuns(await runsStore.get(key));
      // A group's first run starts at the group itself (start null), so any member finds one.
      groups.set(text, { key, slots: slots.length > 0 ? slots : [{ start: null, count: 0 }], runs: new Map() });
    }),
  );
  // Every change finds its run among the runs as they were before this write.
  const located = live.map((change) => {
    const group = groups.get(groupText(change.placement.group))!;
    return { change, group, run: slotOf(group.slots, change.placement.tie) };
  });
  const touched = new Map(located.map(({ group, run }) => [`${groupText(group.key)} ${run}`, { group, run }]));
  await Promise.all(
    [...touched.values()].map(async ({ group, run }) => {
      group.runs.set(run, (await rowsStore.get(runKey(group.key, group.slots[run]!.start)))?.rows ?? []);
    }),
  );
  // Leaving first, so that a member who moves inside one group is never found twice.
  located.sort((a, b) => (a.change.row === null ? 0 : 1) - (b.change.row === null ? 0 : 1));
  for (const { change, group, run } of located) applyChange(group.runs.get(run)!, change);

  const writes: Promise<unknown>[] = [];
  for (const group of groups.values()) {
    // Last run first, so that splicing one leaves the indexes of the others.
    for (const run of [...group.runs.keys()].sort((a, b) => b - a)) {
      const rows = group.runs.get(run)!;
      const start = group.slots[run]!.start;
      if (rows.length === 0 && run > 0) {
        group.slots.splice(run, 1);
        writes.push(rowsStore.delete(runKey(group.key, start)));
        continue;
      }
      const pieces = halves(rows);
      const slots = pieces.map((piece, index) => ({ start: index === 0 ? start : rowTie(piece[0]!), count: piece.length }));
      group.slots.splice(run, 1, ...slots);
      pieces.forEach((piece, index) => writes.push(rowsStore.put({ key: runKey(group.key, slots[index]!.start), rows: piece })));
    }
    writes.push(runsStore.put(encodeRuns(group.key, group.slots)));
  }
  for (const text of emptied) {
    const key = JSON.parse(text) as GroupKey;
    writes.push(runsStore.delete(key), rowsStore.delete(prefixRange(key)));
  }
  await Promise.all(writes);
}

function applyChange(rows: BoardRow[], { placement: { tie }, row, delta }: RowChange): void {
  if (delta === 1) {
    rows.splice(rowsBefore(rows, tie), 0, { ...row!, at: tie[0] });
    return;
  }
  const at = rowsBefore(rows, tie);
  if (rows[at]?.account_name !== tie[1]) throw new Error(`The board has no row for ${JSON.stringify(tie)}.`);
  if (row === null) rows.splice(at, 1);
  else rows[at] = { ...row, at: tie[0] };
}

/** A run cut in halves until none holds more than SLOT_SPLIT members. */
function halves(rows: BoardRow[]): BoardRow[][] {
  if (rows.length <= SLOT_SPLIT) return [rows];
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
 * Lays out an app's boards afresh from its members: one read of the members
 * and a sort, cheaper than moving thousands of members one by one (imports, upgrades).
 */
export async function rebuildPositions(raw: Raw, app_id: string): Promise<void> {
  const appRange = prefixRange([app_id]);
  const counts = raw.objectStore('board_counts');
  const runs = raw.objectStore('board_runs');
  const rows = raw.objectStore('board_rows');
  const [members] = await Promise.all([
    raw.objectStore('users').getAll(appRange),
    counts.delete(appRange),
    runs.delete(appRange),
    rows.delete(appRange),
  ]);
  const all = members
    .flatMap((user) => {
      const row = rowOf(user);
      return placements(user).map((placement) => ({ ...placement, row: { ...row, at: placement.tie[0] } }));
    })
    .sort(comparePlacements);
  const writes: Promise<unknown>[] = [];
  let start = 0;
  while (start < all.length) {
    const group = all[start]!.group;
    const text = groupText(group);
    let end = start;
    while (end < all.length && groupText(all[end]!.group) === text) end++;
    const slots: Slot[] = [];
    for (let from = start; from < end; from += SLOT_FILL) {
      const slot: Slot = { start: from === start ? null : all[from]!.tie, count: Math.min(SLOT_FILL, end - from) };
      slots.push(slot);
      const members = all.slice(from, from + slot.count).map((placement) => placement.row);
      writes.push(rows.put({ key: runKey(group, slot.start), rows: members }));
    }
    writes.push(counts.put({ key: group, count: end - start }), runs.put(encodeRuns(group, slots)));
    start = end;
  }
  await Promise.all(writes);
}
