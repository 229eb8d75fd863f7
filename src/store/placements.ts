// Where a member stands on each board: the group of members with the same
// value, and the tie-break within it. Boards are ordered by group, then tie.
import type { LeaderboardType } from '../api/schemas.js';
import { BOARD_INDEX, type BoardKey, type UserRecord } from './records.js';

/** [app_id, board, period ('' for score and xp), negated value]. */
export type GroupKey = [string, LeaderboardType, string, number];
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

/** Period boards hold only members with points in some period. */
export function placements(user: UserRecord): Placement[] {
  const { app_id, account_name: name } = user;
  const found: Placement[] = [
    { group: [app_id, 'score', '', negated(user.total_score)], tie: [user.score_at, name] },
    { group: [app_id, 'xp', '', negated(user.xp)], tie: [user.xp_at, name] },
  ];
  if (user.week) found.push({ group: [app_id, 'weekly', user.week, negated(user.week_score)], tie: [user.week_at, name] });
  if (user.month) {
    found.push({ group: [app_id, 'monthly', user.month, negated(user.month_score)], tie: [user.month_at, name] });
  }
  return found;
}

/** Sets the member's keys in the board indexes; a member on no period board has no key there. */
export function withBoardKeys(user: UserRecord): UserRecord {
  delete user.board_weekly;
  delete user.board_monthly;
  for (const { group, tie } of placements(user)) user[BOARD_INDEX[group[1]]] = indexKey(group, tie);
  return user;
}

/** The member's key in the board's users index, as in UserRecord.board_*. */
export function indexKey([app_id, board, period, negated]: GroupKey, tie: Tie | []): BoardKey {
  return board === 'score' || board === 'xp' ? [app_id, negated, ...tie] : [app_id, period, negated, ...tie];
}

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
