// The response side of the contract, field for field as the spec's tables: one zod/mini
// schema per answer, and its type inferred from it. The handler's answers are typed by
// them, and the remote strategy checks a remote's answers against the same schemas.
// Objects are not strict: a newer server may add fields.
import * as z from 'zod/mini';
import type { Fixed4 } from './formats.js';
import type { BadgeRule } from './schemas.js';

const success = { is_valid: z.literal(true), message: z.null() };

/** Every failure, whatever the operation: the spec's common shape. */
export const errorBody = z.object({ is_valid: z.literal(false), message: z.string() });
export type ErrorBody = z.infer<typeof errorBody>;

/** What every successful call without a payload answers. */
export const acknowledged = z.object(success);
export type Acknowledged = z.infer<typeof acknowledged>;

export const task = z.object({
  ...success,
  task_id: z.string(),
  name: z.string(),
  quantity: z.number(),
  operator: z.int(),
  /** A JSON object encoded as a string. */
  metadata: z.string(),
  create_date: z.string(),
  resourceurl: z.null(),
  groupname: z.null(),
  allowretry: z.boolean(),
  alloweditquantity: z.boolean(),
  challenge: z.null(),
  /** How a member completes it (docs/quests.md): its kind alone, never a code's answers. Absent from older servers: backend. */
  verification: z.optional(z.object({ kind: z.enum(['backend', 'code', 'review', 'callback']) })),
});
export type Task = z.infer<typeof task>;
export type VerificationKind = NonNullable<Task['verification']>['kind'];

/** A badge as answers show it (get_challenge's `badge`, get_achievements' badges). */
const badgeFields = { badge_id: z.string(), name: z.string(), description: z.string(), image_url: z.nullable(z.string()) };
export const badgeSummary = z.object(badgeFields);
export type BadgeSummary = z.infer<typeof badgeSummary>;

/** What completing a challenge pays, where it pays a badge beside its points (null otherwise, as the seed answered). */
export const rewardData = z.object({ points: z.int(), xp: z.int(), badge_id: z.string() });
export type RewardData = z.infer<typeof rewardData>;

export const challenge = z.object({
  ...success,
  challenge_id: z.string(),
  name: z.string(),
  description: z.string(),
  create_date: z.string(),
  groupid: z.null(),
  badge: z.nullable(badgeSummary),
  tasks: z.array(task),
  rewarddata: z.nullable(rewardData),
});
export type Challenge = z.infer<typeof challenge>;

export const userInfo = z.object({
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
export type UserInfo = z.infer<typeof userInfo>;

/** get_achievements: a type alone, as no answer is checked against it (bytes the worker need not carry). */
export interface Achievements {
  is_valid: true;
  message: null;
  account_name: string;
  badges: (BadgeSummary & { earned_at: string })[];
  streak: { current: number; longest: number; last_day: string | null; freezes_left: number };
}

/** get_badges: every badge of the app, whether the member holds it, and how far they are toward a rule's. */
export interface BadgeWall {
  is_valid: true;
  message: null;
  badges: (BadgeSummary & {
    /** As the definition gives it (docs/rules.md, Badges). */
    rule: BadgeRule;
    earned_at: string | null;
    /** Toward a rule's threshold (a challenge's is 0 or 1 of 1); null for a badge only given by hand. */
    progress: { current: number; target: number } | null;
  })[];
}

/** get_seasons: the app's seasons as a member may see them, in the order they were defined. */
export interface Seasons {
  is_valid: true;
  message: null;
  seasons: { season_id: string; name: string; starts_at: string; ends_at: string; ended: boolean }[];
}

/** get_endorsement: whether the endorsement was made (once made, an endorsement stays). */
export const endorsement = z.object({ ...success, endorsed: z.boolean() });
export type Endorsement = z.infer<typeof endorsement>;

export const taskProgress = z.object({
  ...success,
  task_id: z.string(),
  task_name: z.string(),
  quantity_required: z.number(),
  quantity_completed: z.number(),
});
export type TaskProgress = z.infer<typeof taskProgress>;

/** A member's submission for review, and the reviewer's decision. */
export const submission = z.object({
  submission_id: z.string(),
  task_id: z.string(),
  account_name: z.string(),
  text: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.nullable(z.string()),
  create_date: z.string(),
  review_date: z.nullable(z.string()),
});
export type Submission = z.infer<typeof submission>;

/** submit_task on a review task: the submission waits for review (202). */
export const submissionCreated = z.object({ ...success, submission_id: z.string(), status: z.literal('pending') });
export type SubmissionCreated = z.infer<typeof submissionCreated>;

/** get_submissions and admin/submissions: oldest first. */
export const submissions = z.object({ ...success, submissions: z.array(submission) });
export type Submissions = z.infer<typeof submissions>;
/** The same answer as the handler builds it: quantities are Fixed4, written with four decimals. */
export type TaskProgressWire = Omit<TaskProgress, 'quantity_required' | 'quantity_completed'> & {
  quantity_required: Fixed4;
  quantity_completed: Fixed4;
};

export const leaderboardEntry = z.object({
  rank: z.int(),
  external_user: z.object({ username: z.string() }),
  challenge_count: z.int(),
  task_count: z.int(),
  score: z.int(),
  total_xp: z.int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntry>;

export const leaderboard = z.object({ ...success, leaderboard_users: z.array(leaderboardEntry), total_users: z.int() });
export type Leaderboard = z.infer<typeof leaderboard>;

export const leaderboardHtml = z.object({ ...success, html: z.string() });
export type LeaderboardHtml = z.infer<typeof leaderboardHtml>;

export const airdropResult = z.object({ ...success, tx_id: z.string() });
export type AirdropResult = z.infer<typeof airdropResult>;

export const health = z.object({ ...success, version: z.string() });
export type Health = z.infer<typeof health>;
