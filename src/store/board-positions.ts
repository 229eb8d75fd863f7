// Keeps each board countable without walking it. Walking IndexedDB costs about
// 10 µs a row here (count() and advance() alike), and each record read a few,
// so positions are sums: board_counts holds the members of each value group,
// and board_slots holds, in one record per group, the group cut into runs of at
// most SLOT_SPLIT members in board order. A position is then a sum over a few
// records plus a walk inside one run.
import type { IDBPIndex, IDBPObjectStore, IDBPTransaction, IndexNames } from 'idb';
import type { QuestboardSchema, StoreName } from './schema.js';
import {
  comparePlacements,
  indexKey,
  ORDERING_INDEX,
  placements,
  tieAt,
  type GroupKey,
  type Ordering,
  type Placement,
  type Tie,
} from './placements.js';
import { BOARD_INDEX, type BoardKey, type Slot, type SlotRecord } from './records.js';

/** A run past this many members splits in two. */
const SLOT_SPLIT = 96;
/** Runs are rebuilt with this many members, leaving room to grow. */
const SLOT_FILL = 48;
/** Sorts after every number and string, so it closes a range. */
export const AFTER_ALL: [] = [];

type Raw = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite' | 'versionchange'>;

const groupText = (group: GroupKey) => JSON.stringify(group);
/** Closes the range of one group where its ordering is kept. */
export const groupIndexEnd = (group: GroupKey): BoardKey => [...indexKey(group, []), AFTER_ALL];

type Mode = 'readonly' | 'readwrite' | 'versionchange';
type Users<M extends Mode> = IDBPObjectStore<QuestboardSchema, StoreName[], 'users', M>;
type UsersIndex<M extends Mode> = IDBPIndex<QuestboardSchema, StoreName[], 'users', IndexNames<QuestboardSchema, 'users'>, M>;

/** The users store, or the index of it, that keeps an ordering's members in order. */
export function orderingSource<M extends Mode>(users: Users<M>, ordering: Ordering): Users<M> | UsersIndex<M> {
  if (ordering in BOARD_INDEX) return users.index(BOARD_INDEX[ordering as keyof typeof BOARD_INDEX]);
  const index = ORDERING_INDEX[ordering as keyof typeof ORDERING_INDEX];
  return index === null ? users : users.index(index);
}

function compareTies([at, name]: Tie, [otherAt, otherName]: Tie): number {
  if (at !== otherAt) return at < otherAt ? -1 : 1;
  return name === otherName ? 0 : name < otherName ? -1 : 1;
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

/** Moves members between groups and runs: the users must already be written. */
export async function movePlacements(raw: Raw, removed: Placement[], added: Placement[]): Promise<void> {
  const emptied = await updateGroupCounts(raw, removed, added);
  const moves = [
    ...removed.filter((placement) => !emptied.has(groupText(placement.group))).map((placement) => ({ placement, delta: -1 })),
    ...added.map((placement) => ({ placement, delta: 1 })),
  ];
  const store = raw.objectStore('board_slots');
  const records = new Map<string, SlotRecord>();
  await Promise.all(
    [...new Set(moves.map(({ placement }) => groupText(placement.group)))].map(async (text) => {
      const key = JSON.parse(text) as GroupKey;
      // A group's first run starts at the group itself (start null), so any member finds one.
      records.set(text, (await store.get(key)) ?? { key, slots: [{ start: null, count: 0 }] });
    }),
  );
  // Every move finds its run among the runs as they were before this write.
  for (const { placement, delta } of moves) {
    const { slots } = records.get(groupText(placement.group))!;
    slots[slotOf(slots, placement.tie)]!.count += delta;
  }
  for (const record of records.values()) {
    record.slots = record.slots.filter((slot, index) => index === 0 || slot.count > 0);
    for (let index = 0; index < record.slots.length; index++) {
      while (record.slots[index]!.count > SLOT_SPLIT) record.slots.splice(index, 1, ...(await split(raw, record.key, record.slots[index]!)));
    }
  }
  await Promise.all([
    ...[...emptied].map((text) => store.delete(JSON.parse(text) as GroupKey)),
    ...[...records.values()].map((record) => store.put(record)),
  ]);
}

/** Returns the groups left empty. */
async function updateGroupCounts(raw: Raw, removed: Placement[], added: Placement[]): Promise<Set<string>> {
  const deltas = new Map<string, number>();
  for (const { group } of removed) deltas.set(groupText(group), (deltas.get(groupText(group)) ?? 0) - 1);
  for (const { group } of added) deltas.set(groupText(group), (deltas.get(groupText(group)) ?? 0) + 1);
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

/** Cuts a run in two at its middle member, found by walking half of it. */
async function split(raw: Raw, group: GroupKey, slot: Slot): Promise<[Slot, Slot]> {
  const source = orderingSource(raw.objectStore('users'), group[1]);
  const half = Math.floor(slot.count / 2);
  let cursor = await source.openKeyCursor(IDBKeyRange.bound(indexKey(group, slot.start ?? []), groupIndexEnd(group)));
  if (cursor) cursor = await cursor.advance(half);
  if (!cursor) throw new Error(`A run of ${JSON.stringify(group)} holds fewer members than it counts.`);
  const start = tieAt(group[1], cursor.key as BoardKey);
  return [
    { start: slot.start, count: half },
    { start, count: slot.count - half },
  ];
}

/**
 * Counts an app's boards afresh from its members: one read of the members and
 * a sort, cheaper than moving thousands of members one by one (imports, upgrades).
 */
export async function rebuildPositions(raw: Raw, app_id: string): Promise<void> {
  const appRange = IDBKeyRange.bound([app_id], [app_id, AFTER_ALL]);
  const counts = raw.objectStore('board_counts');
  const runs = raw.objectStore('board_slots');
  const [members] = await Promise.all([
    raw.objectStore('users').getAll(appRange),
    counts.delete(appRange),
    runs.delete(appRange),
  ]);
  const all = members.flatMap(placements).sort(comparePlacements);
  const writes: Promise<unknown>[] = [];
  let start = 0;
  while (start < all.length) {
    const group = all[start]!.group;
    const text = groupText(group);
    let end = start;
    while (end < all.length && groupText(all[end]!.group) === text) end++;
    const slots: Slot[] = [];
    for (let from = start; from < end; from += SLOT_FILL) {
      slots.push({ start: from === start ? null : all[from]!.tie, count: Math.min(SLOT_FILL, end - from) });
    }
    writes.push(counts.put({ key: group, count: end - start }), runs.put({ key: group, slots }));
    start = end;
  }
  await Promise.all(writes);
}
