// What a remote's answers must look like before they are passed on or kept
// for offline use: the fields the widgets read, per operation. Extra fields
// are allowed, so a newer server stays usable.
import * as z from 'zod/mini';

const success = { is_valid: z.literal(true), message: z.null() };

const task = z.object({
  ...success,
  task_id: z.string(),
  name: z.string(),
  quantity: z.number(),
  operator: z.int(),
  metadata: z.string(),
  create_date: z.string(),
  allowretry: z.boolean(),
  alloweditquantity: z.boolean(),
});

const challenge = z.object({
  ...success,
  challenge_id: z.string(),
  name: z.string(),
  description: z.string(),
  create_date: z.string(),
  tasks: z.array(task),
});

const userInfo = z.object({
  ...success,
  account_name: z.string(),
  id: z.string(),
  is_active: z.boolean(),
  challenges_completed: z.int(),
  tasks_completed: z.int(),
  tasks_logged: z.int(),
  total_achievements: z.int(),
  total_score: z.int(),
  challenge_score_monthly: z.int(),
  challenge_score_weekly: z.int(),
  current_xp: z.int(),
  current_level: z.int(),
  next_level_xp: z.int(),
});

const leaderboard = z.object({
  ...success,
  total_users: z.int(),
  leaderboard_users: z.array(
    z.object({
      rank: z.int(),
      external_user: z.object({ username: z.string() }),
      challenge_count: z.int(),
      task_count: z.int(),
      score: z.int(),
      total_xp: z.int(),
    }),
  ),
});

const leaderboardHtml = z.object({ ...success, html: z.string() });

const taskProgress = z.object({
  ...success,
  task_id: z.string(),
  task_name: z.string(),
  quantity_required: z.number(),
  quantity_completed: z.number(),
});

const plainSuccess = z.object(success);

/** Every failure, whatever the operation: the spec's common shape. */
export const failureShape = z.object({ is_valid: z.literal(false), message: z.string() });

/** The success shape of an operation's answer, or null for operations the strategy does not know (admin ones). */
export function successShape(operation: string, url: URL): z.ZodMiniType | null {
  switch (operation) {
    case 'health':
      return z.object({ ...success, version: z.string() });
    case 'get_challenge':
      return challenge;
    case 'get_userinfo':
      return userInfo;
    case 'get_leaderboard':
      return url.searchParams.get('widget_response') === 'html' ? leaderboardHtml : leaderboard;
    case 'get_task_progress':
      return taskProgress;
    case 'endorse_account':
    case 'connect_social':
      return plainSuccess;
    case 'airdrop_token_ledger':
      return z.object({ ...success, tx_id: z.string() });
    default:
      return null;
  }
}

/** "field.path: why" for the first thing wrong, so the message says what the remote got wrong. */
export function describeMismatch(error: z.core.$ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return `${path === '' ? 'the answer' : path}: ${issue.message}`;
}
