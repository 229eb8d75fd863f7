// Where a member stands on each board: the group of members with the same
// value, and the tie-break within it. Boards are ordered by group, then tie.
import type { LeaderboardType } from '../api/schemas.js';
import type { BoardKey, UserRecord } from './records.js';

/** [app_id, board, period ('' for score and xp), negated value]. */
export type GroupKey = [string, LeaderboardType, string, number];
/** [reached_at, account_name]: who got to the value first, then by name. */
export type Tie = [number, string];

export interface Placement {
  group: GroupKey;
  tie: Tie;
}

/** Period boards hold only members with points in some period. */
export function placements(user: UserRecord): Placement[] {
  const { app_id, account_name: name } = user;
  const found: Placement[] = [
    { group: [app_id, 'score', '', -user.total_score], tie: [user.score_at, name] },
    { group: [app_id, 'xp', '', -user.xp], tie: [user.xp_at, name] },
  ];
  if (user.week) found.push({ group: [app_id, 'weekly', user.week, -user.week_score], tie: [user.week_at, name] });
  if (user.month) found.push({ group: [app_id, 'monthly', user.month, -user.month_score], tie: [user.month_at, name] });
  return found;
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
