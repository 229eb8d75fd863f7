// Challenges and tasks: lookups scoped to an app, and their wire shapes.
import { CHALLENGE_NOT_FOUND, CHALLENGE_NOT_STARTED, CHALLENGE_RETIRED, TASK_NOT_FOUND } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { Fixed4, formatDate, QUANTITY_SCALE } from '../api/formats.js';
import type { BadgeSummary, Challenge, Task, TaskProgressWire } from '../api/responses.js';
import type { BadgeDefinition, ChallengeRecord, ProgressRecord, TaskRecord, Transaction } from '../store/index.js';

/**
 * A challenge of the caller's app, as members are shown it. Another app's challenge is "not
 * found", not "forbidden", so ids of other apps cannot be probed; a retired one is gone for them too.
 */
export async function findChallenge(tx: Transaction, challenge_id: string, app_id: string | null) {
  const challenge = await tx.get('challenges', challenge_id);
  if (!challenge || (app_id !== null && challenge.app_id !== app_id) || challenge.retired)
    throw new ApiError(CHALLENGE_NOT_FOUND);
  return challenge;
}

export async function findTask(tx: Transaction, task_id: string, app_id: string | null) {
  const task = await tx.get('tasks', task_id);
  if (!task || (app_id !== null && task.app_id !== app_id)) throw new ApiError(TASK_NOT_FOUND);
  return task;
}

export function assertStarted(challenge: ChallengeRecord, at: number): void {
  if (at < challenge.start_at) throw new ApiError(CHALLENGE_NOT_STARTED);
}

/** A challenge that counts new progress: started, and not retired (its history stays, and replays). */
export function assertOpen(challenge: ChallengeRecord, at: number): void {
  assertStarted(challenge, at);
  if (challenge.retired) throw new ApiError(CHALLENGE_RETIRED);
}

export function taskShape(task: TaskRecord): Task {
  return {
    task_id: task.task_id,
    name: task.name,
    quantity: task.quantity_e4 / QUANTITY_SCALE,
    operator: task.operator,
    metadata: JSON.stringify(task.metadata),
    create_date: formatDate(task.created_at),
    resourceurl: null,
    groupname: null,
    allowretry: task.allowretry,
    alloweditquantity: task.alloweditquantity,
    challenge: null,
    // The kind alone: a code's answers (even hashed) and a callback's endpoint stay on the server.
    verification: { kind: task.verification?.kind ?? 'backend' },
    is_valid: true,
    message: null,
  };
}

/** `badge`: the badge completing the challenge awards, if any (badges.ts, challengeBadge). */
export function challengeShape(challenge: ChallengeRecord, tasks: TaskRecord[], badge?: BadgeDefinition): Challenge {
  return {
    challenge_id: challenge.challenge_id,
    name: challenge.name,
    description: challenge.description,
    create_date: formatDate(challenge.created_at),
    groupid: null,
    badge: badge ? badgeSummary(badge) : null,
    tasks: tasks.map(taskShape),
    // Points count as XP too (member-totals.ts).
    rewarddata: badge ? { points: challenge.points, xp: challenge.points, badge_id: badge.badge_id } : null,
    is_valid: true,
    message: null,
  };
}

export const badgeSummary = ({ badge_id, name, description, image_url }: BadgeDefinition): BadgeSummary => ({
  badge_id,
  name,
  description,
  image_url,
});

export function taskProgressShape(task: TaskRecord, progress: ProgressRecord | undefined): TaskProgressWire {
  return {
    task_id: task.task_id,
    task_name: task.name,
    quantity_required: new Fixed4(task.quantity_e4),
    quantity_completed: new Fixed4(progress?.completed_e4 ?? 0),
    message: null,
    is_valid: true,
  };
}
