// Seasons: an app's boards of the points earned in a window of time, [starts_at, ends_at),
// frozen and kept once the window has closed. The seasons are kept on the app (AppRecord.seasons),
// each member's points in one a record of its own (season_points), which the store keeps in board
// order: a log writes one small record, a page reads its members, and ranks are counted.
import type { SeasonAnswer } from '../api/admin-responses.js';
import { SEASON_NOT_FOUND } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { Leaderboard, LeaderboardEntry } from '../api/responses.js';
import type { AppRecord, PageWindow, Season, SeasonPointsRecord, Transaction } from '../store/index.js';
import { awardBadge } from './badges.js';
import type { BoardQuery } from './leaderboard.js';

export type { Season, SeasonReward } from '../store/index.js';

/** The app's seasons, in the order they were defined. */
export const listSeasons = (app: AppRecord): Season[] => app.seasons ?? [];

/** Defines a season or changes one; a frozen season keeps its frozen board, and every season its members. */
export function putSeason(tx: Transaction, app: AppRecord, season: Omit<Season, 'frozen_at' | 'member_count'>): Season {
  const seasons = [...listSeasons(app)];
  const index = seasons.findIndex((known) => known.season_id === season.season_id);
  const known = seasons[index];
  const kept: Season = { ...season, frozen_at: known?.frozen_at ?? null, member_count: known?.member_count ?? 0 };
  if (index < 0) seasons.push(kept);
  else seasons[index] = kept;
  app.seasons = seasons;
  tx.put('apps', app);
  return kept;
}

export const seasonShape = (season: Season): SeasonAnswer => ({
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
  const ended = listSeasons(app).filter((season) => season.frozen_at === null && season.ends_at <= now);
  if (ended.length === 0) return;
  app.seasons = listSeasons(app).map((season) => (ended.includes(season) ? { ...season, frozen_at: now } : season));
  tx.put('apps', app);
  for (const season of ended) {
    await payRewards(tx, app, season, now);
    tx.recordEvent?.({
      app_id: app.app_id,
      type: 'season.ended',
      at: now,
      data: { season_id: season.season_id, name: season.name, ends_at: new Date(season.ends_at).toISOString() },
    });
  }
}

/** Awards each reward's badge to the members whose final rank lies in its range. */
async function payRewards(tx: Transaction, app: AppRecord, season: Season, now: number): Promise<void> {
  if (season.rewards.length === 0) return;
  const last = Math.max(...season.rewards.map((reward) => reward.to_rank));
  // Page by page until a rank passes the last rewarded: under the dense rule, ties can hold it far down.
  for (let offset = 0; ; offset += REWARD_PAGE) {
    const members = await tx.seasonPage(app.app_id, season.season_id, offset, REWARD_PAGE);
    const ranks = await ranksOf(
      tx,
      app,
      season.season_id,
      offset,
      members.map(({ points }) => points),
    );
    for (const [index, member] of members.entries()) {
      const rank = ranks[index]!;
      if (rank > last) return;
      for (const reward of season.rewards) {
        // A badge the app no longer defines pays nothing rather than fail the write that froze the season.
        if (rank < reward.from_rank || rank > reward.to_rank || !app.badges?.some((b) => b.badge_id === reward.badge_id))
          continue;
        await awardBadge(tx, app, reward.badge_id, member.account_name, now, `season:${season.season_id}`);
      }
    }
    if (members.length < REWARD_PAGE) return;
  }
}

const REWARD_PAGE = 1000;

/** Marks an imported season frozen as it was where it came from (its own end for the time). */
export function freezeSeason(tx: Transaction, app: AppRecord, season_id: string, at: number): void {
  app.seasons = listSeasons(app).map((season) => (season.season_id === season_id ? { ...season, frozen_at: at } : season));
  tx.put('apps', app);
}

/** The seasons that count points earned at `at`: open, their window holding it. */
export const seasonsEarningAt = (app: AppRecord, at: number): Season[] =>
  listSeasons(app).filter((season) => season.frozen_at === null && at >= season.starts_at && at < season.ends_at);

/** Counts points earned at `at` in each open season whose window holds it. */
export async function earnSeasonPoints(tx: Transaction, app: AppRecord, account_name: string, points: number, at: number) {
  if (points <= 0) return;
  const app_id = app.app_id;
  for (const { season_id } of seasonsEarningAt(app, at)) {
    const before = await tx.get('season_points', [app_id, season_id, account_name]);
    tx.put('season_points', {
      app_id,
      season_id,
      account_name,
      points: (before?.points ?? 0) + points,
      at: Math.max(before?.at ?? at, at),
    });
    if (!before) countJoined(tx, app, season_id, 1);
  }
}

/** Adds `joined` members to the season's count: those whose first points in it were just put. */
function countJoined(tx: Transaction, app: AppRecord, season_id: string, joined: number) {
  if (joined === 0) return;
  app.seasons = listSeasons(app).map((season) =>
    season.season_id === season_id ? { ...season, member_count: season.member_count + joined } : season,
  );
  tx.put('apps', app);
}

/** The season's members in board order, every one (an export). */
export async function seasonMembers(tx: Transaction, app_id: string, season: Season): Promise<SeasonPointsRecord[]> {
  return tx.seasonPage(app_id, season.season_id, 0, season.member_count);
}

/**
 * Puts members' points in a season as they stood (an import bringing a season's board), counting
 * those new to it: the points already there read first, all in one read.
 */
export async function putSeasonPoints(tx: Transaction, app: AppRecord, season_id: string, members: SeasonPointsRecord[]) {
  const keys = members.map(({ account_name }): [string, string, string] => [app.app_id, season_id, account_name]);
  await tx.getMany('season_points', keys);
  let joined = 0;
  for (const [index, member] of members.entries()) {
    // A member twice in one board is counted once: the second read finds the first put.
    if (!(await tx.get('season_points', keys[index]!))) joined++;
    tx.put('season_points', member);
  }
  countJoined(tx, app, season_id, joined);
}

export function findSeason(app: AppRecord, season_id: string): Season {
  const season = listSeasons(app).find((known) => known.season_id === season_id);
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
  const total = findSeason(app, season_id).member_count;
  const { app_id } = app;
  const around = query.around === undefined ? undefined : await tx.get('season_points', [app_id, season_id, query.around]);
  const window: PageWindow = { lead: Math.floor((query.limit - 1) / 2), limit: query.limit, lastStart: total - query.limit };
  // Around a member not on the season's board: its first page.
  const start = query.around === undefined ? query.offset : 0;
  const { offset, members: page } = around
    ? await tx.seasonPageAround(around, window)
    : { offset: start, members: await tx.seasonBoardPage(app_id, season_id, start, query.limit) };
  const ranks = await ranksOf(
    tx,
    app,
    season_id,
    offset,
    page.map(({ member }) => member.points),
  );
  const entries: LeaderboardEntry[] = page.map(({ member, shown }, index) => ({
    rank: ranks[index]!,
    external_user: { username: member.account_name },
    challenge_count: shown.challenges_completed,
    task_count: shown.tasks_completed,
    score: member.points,
    total_xp: shown.xp,
  }));
  return { leaderboard_users: entries, total_users: total, message: null, is_valid: true };
}

/**
 * The ranks of a page of the season's board from `offset`, its members' points given in board
 * order, under the app's tie rule: the first counted, the rest following from it (as
 * leaderboard.ts ranks the other boards).
 */
async function ranksOf(tx: Transaction, app: AppRecord, season_id: string, offset: number, points: number[]): Promise<number[]> {
  const ranks: number[] = [];
  let rank = 0;
  for (const [index, value] of points.entries()) {
    const position = offset + index + 1;
    const previous = points[index - 1];
    if (app.rank_policy === 'ordinal') rank = position;
    else if (position === 1) rank = 1;
    else if (index === 0) {
      rank = 1 + (await tx.countSeasonHigher(app.app_id, season_id, value, app.rank_policy === 'dense'));
    } else if (value !== previous) rank = app.rank_policy === 'dense' ? rank + 1 : position;
    ranks.push(rank);
  }
  return ranks;
}
