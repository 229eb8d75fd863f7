import { numberFormat } from './number-format.js';

// What <qb-leaderboard> and the HTML fragment both show, so they cannot drift apart.

import type { LeaderboardEntry } from '../api/responses.js';
import type { LeaderboardType } from '../api/schemas.js';

export type { LeaderboardEntry, LeaderboardType };

export interface LeaderboardColumn {
  key: 'rank' | 'member' | 'score' | 'xp' | 'challenges' | 'tasks';
  label: string;
  /** Numeric columns are right-aligned (end-aligned in rtl) and formatted with Intl. */
  numeric: boolean;
  value(entry: LeaderboardEntry): number | string;
}

const SCORE_LABELS: Record<LeaderboardType, string> = {
  score: 'Score',
  xp: 'Score',
  weekly: 'Score this week',
  monthly: 'Score this month',
};

const CAPTIONS: Record<LeaderboardType, string> = {
  score: 'Leaderboard by score',
  xp: 'Leaderboard by XP',
  weekly: 'Leaderboard this week',
  monthly: 'Leaderboard this month',
};

export function isLeaderboardType(value: string): value is LeaderboardType {
  return value in CAPTIONS;
}

export function leaderboardCaption(type: LeaderboardType): string {
  return CAPTIONS[type];
}

export function leaderboardColumns(type: LeaderboardType): LeaderboardColumn[] {
  return [
    { key: 'rank', label: 'Rank', numeric: true, value: (entry) => entry.rank },
    { key: 'member', label: 'Member', numeric: false, value: (entry) => entry.external_user.username },
    { key: 'score', label: SCORE_LABELS[type], numeric: true, value: (entry) => entry.score },
    { key: 'xp', label: 'XP', numeric: true, value: (entry) => entry.total_xp },
    { key: 'challenges', label: 'Challenges', numeric: true, value: (entry) => entry.challenge_count },
    { key: 'tasks', label: 'Tasks', numeric: true, value: (entry) => entry.task_count },
  ];
}

/** "Showing 1–10 of 250 members", with numbers in the given locale. */
export function leaderboardSummary(shown: number, offset: number, total: number, locale?: string): string {
  const format = numberFormat(locale);
  if (shown === 0) return `${format.format(total)} members`;
  return `Showing ${format.format(offset + 1)}–${format.format(offset + shown)} of ${format.format(total)} members`;
}

export const EMPTY_LEADERBOARD_TEXT = 'No members on this leaderboard yet.';

/** Class names; every one starts with `qb-lb` so the fragment cannot clash with the host page. */
export const leaderboardClass = {
  root: 'qb-lb',
  table: 'qb-lb__table',
  caption: 'qb-lb__caption',
  row: 'qb-lb__row',
  rowHighlighted: 'qb-lb__row qb-lb__row--highlight',
  pinnedBody: 'qb-lb__pinned',
  cell: 'qb-lb__cell',
  numericCell: 'qb-lb__cell qb-lb__cell--num',
  name: 'qb-lb__name',
  empty: 'qb-lb__empty',
  summary: 'qb-lb__summary',
} as const;
