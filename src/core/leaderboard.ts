// The leaderboard: a page of one board in order, with ranks by the app's policy.
import type { LeaderboardType } from '../api/schemas.js';
import type { Leaderboard, LeaderboardEntry } from '../api/responses.js';
import {
  isRanked,
  windowStart,
  type AppRecord,
  type BoardRef,
  type Listed,
  type PageWindow,
  type Transaction,
} from '../store/index.js';
import { findMember } from './lookups.js';
import { monthOf, weekOf } from './periods.js';

export const DEFAULT_LIMIT = 100;

export interface BoardQuery {
  type: LeaderboardType;
  limit: number;
  offset: number;
  around?: string | undefined;
}

/** Period boards hold only members with points in the period; the rest follow with 0, by name. */
export function boardOf(type: LeaderboardType, app_id: string, now: number): BoardRef {
  const period = type === 'weekly' ? weekOf(now) : type === 'monthly' ? monthOf(now) : null;
  return { type, app_id, period };
}

export async function readLeaderboard(tx: Transaction, app: AppRecord, query: BoardQuery, now: number): Promise<Leaderboard> {
  const board = boardOf(query.type, app.app_id, now);
  // A page by offset is read beside a period board's count, not after it (a round trip less):
  // past the ranked members it is empty, and a period board's unranked tail follows.
  const [rankedCount, page] = await Promise.all([
    board.period === null ? app.member_count : tx.countOnBoard(board),
    query.around === undefined ? tx.boardPage(board, query.offset, query.limit) : ([] as Listed[]),
  ]);
  const { offset, members } =
    query.around === undefined
      ? { offset: query.offset, members: page }
      : await pageAround(tx, app, board, rankedCount, query.around, query.limit);
  if (members.length < query.limit && board.period !== null) {
    members.push(...(await tx.unrankedPage(board, Math.max(0, offset - rankedCount), query.limit - members.length)));
  }
  return {
    leaderboard_users: await rankEntries(tx, app, board, members, offset),
    total_users: app.member_count,
    message: null,
    is_valid: true,
  };
}

/** The page of `limit` members centred on one member, and its offset. */
async function pageAround(
  tx: Transaction,
  app: AppRecord,
  board: BoardRef,
  ranked: number,
  account_name: string,
  limit: number,
): Promise<{ offset: number; members: Listed[] }> {
  const user = await findMember(tx, app.app_id, account_name, 'around');
  const window: PageWindow = { lead: Math.floor((limit - 1) / 2), limit, lastStart: app.member_count - limit };
  if (isRanked(board, user)) return tx.pageAround(board, user, window);
  // Members without points in the period follow the ranked ones, by name.
  const offset = windowStart(ranked + (await tx.countUnrankedBefore(board, account_name)), window);
  return { offset, members: offset < ranked ? await tx.boardPage(board, offset, limit) : [] };
}

async function rankEntries(
  tx: Transaction,
  app: AppRecord,
  board: BoardRef,
  members: Listed[],
  offset: number,
): Promise<LeaderboardEntry[]> {
  const entries: LeaderboardEntry[] = [];
  let previous: number | undefined;
  let rank = 0;
  for (const [index, { row, value }] of members.entries()) {
    const position = offset + index + 1;
    if (app.rank_policy === 'ordinal') rank = position;
    else if (position === 1) rank = 1;
    else if (previous === undefined) {
      // Only the first row of a page needs counting: the rest follow from it.
      rank = 1 + (app.rank_policy === 'dense' ? await tx.countDistinctHigher(board, value) : await tx.countHigher(board, value));
    } else if (value !== previous) rank = app.rank_policy === 'dense' ? rank + 1 : position;
    previous = value;
    entries.push({
      rank,
      external_user: { username: row.account_name },
      challenge_count: row.challenges_completed,
      task_count: row.tasks_completed,
      score: board.period === null ? row.total_score : value,
      total_xp: row.xp,
    });
  }
  return entries;
}
