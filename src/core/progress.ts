// What one log of a task does to a member's progress, totals and challenges.
import { INVALID_INPUT } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import type { AppRecord, ProgressRecord, TaskRecord, Transaction, UserRecord } from '../store/index.js';
import { countActivity } from './activity.js';
import { awardChallenge, awardCrossed, ruleAwardKeys, standingOf } from './badges.js';
import { assertOpen, assertStarted } from './catalog.js';
import { earnPoints, tellLevelChange } from './member-totals.js';
import { earnSeasonPoints, freezeEndedSeasons, seasonsEarningAt } from './seasons.js';
import { countDay } from './streaks.js';

export interface Log {
  app: AppRecord;
  task: TaskRecord;
  user: UserRecord;
  quantity_e4: number;
  at: number;
  /**
   * An import replaying history: what it completes happened before, and is told to no webhook
   * (a restore of a thousand members is not a thousand completions) nor counted in the app's
   * activity by day (activity.ts).
   */
  replay?: true;
}

/** Logs a quantity: what it does to the member's records, and its line in the log of quantities. */
export async function logProgress(tx: Transaction, log: Log): Promise<ProgressRecord> {
  const { app, task, user, quantity_e4, at } = log;
  // A live log closes the seasons that have ended before it counts; a replay counts into none (seasons.ts).
  if (!log.replay) await freezeEndedSeasons(tx, app, at);
  const scoreBefore = user.total_score;
  const completedBefore = user.tasks_completed;
  const lastDayBefore = user.streak_last_day;
  const progress = await applyProgress(tx, log);
  if (!log.replay) {
    await earnSeasonPoints(tx, app, user.account_name, user.total_score - scoreBefore, at);
    const completed = user.tasks_completed > completedBefore;
    await countActivity(tx, app, user, { task_id: task.task_id, completed, lastDayBefore }, at);
  }
  await tx.append({ app_id: app.app_id, task_id: task.task_id, account_name: user.account_name, quantity_e4, at });
  return progress;
}

/**
 * What a log does to the member's progress, totals, challenges, streak and badges, without its line in the log:
 * an import appends its lines in time order itself, and applies them a member at a time (dataset.ts).
 */
export async function applyProgress(tx: Transaction, log: Log): Promise<ProgressRecord> {
  const { app, task, user, quantity_e4, at } = log;
  const xpBefore = user.xp;
  // Asked for together: each read in turn was a round of requests of its own in IndexedDB.
  const [challenge, stored] = await Promise.all([
    tx.get('challenges', task.challenge_id),
    tx.get('progress', [task.task_id, user.account_name]),
  ]);
  // A replay is history, which a challenge retired since keeps.
  (log.replay ? assertStarted : assertOpen)(challenge!, at);
  // Setting a quantity to 0 is an edit; adding 0 is a mistake.
  if (quantity_e4 <= 0 && !(task.alloweditquantity && quantity_e4 === 0)) {
    throw new ApiError(INVALID_INPUT, { field: 'quantity', reason: 'must be greater than 0' });
  }
  const progress = stored ?? {
    task_id: task.task_id,
    account_name: user.account_name,
    app_id: app.app_id,
    completed_e4: 0,
    times_completed: 0,
  };
  const before = standingOf(user);
  user.tasks_logged++;
  countDay(app, user, at);

  const after = progressAfter(task, progress, quantity_e4);
  progress.completed_e4 = after.completed_e4;
  if (after.reached) {
    // An import reads what its members' logs complete in bulk, a chunk of members at a time (dataset.ts).
    if (!log.replay) await readForCompletion(tx, app, task, user.account_name, progress.times_completed === 0, at);
    await completeTask(tx, log, progress);
  }
  await awardCrossed(tx, app, user, before, at);
  if (!log.replay) tellLevelChange(tx, user, xpBefore, at);
  tx.put('progress', progress);
  tx.put('users', user);
  return progress;
}

/**
 * The task's completed quantity after a log of `quantity_e4` (progress as it stands before it:
 * none yet is 0, never completed), and whether the log completes the task.
 */
export function progressAfter(
  task: TaskRecord,
  { completed_e4: previous, times_completed }: Pick<ProgressRecord, 'completed_e4' | 'times_completed'>,
  quantity_e4: number,
): { completed_e4: number; reached: boolean } {
  // Without retry a completed task is done: later logs only count as logged.
  if (times_completed > 0 && !task.allowretry) return { completed_e4: previous, reached: false };
  const singleLog = task.operator === 1;
  const completed_e4 = task.alloweditquantity
    ? quantity_e4
    : singleLog
      ? Math.max(previous, quantity_e4)
      : previous + quantity_e4;
  // Operator 1 completes only when one log reaches the quantity on its own.
  return { completed_e4, reached: (singleLog ? quantity_e4 : completed_e4) >= task.quantity_e4 };
}

/**
 * What completing the task goes on to read, asked for at once: the member's record of its
 * challenge (at a first completion), their awards of the rule badges it may award, and their
 * points in the seasons it earns points in at `at`. Asked for in turn, each was a round trip of
 * its own to a server's database; a server's read-ahead asks for them with the log's first reads
 * (handler/read-ahead.ts).
 */
export async function readForCompletion(
  tx: Transaction,
  app: AppRecord,
  task: TaskRecord,
  account_name: string,
  first: boolean,
  at: number,
): Promise<void> {
  await Promise.all([
    first ? tx.get('member_challenges', [task.challenge_id, account_name]) : undefined,
    tx.getMany('badge_awards', ruleAwardKeys(app, account_name)),
    tx.getMany(
      'season_points',
      seasonsEarningAt(app, at).map(({ season_id }): [string, string, string] => [app.app_id, season_id, account_name]),
    ),
  ]);
}

async function completeTask(tx: Transaction, { app, task, user, at, replay }: Log, progress: ProgressRecord): Promise<void> {
  progress.times_completed++;
  progress.completed_e4 = task.allowretry ? 0 : task.quantity_e4;
  user.tasks_completed++;
  earnPoints(user, task.points, at);
  const member = { app_id: app.app_id, account_name: user.account_name };
  if (!replay) {
    tx.recordEvent?.({
      app_id: app.app_id,
      type: 'task.completed',
      at,
      data: {
        ...member,
        task_id: task.task_id,
        challenge_id: task.challenge_id,
        times_completed: progress.times_completed,
        points: task.points,
      },
    });
  }
  if (progress.times_completed > 1) return;

  const challenge = (await tx.get('challenges', task.challenge_id))!;
  const key: [string, string] = [challenge.challenge_id, user.account_name];
  const record = (await tx.get('member_challenges', key)) ?? {
    challenge_id: challenge.challenge_id,
    account_name: user.account_name,
    app_id: app.app_id,
    tasks_done: 0,
    completed: false,
  };
  record.tasks_done++;
  // A challenge completes once per member, when each task has completed once.
  if (!record.completed && record.tasks_done >= challenge.task_ids.length) {
    record.completed = true;
    user.challenges_completed++;
    earnPoints(user, challenge.points, at);
    await awardChallenge(tx, app, user.account_name, challenge.challenge_id, at);
    if (!replay) {
      tx.recordEvent?.({
        app_id: app.app_id,
        type: 'challenge.completed',
        at,
        data: { ...member, challenge_id: challenge.challenge_id, points: challenge.points },
      });
    }
  }
  tx.put('member_challenges', record);
}
