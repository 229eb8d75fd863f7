// Seasons: an app's boards of the points earned in a window of time, [starts_at, ends_at),
// frozen and kept once the window has closed. A season and its members' points are kept as
// meta records (no record kind of their own), read and written in the request's transaction.
import { SEASON_NOT_FOUND } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { Leaderboard, LeaderboardEntry } from '../api/responses.js';
import type { AppRecord, Transaction } from '../store/index.js';
import { awardBadge } from './badges.js';
import type { BoardQuery } from './leaderboard.js';

export interface SeasonReward {
  from_rank: number;
  to_rank: number;
  badge_id: string;
}

export interface Season {
  season_id: string;
  name: string;
  /** Epoch ms: points earned at or after it count. */
  starts_at: number;
  /** Epoch ms: points earned at or after it do not. */
  ends_at: number;
  rewards: SeasonReward[];
  /** When the first write after its end froze its board (epoch ms); null while it may change. */
  frozen_at: number | null;
}

/** A member's points in a season, and when the last of them came (the earlier ranks first on a tie). */
export type SeasonPoints = Record<string, [points: number, at: number]>;

const seasonsKey = (app_id: string) => `seasons ${app_id}`;
const pointsKey = (app_id: string, season_id: string) => `season ${app_id} ${season_id}`;

/** The app's seasons, in the order they were defined. */
export async function listSeasons(tx: Transaction, app_id: string): Promise<Season[]> {
  return (await tx.getMeta<Season[]>(seasonsKey(app_id))) ?? [];
}

/** Defines a season or changes one; a frozen season keeps its frozen board. */
export async function putSeason(tx: Transaction, app_id: string, season: Omit<Season, 'frozen_at'>): Promise<Season> {
  const seasons = await listSeasons(tx, app_id);
  const index = seasons.findIndex((known) => known.season_id === season.season_id);
  const kept: Season = { ...season, frozen_at: index < 0 ? null : seasons[index]!.frozen_at };
  if (index < 0) seasons.push(kept);
  else seasons[index] = kept;
  await tx.putMeta(seasonsKey(app_id), seasons);
  return kept;
}

export const seasonShape = (season: Season) => ({
  season_id: season.season_id,
  name: season.name,
  starts_at: new Date(season.starts_at).toISOString(),
  ends_at: new Date(season.ends_at).toISOString(),
  rewards: season.rewards,
  frozen: season.frozen_at !== null,
});

/**
 * Freezes the seasons that have ended by `now`, once: called by every write that may earn points
 * before it does, so nothing it writes (back-dated history of an import among it) reaches a closed
 * season. Pays its rank rewards and tells the app's backend with `season.ended`. The caller has
 * read the app in this write, which locks it on the SQL store: of two processes' writes, the
 * second sees the first's freeze, so it happens once.
 */
export async function freezeEndedSeasons(tx: Transaction, app: AppRecord, now: number): Promise<void> {
  const seasons = await listSeasons(tx, app.app_id);
  const ended = seasons.filter((season) => season.frozen_at === null && season.ends_at <= now);
  if (ended.length === 0) return;
  for (const season of ended) {
    season.frozen_at = now;
    await payRewards(tx, app, season, now);
    tx.recordEvent?.({
      app_id: app.app_id,
      type: 'season.ended',
      at: now,
      data: { season_id: season.season_id, name: season.name, ends_at: new Date(season.ends_at).toISOString() },
    });
  }
  await tx.putMeta(seasonsKey(app.app_id), seasons);
}

/** Awards each reward's badge to the members whose final rank lies in its range. */
async function payRewards(tx: Transaction, app: AppRecord, season: Season, now: number): Promise<void> {
  if (season.rewards.length === 0) return;
  const order = seasonOrder(await seasonPoints(tx, app.app_id, season.season_id));
  const last = Math.max(...season.rewards.map((reward) => reward.to_rank));
  for (const [position, [account_name]] of order.entries()) {
    const rank = rankAt(order, position, app.rank_policy);
    if (rank > last) break;
    for (const reward of season.rewards) {
      // A badge the app no longer defines pays nothing rather than fail the write that froze the season.
      if (rank < reward.from_rank || rank > reward.to_rank || !app.badges?.some((b) => b.badge_id === reward.badge_id)) continue;
      await awardBadge(tx, app, reward.badge_id, account_name, now, `season:${season.season_id}`);
    }
  }
}

/** Marks an imported season frozen as it was where it came from (its own end for the time). */
export async function freezeSeason(tx: Transaction, app_id: string, season_id: string, at: number): Promise<void> {
  const seasons = await listSeasons(tx, app_id);
  for (const season of seasons) if (season.season_id === season_id) season.frozen_at = at;
  await tx.putMeta(seasonsKey(app_id), seasons);
}

/** Counts points earned at `at` in each open season whose window holds it. */
export async function earnSeasonPoints(tx: Transaction, app_id: string, account_name: string, points: number, at: number) {
  if (points <= 0) return;
  for (const season of await listSeasons(tx, app_id)) {
    if (season.frozen_at !== null || at < season.starts_at || at >= season.ends_at) continue;
    const board = await seasonPoints(tx, app_id, season.season_id);
    const [before, lastAt] = board[account_name] ?? [0, at];
    board[account_name] = [before + points, Math.max(lastAt, at)];
    await tx.putMeta(pointsKey(app_id, season.season_id), board);
  }
}

export async function seasonPoints(tx: Transaction, app_id: string, season_id: string): Promise<SeasonPoints> {
  return (await tx.getMeta<SeasonPoints>(pointsKey(app_id, season_id))) ?? {};
}

/** Replaces a season's points (an import bringing a season's frozen board). */
export async function putSeasonPoints(tx: Transaction, app_id: string, season_id: string, board: SeasonPoints) {
  await tx.putMeta(pointsKey(app_id, season_id), board);
}

export async function findSeason(tx: Transaction, app_id: string, season_id: string): Promise<Season> {
  const season = (await listSeasons(tx, app_id)).find((known) => known.season_id === season_id);
  if (!season) throw new ApiError(SEASON_NOT_FOUND);
  return season;
}

/**
 * The season's board, in the shape of the others: its members by points, the earlier to reach
 * them first, then by name; ranked by the app's tie rule. Only members with points in the season
 * are on it.
 */
export async function readSeasonBoard(
  tx: Transaction,
  app: AppRecord,
  season_id: string,
  query: BoardQuery,
): Promise<Leaderboard> {
  await findSeason(tx, app.app_id, season_id);
  const order = seasonOrder(await seasonPoints(tx, app.app_id, season_id));
  let offset = query.offset;
  if (query.around !== undefined) {
    const position = order.findIndex(([name]) => name === query.around);
    const lead = Math.floor((query.limit - 1) / 2);
    offset = position < 0 ? 0 : Math.max(0, Math.min(position - lead, order.length - query.limit));
  }
  const page = order.slice(offset, offset + query.limit);
  await tx.getMany(
    'users',
    page.map(([name]) => [app.app_id, name]),
  );
  const entries: LeaderboardEntry[] = [];
  for (const [index, [name, [points]]] of page.entries()) {
    const user = await tx.get('users', [app.app_id, name]);
    entries.push({
      rank: rankAt(order, offset + index, app.rank_policy),
      external_user: { username: name },
      challenge_count: user?.challenges_completed ?? 0,
      task_count: user?.tasks_completed ?? 0,
      score: points,
      total_xp: user?.xp ?? 0,
    });
  }
  return { leaderboard_users: entries, total_users: order.length, message: null, is_valid: true };
}

type Ordered = [string, [number, number]][];

/** Members by season points, the earlier to reach them first, then by name. */
const seasonOrder = (board: SeasonPoints): Ordered =>
  Object.entries(board).sort(
    ([nameA, [pointsA, atA]], [nameB, [pointsB, atB]]) =>
      pointsB - pointsA || atA - atB || (nameA < nameB ? -1 : nameA > nameB ? 1 : 0),
  );

/** The rank of the member at `position` (from 0) under the app's tie rule. */
function rankAt(order: Ordered, position: number, policy: AppRecord['rank_policy']): number {
  if (policy === 'ordinal') return position + 1;
  const points = order[position]![1][0];
  const first = order.findIndex(([, [value]]) => value === points);
  return policy === 'dense' ? 1 + new Set(order.slice(0, first).map(([, [value]]) => value)).size : 1 + first;
}
