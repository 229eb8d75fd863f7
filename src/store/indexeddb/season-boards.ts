// Season boards: each member's points in a season is a record (season_points) that carries its
// points negated, so that the store's index lists a season's members in board order (the most
// points first, then the earlier to reach them, then by name). Counts and pages are the index's
// own count and advance: IndexedDB's work, never a read of the members in script.
import { negated } from '../placements.js';
import type { SeasonPointsRecord } from '../records.js';
import { prefixRange } from './key-ranges.js';
import type { RawTransaction } from './schema.js';

/** The record as stored: with its points negated for the index (schema.ts, by_order). */
export type StoredSeasonPoints = SeasonPointsRecord & { order: number };

export const storedSeasonPoints = (record: SeasonPointsRecord): StoredSeasonPoints => ({
  ...record,
  order: negated(record.points),
});

const byOrder = (tx: RawTransaction) => tx.objectStore('season_points').index('by_order');

export async function countSeasonHigher(
  tx: RawTransaction,
  app_id: string,
  season_id: string,
  points: number,
  distinct: boolean,
): Promise<number> {
  const above = IDBKeyRange.bound([app_id, season_id], [app_id, season_id, negated(points)], false, true);
  if (!distinct) return byOrder(tx).count(above);
  // One step per value above, each skipping its members: [] sorts after every time and name.
  let values = 0;
  for (let cursor = await byOrder(tx).openKeyCursor(above); cursor; values++) {
    cursor = await cursor.continue([app_id, season_id, cursor.key[2], []] as never);
  }
  return values;
}

export const seasonPosition = (tx: RawTransaction, { app_id, season_id, points, at, account_name }: SeasonPointsRecord) =>
  byOrder(tx).count(IDBKeyRange.bound([app_id, season_id], [app_id, season_id, negated(points), at, account_name], false, true));

export async function seasonPage(
  tx: RawTransaction,
  app_id: string,
  season_id: string,
  offset: number,
  limit: number,
): Promise<SeasonPointsRecord[]> {
  const page: SeasonPointsRecord[] = [];
  let cursor = await byOrder(tx).openCursor(prefixRange([app_id, season_id]));
  if (cursor && offset > 0) cursor = await cursor.advance(offset);
  // As stored, its `order` with it: the rules read the record's own fields.
  for (; cursor && page.length < limit; cursor = await cursor.continue()) page.push(cursor.value);
  return page;
}
