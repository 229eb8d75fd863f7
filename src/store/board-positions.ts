// Keeps each board countable without walking it. Walking IndexedDB costs about
// 10 µs a row here (count() and advance() alike), so positions are sums:
// board_counts holds the members of each value group, and board_slots splits
// each group into runs of at most SLOT_SPLIT members in board order. A position
// is then a sum over a few dozen small records plus a walk inside one slot.
import type { IDBPTransaction } from 'idb';
import type { QuestboardSchema, StoreName } from './schema.js';
import { comparePlacements, indexKey, placements, type GroupKey, type Placement, type Tie } from './placements.js';
import { BOARD_INDEX, type BoardKey, type SlotRecord } from './records.js';

/** A slot past this many members splits in two. */
const SLOT_SPLIT = 128;
/** Slots are rebuilt with this many members, leaving room to grow. */
const SLOT_FILL = 64;
/** Sorts after every number and string, so it closes a range. */
export const AFTER_ALL: [] = [];

type Raw = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite' | 'versionchange'>;

const groupText = (group: GroupKey) => JSON.stringify(group);
/** Closes the range of one group in a board index. */
export const groupIndexEnd = (group: GroupKey): BoardKey => [...indexKey(group, []), AFTER_ALL];
const inGroup = (group: GroupKey) => IDBKeyRange.bound(group, [...group, AFTER_ALL]);

/** Moves members between groups and slots: the users must already be written. */
export async function movePlacements(raw: Raw, removed: Placement[], added: Placement[]): Promise<void> {
  const emptied = await updateGroupCounts(raw, removed, added);
  const slots = raw.objectStore('board_slots');

  // Find every slot first, against the slots as they were before this write.
  const changes = new Map<string, { record: SlotRecord; delta: number }>();
  const moves = [
    ...removed.filter((placement) => !emptied.has(groupText(placement.group))).map((placement) => ({ placement, delta: -1 })),
    ...added.map((placement) => ({ placement, delta: 1 })),
  ];
  const found = await Promise.all(
    moves.map(({ placement }) =>
      slots.openCursor(IDBKeyRange.bound(placement.group, [...placement.group, ...placement.tie]), 'prev'),
    ),
  );
  moves.forEach(({ placement, delta }, index) => {
    // A group's first slot starts at the group itself, so any member finds one.
    const record = found[index]?.value ?? { key: [...placement.group], count: 0 };
    const text = JSON.stringify(record.key);
    const change = changes.get(text) ?? { record, delta: 0 };
    change.delta += delta;
    changes.set(text, change);
  });

  const overfull: SlotRecord[] = [];
  await Promise.all([
    ...[...emptied].map((text) => slots.delete(inGroup(JSON.parse(text) as GroupKey))),
    ...[...changes.values()].map(({ record, delta }) => {
      const updated = { key: record.key, count: record.count + delta };
      if (updated.count > SLOT_SPLIT) overfull.push(updated);
      // An empty slot goes, but the group's first stays: it anchors the group.
      const isFirst = record.key.length === 4;
      return updated.count > 0 || isFirst ? slots.put(updated) : slots.delete(record.key);
    }),
  ]);
  for (const slot of overfull) await split(raw, slot);
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

/** Splits a slot at its middle member, found by walking half of it. */
async function split(raw: Raw, slot: SlotRecord): Promise<void> {
  const group = slot.key.slice(0, 4) as GroupKey;
  const start = slot.key.slice(4) as Tie | [];
  const index = raw.objectStore('users').index(BOARD_INDEX[group[1]]);
  const half = Math.floor(slot.count / 2);
  let cursor = await index.openKeyCursor(IDBKeyRange.bound(indexKey(group, start), groupIndexEnd(group)));
  if (cursor) cursor = await cursor.advance(half);
  if (!cursor) throw new Error(`Board slot ${JSON.stringify(slot.key)} holds fewer members than it counts.`);
  const tie = (cursor.key as BoardKey).slice(-2) as Tie;
  const first = { key: slot.key, count: half };
  const second = { key: [...group, ...tie], count: slot.count - half };
  const slots = raw.objectStore('board_slots');
  await Promise.all([slots.put(first), slots.put(second)]);
  for (const part of [first, second]) if (part.count > SLOT_SPLIT) await split(raw, part);
}

/**
 * Counts an app's boards afresh from its members: one read of the members and
 * a sort, cheaper than moving thousands of members one by one (imports, upgrades).
 */
export async function rebuildPositions(raw: Raw, app_id: string): Promise<void> {
  const appRange = IDBKeyRange.bound([app_id], [app_id, AFTER_ALL]);
  const counts = raw.objectStore('board_counts');
  const slots = raw.objectStore('board_slots');
  const [members] = await Promise.all([
    raw.objectStore('users').getAll(appRange),
    counts.delete(appRange),
    slots.delete(appRange),
  ]);
  const all = members.flatMap(placements).sort(comparePlacements);
  const writes: Promise<unknown>[] = [];
  let start = 0;
  while (start < all.length) {
    const group = all[start]!.group;
    const text = groupText(group);
    let end = start;
    while (end < all.length && groupText(all[end]!.group) === text) end++;
    writes.push(counts.put({ key: group, count: end - start }));
    for (let from = start; from < end; from += SLOT_FILL) {
      const key = from === start ? [...group] : [...group, ...all[from]!.tie];
      writes.push(slots.put({ key, count: Math.min(SLOT_FILL, end - from) }));
    }
    start = end;
  }
  await Promise.all(writes);
}
