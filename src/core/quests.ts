// Quests members complete themselves (docs/quests.md): a task's verification, a code's answers
// kept as hashes, submissions for review and their review.
import {
  CALLBACK_NOT_COMPLETED,
  CALLBACKS_ON_SERVER_ONLY,
  INVALID_INPUT,
  SUBMISSION_ALREADY_REVIEWED,
  SUBMISSION_NOT_FOUND,
  SUBMISSION_PENDING,
  TASK_ALREADY_COMPLETED,
  TASK_COMPLETED_BY_BACKEND,
  TOO_MANY_WRONG_ANSWERS,
  WRONG_ANSWER,
} from '../api/error-codes.js';
import type { QueuedSubmission, SubmissionAnswer } from '../api/admin-responses.js';
import { ApiError } from '../api/errors.js';
import { newGuid } from '../api/formats.js';
import type { Verification } from '../api/schemas.js';
import type {
  AppRecord,
  AttemptsRecord,
  SubmissionRecord,
  TaskRecord,
  TaskVerification,
  Transaction,
  UserRecord,
} from '../store/index.js';
import { assertOpen } from './catalog.js';
import { sha256Hex } from '../api/key-hash.js';
import { logProgress } from './progress.js';

/** Wrong answers a member may give to one task within the window; the next is a 429 until one leaves it. */
export const WRONG_ANSWER_LIMIT = 5;
export const WRONG_ANSWER_WINDOW_MS = 10 * 60_000;

/**
 * A code as compared: trimmed and case-folded, so "  Riverside " and "RIVERSIDE" are one answer.
 * NFKC first, so full-width and compatibility forms (ｒｉｖｅｒ, ﬁ) fold to their plain letters;
 * then toLowerCase, the same in every engine and locale (toLocaleLowerCase would give a Turkish
 * page's İ another answer than the server's).
 */
export const normalizeAnswer = (answer: string) => answer.normalize('NFKC').trim().toLowerCase();

/**
 * The SHA-256 of a normalised answer, in hex: what a task keeps and an export gives. The
 * synchronous SHA-256 (key-hash.ts), not crypto.subtle: a wait for WebCrypto inside an IndexedDB
 * transaction lets it commit, and an http: page has no crypto.subtle at all.
 */
export const answerHash = (answer: string) => sha256Hex(normalizeAnswer(answer));

/** A dataset task's verification as kept: a code's answers, in clear or as hashes, become hashes. */
export function keptVerification(verification: Verification | undefined, field: string): TaskVerification | undefined {
  if (verification === undefined || verification.kind === 'backend') return undefined;
  if (verification.kind !== 'code') return verification;
  const hashes = [...(verification.answers ?? []).map(answerHash), ...(verification.answer_hashes ?? [])];
  if (hashes.length === 0) throw new ApiError(INVALID_INPUT, { field: `${field}.answers`, reason: 'must list an answer' });
  return { kind: 'code', answer_hashes: [...new Set(hashes)] };
}

/** A task's verification kind, with `backend` for a task that has none. */
export const verificationKind = (task: TaskRecord) => task.verification?.kind ?? 'backend';

export interface Submission {
  app: AppRecord;
  task: TaskRecord;
  user: UserRecord;
  answer?: string | undefined;
  text?: string | undefined;
  at: number;
  /** The server's check of a callback task (HandlerOptions.checkCallback); absent where there is none. */
  checkCallback?: CheckCallback | undefined;
}

/**
 * Asks the site whether the member did a callback task (a server's; docs/quests.md). Given the
 * app, whose webhook secrets sign the question. The handler asks it with no transaction open
 * and runs the write again with the verdict.
 */
export type CheckCallback = (
  task: TaskRecord,
  member: UserRecord,
  app: AppRecord,
) => Promise<{ completed: boolean; reason?: string }>;

/** What a submission came to: the task's progress counted, or a submission waiting for review. */
export type Submitted =
  | { kind: 'counted' }
  | { kind: 'pending'; submission: SubmissionRecord }
  /** A wrong code: counted against the member's attempts (committed), and refused. */
  | { kind: 'wrong'; refusal: ApiError };

export async function submitTask(tx: Transaction, submission: Submission): Promise<Submitted> {
  const { app, task, user, at } = submission;
  const verification = task.verification ?? { kind: 'backend' };
  if (verification.kind === 'backend') throw new ApiError(TASK_COMPLETED_BY_BACKEND);
  assertOpen((await tx.get('challenges', task.challenge_id))!, at);
  const progress = await tx.get('progress', [task.task_id, user.account_name]);
  if (progress && progress.times_completed > 0 && !task.allowretry) throw new ApiError(TASK_ALREADY_COMPLETED);
  const complete = () => logProgress(tx, { app, task, user, quantity_e4: task.quantity_e4, at });

  if (verification.kind === 'code') {
    if (submission.answer === undefined) throw new ApiError(INVALID_INPUT, { field: 'answer', reason: 'is required' });
    const attempts = await attemptsOf(tx, task, user);
    attempts.wrong_at = attempts.wrong_at.filter((time) => time > at - WRONG_ANSWER_WINDOW_MS);
    // Refused before the answer is compared, right or wrong, so that guessing on tells nothing.
    if (attempts.wrong_at.length >= WRONG_ANSWER_LIMIT) {
      const seconds = Math.max(1, Math.ceil((attempts.wrong_at[0]! + WRONG_ANSWER_WINDOW_MS - at) / 1000));
      throw new ApiError(
        TOO_MANY_WRONG_ANSWERS,
        { limit: WRONG_ANSWER_LIMIT, minutes: WRONG_ANSWER_WINDOW_MS / 60_000, seconds },
        { 'retry-after': String(seconds) },
      );
    }
    if (!verification.answer_hashes.includes(answerHash(submission.answer))) {
      attempts.wrong_at.push(at);
      tx.put('attempts', attempts);
      return { kind: 'wrong', refusal: new ApiError(WRONG_ANSWER) };
    }
    await complete();
    return { kind: 'counted' };
  }

  if (verification.kind === 'review') {
    const text = submission.text?.trim();
    if (!text) throw new ApiError(INVALID_INPUT, { field: 'text', reason: 'is required' });
    const attempts = await attemptsOf(tx, task, user);
    if (attempts.pending_submission_id !== null) {
      throw new ApiError(SUBMISSION_PENDING, { submission_id: attempts.pending_submission_id });
    }
    const record: SubmissionRecord = {
      submission_id: newGuid(),
      app_id: app.app_id,
      task_id: task.task_id,
      account_name: user.account_name,
      text,
      status: 'pending',
      reason: null,
      created_at: at,
      reviewed_at: null,
    };
    attempts.pending_submission_id = record.submission_id;
    tx.put('attempts', attempts);
    tx.put('submissions', record);
    tx.recordEvent?.({ app_id: app.app_id, type: 'submission.created', at, data: submissionShape(record) });
    return { kind: 'pending', submission: record };
  }

  if (!submission.checkCallback) throw new ApiError(CALLBACKS_ON_SERVER_ONLY);
  const answer = await submission.checkCallback(task, user, app);
  if (!answer.completed) throw new ApiError(CALLBACK_NOT_COMPLETED, { reason: answer.reason ?? 'no reason given.' });
  await complete();
  return { kind: 'counted' };
}

/** Submissions as the review queue lists them: with their tasks' names (a page's few tasks, in one read). */
export async function queuedSubmissions(tx: Transaction, app: AppRecord, page: SubmissionRecord[]): Promise<QueuedSubmission[]> {
  await tx.getMany('tasks', [...new Set(page.map((submission) => submission.task_id))]);
  const queued: QueuedSubmission[] = [];
  for (const submission of page) {
    const task = await tx.get('tasks', submission.task_id);
    queued.push({ ...submissionShape(submission), task_name: task?.app_id === app.app_id ? task.name : null });
  }
  return queued;
}

export interface Review {
  app: AppRecord;
  submission_id: string;
  decision: 'approve' | 'reject';
  reason?: string | undefined;
  at: number;
}

/**
 * Decides a pending submission: approving counts the task once. The submission's record is read
 * locked (a server's write locks what it reads), so of two reviewers at once the second finds it
 * decided: 409, and nothing counted twice.
 */
export async function reviewSubmission(tx: Transaction, review: Review): Promise<SubmissionRecord> {
  const { app, submission_id, decision, at } = review;
  const submission = await tx.get('submissions', submission_id);
  if (!submission || submission.app_id !== app.app_id) throw new ApiError(SUBMISSION_NOT_FOUND, { submission_id });
  if (submission.status !== 'pending') {
    throw new ApiError(SUBMISSION_ALREADY_REVIEWED, { submission_id, status: submission.status });
  }
  const task = await tx.get('tasks', submission.task_id);
  // Refused before anything changes: the bulk review skips it and goes on in the same transaction.
  // Rejecting stays possible, so a retired challenge's queue can be emptied.
  if (decision === 'approve' && task) assertOpen((await tx.get('challenges', task.challenge_id))!, at);
  submission.status = decision === 'approve' ? 'approved' : 'rejected';
  submission.reason = review.reason ?? null;
  submission.reviewed_at = at;
  tx.put('submissions', submission);
  const user = await tx.get('users', [app.app_id, submission.account_name]);
  if (task && user) {
    const attempts = await attemptsOf(tx, task, user);
    attempts.pending_submission_id = null;
    tx.put('attempts', attempts);
    const progress = await tx.get('progress', [task.task_id, user.account_name]);
    const done = progress !== undefined && progress.times_completed > 0 && !task.allowretry;
    if (decision === 'approve' && !done) await logProgress(tx, { app, task, user, quantity_e4: task.quantity_e4, at });
  }
  tx.recordEvent?.({ app_id: app.app_id, type: 'submission.reviewed', at, data: submissionShape(submission) });
  return submission;
}

async function attemptsOf(tx: Transaction, task: TaskRecord, user: UserRecord): Promise<AttemptsRecord> {
  return (
    (await tx.get('attempts', [task.task_id, user.account_name])) ?? {
      task_id: task.task_id,
      account_name: user.account_name,
      app_id: task.app_id,
      wrong_at: [],
      pending_submission_id: null,
    }
  );
}

/** A submission as the API answers it, and as its webhook events tell of it. */
export function submissionShape(submission: SubmissionRecord): SubmissionAnswer {
  return {
    submission_id: submission.submission_id,
    task_id: submission.task_id,
    account_name: submission.account_name,
    text: submission.text,
    status: submission.status,
    reason: submission.reason,
    create_date: new Date(submission.created_at).toISOString(),
    review_date: submission.reviewed_at === null ? null : new Date(submission.reviewed_at).toISOString(),
  };
}
