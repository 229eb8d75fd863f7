// Where a member stands in each ordering: the group of members with the same
// value, and the tie-break within it. Orderings sort by group, then tie.
// Besides the four boards, the name lists order members by name: all members
// of the app, and those with points in a week or a month, so that the members
// a period board lists after its ranked ones can be counted too.
import type { LeaderboardType } from '../api/schemas.js';
import { BOARD_INDEX, type BoardKey, type UserRecord } from './records.js';

export type NameList = 'names' | 'weekly_names' | 'monthly_names';
export type Ordering = LeaderboardType | NameList;

/** [app_id, ordering, period ('' for score, xp and names), negated value (0 in name lists)]. */
export type GroupKey = [string, Ordering, string, number];
/** [reached_at, account_name]: who got to the value first, then by name. */
export type Tie = [number, string];

export interface Placement {
  group: GroupKey;
  tie: Tie;
}

/**
 * Values are negated so that an ascending index lists the highest first.
 * Never -0: IndexedDB here stores -0 and 0 as different keys.
 */
export const negated = (value: number) => (value === 0 ? 0 : -value);

/** Period boards and their name lists hold only members with points in some period. */
export function placements(user: UserRecord): Placement[] {
  const { app_id, account_name: name } = user;
  const found: Placement[] = [
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

const isNameList = (ordering: Ordering): ordering is NameList => ordering.endsWith('names');

/** Sets the member's keys in the board indexes; a member on no period board has no key there. */
export function withBoardKeys(user: UserRecord): UserRecord {
  delete user.board_weekly;
  delete user.board_monthly;
  for (const { group, tie } of placements(user)) {
    if (!isNameList(group[1])) user[BOARD_INDEX[group[1]]] = indexKey(group, tie);
  }
  return user;
}

/**
 * The member's key where the ordering is kept: a board index (as in
 * UserRecord.board_*), the users store itself for `names`, or the
 * week/month-and-name index for the period name lists.
 */
export function indexKey([app_id, ordering, period, negated]: GroupKey, tie: Tie | []): BoardKey {
  const name = tie.length === 0 ? [] : [tie[1]];
  if (ordering === 'names') return [app_id, ...name];
  if (isNameList(ordering)) return [app_id, period, ...name];
  return ordering === 'score' || ordering === 'xp' ? [app_id, negated, ...tie] : [app_id, period, negated, ...tie];
}

/** The tie of the member at `key` where the ordering is kept. */
export function tieAt(ordering: Ordering, key: BoardKey): Tie {
  return isNameList(ordering) ? [0, key.at(-1) as string] : (key.slice(-2) as Tie);
}

/** Where an ordering is kept in IndexedDB. */
export const ORDERING_INDEX: Record<NameList, 'by_week_name' | 'by_month_name' | null> = {
  names: null,
  weekly_names: 'by_week_name',
  monthly_names: 'by_month_name',
};

/** Orders placements exactly as IndexedDB orders the board keys. */
export function comparePlacements(a: Placement, b: Placement): number {
  const parts = [...a.group, ...a.tie];
  const others = [...b.group, ...b.tie];
  for (let i = 0; i < parts.length; i++) {
    const x = parts[i]!;
    const y = others[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export const placementText = (placement: Placement) => JSON.stringify([...placement.group, ...placement.tie]);
