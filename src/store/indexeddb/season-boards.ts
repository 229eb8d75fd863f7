// Season boards: each member's points in a season is a record (season_points),
// and the season's board is laid out in runs like the other boards
// (board-positions.ts): its groups [app_id, 'season', season_id, negated
// points], each member's tie [at, account_name]. The transaction moves a
// member's row whenever it writes their points (transaction.ts), so a rank is a
// sum over a few records and a page a read of two to four, never a walk over
// the season's members.
import { seasonPlacement } from '../placements.js';
import { windowStart, type PageWindow } from '../port.js';
import type { SeasonPointsRecord, TieRow } from '../records.js';
import { countDistinctHigher, countHigher, positionOf, boardPage, type RunBoard } from './boards.js';
import type { RawTransaction } from './schema.js';

const seasonBoard = (app_id: string, season_id: string): RunBoard => ({ app_id, type: 'season', period: season_id });

export const countSeasonHigher = (tx: RawTransaction, app_id: string, season_id: string, points: number, distinct: boolean) =>
  (distinct ? countDistinctHigher : countHigher)(tx, seasonBoard(app_id, season_id), points);

/** The page around a season's member (Transaction.seasonPageAround): their position, then a page from it. */
export async function seasonPageAround(tx: RawTransaction, member: SeasonPointsRecord, window: PageWindow) {
  const { app_id, season_id } = member;
  const offset = windowStart(await positionOf(tx, seasonBoard(app_id, season_id), seasonPlacement(member)), window);
  return { offset, members: await seasonPage(tx, app_id, season_id, offset, window.limit) };
}

export async function seasonPage(
  tx: RawTransaction,
  app_id: string,
  season_id: string,
  offset: number,
  limit: number,
): Promise<SeasonPointsRecord[]> {
  const page = await boardPage<TieRow>(tx, seasonBoard(app_id, season_id), offset, limit);
  return page.map(({ row: { account_name, at }, value: points }) => ({ app_id, season_id, account_name, points, at }));
}
