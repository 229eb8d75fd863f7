// What <qb-leaderboard> and the HTML fragment both show, so they cannot drift apart.

import type { LeaderboardEntry } from '../api/responses.js';
import type { LeaderboardType } from '../api/schemas.js';
import type { PlainMessageId, TableMessageId, Translator } from '../i18n/messages.js';

export type { LeaderboardEntry, LeaderboardType };

/** Each column's header is the message `leaderboard.column.<label>`, its short form `….short` where it has one. */
type ColumnLabel = 'rank' | 'member' | 'score' | 'weekly' | 'monthly' | 'xp' | 'challenges' | 'tasks';

export interface LeaderboardColumn {
  key: 'rank' | 'member' | 'score' | 'xp' | 'challenges' | 'tasks';
  label: ColumnLabel;
  /** Numeric columns are right-aligned (end-aligned in rtl) and formatted with Intl. */
  numeric: boolean;
  value(entry: LeaderboardEntry): number | string;
}

const SCORE_LABELS: Record<LeaderboardType, ColumnLabel> = { score: 'score', xp: 'score', weekly: 'weekly', monthly: 'monthly' };

const CAPTIONS: Record<LeaderboardType, PlainMessageId<TableMessageId>> = {
  score: 'leaderboard.caption.score',
  xp: 'leaderboard.caption.xp',
  weekly: 'leaderboard.caption.weekly',
  monthly: 'leaderboard.caption.monthly',
};

export function isLeaderboardType(value: string): value is LeaderboardType {
  return value in CAPTIONS;
}

export function leaderboardCaption(t: Translator<TableMessageId>, type: LeaderboardType): string {
  return t.text(CAPTIONS[type]);
}

export function leaderboardColumns(type: LeaderboardType): LeaderboardColumn[] {
  return [
    { key: 'rank', label: 'rank', numeric: true, value: (entry) => entry.rank },
    { key: 'member', label: 'member', numeric: false, value: (entry) => entry.external_user.username },
    { key: 'score', label: SCORE_LABELS[type], numeric: true, value: (entry) => entry.score },
    { key: 'xp', label: 'xp', numeric: true, value: (entry) => entry.total_xp },
    { key: 'challenges', label: 'challenges', numeric: true, value: (entry) => entry.challenge_count },
    { key: 'tasks', label: 'tasks', numeric: true, value: (entry) => entry.task_count },
  ];
}

/**
 * A column's header in `t`'s language: its label, and the short form a narrow table shows in
 * its place (in an <abbr> titled with the label), or null where the language has none shorter.
 */
export function columnHeader(t: Translator<TableMessageId>, column: LeaderboardColumn): { label: string; short: string | null } {
  const label = t.text(`leaderboard.column.${column.label}`);
  const short = column.label === 'member' ? null : t.text(`leaderboard.column.${column.label}.short`);
  return { label, short: short === label ? null : short };
}

/** "Showing 1–10 of 250 members", in `t`'s language and numbers. */
export function leaderboardSummary(t: Translator<TableMessageId>, shown: number, offset: number, total: number): string {
  if (shown === 0) return t.text('leaderboard.total', { count: total });
  return t.text('leaderboard.summary', { first: offset + 1, last: offset + shown, count: total });
}

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
  /** A header's full text, shown where the table has room… */
  label: 'qb-lb__label',
  /** …and its short form, shown where it has not. */
  abbr: 'qb-lb__abbr',
  name: 'qb-lb__name',
  empty: 'qb-lb__empty',
  summary: 'qb-lb__summary',
  /** Says the rows are the last ones the remote gave, while it cannot be reached. */
  kept: 'qb-lb__kept',
} as const;
