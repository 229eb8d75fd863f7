// Which per-value count a member adds to on each board.
import type { BoardCountRecord, UserRecord } from './records.js';

export type Bucket = Omit<BoardCountRecord, 'count'>;

/** Period boards hold only members with points in some period. */
export function boardBuckets(user: UserRecord): Bucket[] {
  const { app_id } = user;
  const buckets: Bucket[] = [
    { app_id, board: 'score', period: '', negated: -user.total_score },
    { app_id, board: 'xp', period: '', negated: -user.xp },
  ];
  if (user.week) buckets.push({ app_id, board: 'weekly', period: user.week, negated: -user.week_score });
  if (user.month) buckets.push({ app_id, board: 'monthly', period: user.month, negated: -user.month_score });
  return buckets;
}

export const bucketKey = (bucket: Bucket): [string, string, string, number] => [
  bucket.app_id,
  bucket.board,
  bucket.period,
  bucket.negated,
];
