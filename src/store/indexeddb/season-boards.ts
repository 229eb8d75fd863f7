// Season boards: each member's points in a season is a record (season_points),
// and the season's board is laid out in runs like the other boards
// (board-positions.ts): its groups [app_id, 'season', season_id, negated
// points], each member's row their tie [at, account_name] and what the board
// shows of them (SeasonRow). The transaction moves a member's row whenever it
// writes their points, and rewrites it whenever it changes what the board shows
// of them (transaction.ts), so a rank is a sum over a few records and a page a
// read of two to four, never a walk over the season's members nor a read of
// each one's record.
import { seasonPlacement, seasonShown } from '../placements.js';
import { windowStart, type PageWindow, type SeasonListed } from '../port.js';
import type { SeasonPointsRecord, SeasonRow, SeasonShown } from '../records.js';
import { countDistinctHigher, countHigher, positionOf, boardPage, type RunBoard } from './boards.js';
import type { RawTransaction } from './schema.js';

const seasonBoard = (app_id: string, season_id: string): RunBoard => ({ app_id, type: 'season', period: season_id });

export const countSeasonHigher = (tx: RawTransaction, app_id: string, season_id: string, points: number, distinct: boolean) =>
  (distinct ? countDistinctHigher : countHigher)(tx, seasonBoard(app_id, season_id), points);

/** The page around a season's member (Transaction.seasonPageAround): their position, then a page from it. */
export async function seasonPageAround(tx: RawTransaction, member: SeasonPointsRecord, window: PageWindow) {
  const { app_id, season_id } = member;
  const offset = windowStart(await positionOf(tx, seasonBoard(app_id, season_id), seasonPlacement(member)), window);
  return { offset, members: await seasonBoardPage(tx, app_id, season_id, offset, window.limit) };
}

/** The season's members from position `offset`, as the board keeps them: their rows and points. */
async function seasonRows(tx: RawTransaction, app_id: string, season_id: string, offset: number, limit: number) {
  return boardPage<SeasonRow>(tx, seasonBoard(app_id, season_id), offset, limit);
}

export async function seasonPage(
  tx: RawTransaction,
  app_id: string,
  season_id: string,
  offset: number,
  limit: number,
): Promise<SeasonPointsRecord[]> {
  const page = await seasonRows(tx, app_id, season_id, offset, limit);
  return page.map(({ row: { account_name, at }, value: points }) => ({ app_id, season_id, account_name, points, at }));
}

/**
 * The page as the board lists it, what it shows of each member read from their row. Rows laid
 * out at version 13 hold ties alone until their member's next write: those members' own records
 * are read.
 */
export async function seasonBoardPage(
  tx: RawTransaction,
  app_id: string,
  season_id: string,
  offset: number,
  limit: number,
): Promise<SeasonListed[]> {
  const page = await seasonRows(tx, app_id, season_id, offset, limit);
  return Promise.all(
    page.map(async ({ row, value: points }) => {
      const { account_name, at } = row;
      const kept = row.xp === undefined ? await tx.objectStore('users').get([app_id, account_name]) : (row as SeasonShown);
      return { member: { app_id, season_id, account_name, points, at }, shown: seasonShown(kept) };
    }),
  );
}
