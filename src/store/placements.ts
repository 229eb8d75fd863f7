// Where a member stands in each ordering: the group of members with the same
// value, and the tie-break within it. Orderings sort by group, then tie.
// Besides the four boards, the name lists order members by name: all members
// of the app, and those with points in a week or a month, so that the members
// a period board lists after its ranked ones can be counted too. Each season's
// board is an ordering as well, of its members' points in it.
import type { LeaderboardType } from '../api/schemas.js';
import type {
  BoardRow,
  GroupKey,
  MemberGroupKey,
  SeasonPointsRecord,
  SeasonRow,
  SeasonShown,
  Tie,
  TieRow,
  UserRecord,
} from './records.js';

export type NameList = 'names' | 'weekly_names' | 'monthly_names';
export type Ordering = LeaderboardType | NameList;

export interface Placement<Group extends GroupKey = GroupKey> {
  group: Group;
  tie: Tie;
}

/**
 * Values are negated so that ascending keys list the highest first.
 * Never -0: IndexedDB stores -0 and 0 as different keys.
 */
export const negated = (value: number) => (value === 0 ? 0 : -value);

/** Period boards and their name lists hold only members with points in some period. */
export function placements(user: UserRecord): Placement<MemberGroupKey>[] {
  const { app_id, account_name: name } = user;
  const found: Placement<MemberGroupKey>[] = [
    { group: [app_id, 'score', '', negated(user.total_score)], tie: [user.score_at, name] },
    { group: [app_id, 'xp', '', negated(user.xp)], tie: [user.xp_at, name] },
    { group: [app_id, 'names', '', 0], tie: [0, name] },
  ];
  if (user.week) {
    found.push({ group: [app_id, 'weekly', user.week, negated(user.week_score)], tie: [user.week_at, name] });
    found.push({ group: [app_id, 'weekly_names', user.week, 0], tie: [0, name] });
  }
  if (user.month) {
    found.push({ group: [app_id, 'monthly', user.month, negated(user.month_score)], tie: [user.month_at, name] });
    found.push({ group: [app_id, 'monthly_names', user.month, 0], tie: [0, name] });
  }
  return found;
}

/** What a season's board shows of a member (SeasonShown): nothing counted for one without a record. */
export const seasonShown = (user: SeasonShown | undefined): SeasonShown => ({
  challenges_completed: user?.challenges_completed ?? 0,
  tasks_completed: user?.tasks_completed ?? 0,
  xp: user?.xp ?? 0,
});

/**
 * A member's row on a season's board: their tie and what the board shows of them, their points
 * being their group's. Kept in the row so that a page reads no member's record.
 */
export const seasonRow = ({ account_name, at }: SeasonPointsRecord, shown: SeasonShown): SeasonRow => ({
  account_name,
  at,
  ...shown,
});

/** Where a member's points in a season place them on its board. */
export const seasonPlacement = ({ app_id, season_id, points, at, account_name }: SeasonPointsRecord): Placement => ({
  group: [app_id, 'season', season_id, negated(points)],
  tie: [at, account_name],
});

/** The member as every board lists them, but for the tie's time, which each placement sets. */
export function rowOf(user: UserRecord): BoardRow {
  return {
    account_name: user.account_name,
    at: 0,
    challenges_completed: user.challenges_completed,
    tasks_completed: user.tasks_completed,
    total_score: user.total_score,
    xp: user.xp,
    week: user.week,
    month: user.month,
  };
}

/** Whether a group is a name list's (its value always 0). */
export const isNameList = ([, ordering]: GroupKey): boolean =>
  ordering === 'names' || ordering === 'weekly_names' || ordering === 'monthly_names';

/** The period name lists are only counted, never listed: their rows need only their ties. */
export const isShown = ({ group: [, ordering] }: Placement) => ordering !== 'weekly_names' && ordering !== 'monthly_names';

export const rowTie = (row: TieRow): Tie => [row.at, row.account_name];

export function compareTies([at, name]: Tie, [otherAt, otherName]: Tie): number {
  if (at !== otherAt) return at < otherAt ? -1 : 1;
  return name === otherName ? 0 : name < otherName ? -1 : 1;
}

export const placementText = (placement: Placement) => JSON.stringify([...placement.group, ...placement.tie]);
