// The leaderboard: a page of one board in order, with ranks by the app's policy.
import type { LeaderboardType } from '../api/schemas.js';
import type { Leaderboard, LeaderboardEntry } from '../api/responses.js';
import {
  boardPage,
  countDistinctHigher,
  countHigher,
  countOnBoard,
  countUnrankedBefore,
  isRanked,
  positionOf,
  unrankedPage,
  type BoardRef,
  type AppRecord,
  type Transaction,
  type UserRecord,
} from '../store/index.js';
import { monthlyScore, weeklyScore } from './members.js';
import { findMember } from './membership.js';
import { monthOf, weekOf } from './periods.js';

export const DEFAULT_LIMIT = 100;

export interface BoardQuery {
  type: LeaderboardType;
  limit: number;
  offset: number;
  around?: string | undefined;
}

/** Period boards hold only members with points in the period; the rest follow with 0, by name. */
interface Board extends BoardRef {
  value: (user: UserRecord) => number;
}

function boardOf(type: LeaderboardType, app_id: string, now: number): Board {
  const period = type === 'weekly' ? weekOf(now) : type === 'monthly' ? monthOf(now) : null;
  const value =
    type === 'weekly'
      ? (user: UserRecord) => weeklyScore(user, now)
      : type === 'monthly'
        ? (user: UserRecord) => monthlyScore(user, now)
        : type === 'xp'
          ? (user: UserRecord) => user.xp
          : (user: UserRecord) => user.total_score;
  return { type, app_id, period, value };
}

export async function readLeaderboard(
  tx: Transaction,
  app: AppRecord,
  query: BoardQuery,
  now: number,
): Promise<Leaderboard> {
  const board = boardOf(query.type, app.app_id, now);
  const rankedCount = board.period === null ? app.member_count : await countOnBoard(tx, board);
  const offset =
    query.around === undefined
      ? query.offset
      : await windowAround(tx, app, board, rankedCount, query.around, query.limit);

  const members = offset < rankedCount ? await boardPage(tx, board, offset, query.limit) : [];
  if (members.length < query.limit && board.period !== null) {
    members.push(...(await unrankedPage(tx, board, Math.max(0, offset - rankedCount), query.limit - members.length)));
  }
  return {
    leaderboard_users: await rankEntries(tx, app, board, members, offset),
    total_users: app.member_count,
    message: null,
    is_valid: true,
  };
}

/** The offset of the window of `limit` members centred on one member. */
async function windowAround(
  tx: Transaction,
  app: AppRecord,
  board: Board,
  ranked: number,
  account_name: string,
  limit: number,
): Promise<number> {
  const user = await findMember(tx, app.app_id, account_name, 'around');
  let position: number;
  if (isRanked(board, user)) {
    position = await positionOf(tx, board, user);
  } else {
    // Members without points in the period follow the ranked ones, by name.
    position = ranked + (await countUnrankedBefore(tx, board, account_name));
  }
  const centred = position - Math.floor((limit - 1) / 2);
  return Math.max(0, Math.min(centred, app.member_count - limit));
}

async function rankEntries(
  tx: Transaction,
  app: AppRecord,
  board: Board,
  members: UserRecord[],
  offset: number,
): Promise<LeaderboardEntry[]> {
  const entries: LeaderboardEntry[] = [];
  let previous: number | undefined;
  let rank = 0;
  for (const [index, user] of members.entries()) {
    const value = board.value(user);
    const position = offset + index + 1;
    if (app.rank_policy === 'ordinal') rank = position;
    else if (previous === undefined) {
      // Only the first row of a page needs counting: the rest follow from it.
      rank =
        1 +
        (app.rank_policy === 'dense'
          ? await countDistinctHigher(tx, board, value)
          : await countHigher(tx, board, value));
    } else if (value !== previous) rank = app.rank_policy === 'dense' ? rank + 1 : position;
    previous = value;
    entries.push({
      rank,
      external_user: { username: user.account_name },
      challenge_count: user.challenges_completed,
      task_count: user.tasks_completed,
      score: board.type === 'weekly' || board.type === 'monthly' ? value : user.total_score,
      total_xp: user.xp,
    });
  }
  return entries;
}
