// A member's record as the SQL store keeps it (src/store/records.ts UserRecord),
// for tests that write members below the API: points on the score board only.

/**
 * A member of `app_id` with `total_score` points, reached at `score_at`.
 * @param {{ app_id: string, account_name: string, total_score: number, score_at: number }} member
 * @returns {import('../../../src/store/index.js').UserRecord}
 */
export const userRecord = ({ app_id, account_name, total_score, score_at }) => ({
  app_id,
  account_name,
  id: `id-${account_name}`,
  is_active: true,
  twitter_name: null,
  joined_at: 0,
  challenges_completed: 0,
  tasks_completed: 0,
  tasks_logged: 0,
  total_score,
  xp: 0,
  score_at,
  xp_at: 0,
  week: '',
  week_score: 0,
  week_at: 0,
  month: '',
  month_score: 0,
  month_at: 0,
});
