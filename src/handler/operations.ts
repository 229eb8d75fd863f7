// Every /v1 operation: its methods, the scope its key needs, whether it
// writes, and what it does. Inputs arrive already parsed by their schema.
import type { Changed } from '../api/broadcast.js';
import type * as z from 'zod/mini';
import { ADMIN_KEYS_FROM_OPERATOR, IMPORT_NOT_ALLOWED, INVALID_INPUT, SUBMISSION_NOT_FOUND } from '../api/error-codes.js';
import { ApiError, invalidInput } from '../api/errors.js';
import { canonicalLanguageTag, toQuantityE4 } from '../api/formats.js';
import * as schemas from '../api/schemas.js';
import type { Scope } from '../api/schemas.js';
import { VERSION } from '../api/version.js';
import { requireApp } from '../core/access.js';
import { awardBadge, badgeWall, challengeBadge, defineBadge, findBadge, heldBadges } from '../core/badges.js';
import { assertStarted, badgeSummary, challengeShape, findChallenge, findTask, taskProgressShape } from '../core/catalog.js';
import { exportApp, importDataset } from '../core/dataset.js';
import { endorse } from '../core/endorsements.js';
import { DEFAULT_LIMIT, readLeaderboard } from '../core/leaderboard.js';
import { transfer } from '../core/ledger.js';
import { newMember, userInfo } from '../core/member-totals.js';
import { findApp, findMember } from '../core/lookups.js';
import { logProgress } from '../core/progress.js';
import { freezeEndedSeasons, listSeasons, putSeason, readSeasonBoard, seasonShape } from '../core/seasons.js';
import { streakAt } from '../core/streaks.js';
import { queuedSubmissions, reviewSubmission, submissionShape, submitTask, type CheckCallback } from '../core/quests.js';
import type { ApiKeyRecord, SubmissionRecord, Transaction } from '../store/index.js';
import { renderLeaderboardFragment } from '../ui/index.js';
import { adminOperations } from './admin-operations.js';
import { appFor, define, OK } from './define-operation.js';
import { refuseHttpWebhooks } from './outbound-urls.js';

export interface Call<Input, Query = unknown> {
  input: Input;
  /** The query string, parsed by the operation's `query` schema (POST operations with URL options). */
  query: Query;
  tx: Transaction;
  key: ApiKeyRecord;
  now: number;
  request: Request;
  /** Whether an import may bring installation admin keys (HandlerOptions.adminKeysFromDatasets). */
  mayAddAdminKeys: boolean;
  /** Whether webhook URLs may be http: (HandlerOptions.allowPrivateWebhooks). */
  allowsPrivateWebhooks: boolean;
  /** Throws a 503 when the database does not answer. */
  databaseAnswers(): Promise<void>;
  /** A server's check of callback tasks (HandlerOptions.checkCallback); absent in the worker and the page. */
  checkCallback?: CheckCallback | undefined;
}

export interface Outcome {
  body: unknown;
  status?: number;
  /** The apps and members a committed write changed, for change notices. */
  changed?: Changed | Changed[];
  /** The app whose stream of changes answers the request (GET /v1/events), in place of `body`. */
  changesOf?: string;
  /** Answer `body`, but commit nothing the work wrote: a dry run (import's `dry_run`). */
  rollBack?: boolean;
  /**
   * A refusal answered in place of `body` once the write commits: what the write did stands (a
   * wrong answer counted against the member's attempts) though the request is refused.
   */
  refusal?: ApiError;
}

/**
 * A read an operation makes that a server may ask for before it needs it (read-ahead.ts does each;
 * the compiler holds it to doing every one):
 * - app: the app `app_id` names, as appFor reads it;
 * - member: the member `account_name` names, in the app `app_id` names;
 * - board: a leaderboard's first reads: the member `around` names (on a season's board, their
 *   points in it), or else the page by offset (and a period board's count);
 * - challenge: the challenge `challenge_id` names, then its tasks;
 * - task: the task `task_id` names, and the progress in it of the member `account_name` names;
 * - endorsement: the two members and the endorsement endorse_account reads;
 * - log: what admin/log_task reads once its key is good: its task, then at once its app, member,
 *   challenge and progress, and once the app is read, the day's activity counts.
 */
export type AheadRead = 'app' | 'member' | 'board' | 'challenge' | 'task' | 'endorsement' | 'log';

export interface Operation<Schema extends z.ZodMiniType = z.ZodMiniType, Query extends z.ZodMiniType = z.ZodMiniType> {
  methods: ('GET' | 'POST')[];
  /** Bytes of body accepted; the API's default is 16 KiB. */
  bodyLimit?: number;
  /** The store may be empty: a dataset may then bring the key that imports it. */
  bootstrap?: boolean;
  /** null: no key needed (operational endpoints). */
  scope: Scope | null;
  /** 'none' for operational endpoints, which must answer even when the store cannot. */
  transaction: 'none' | 'read' | 'write';
  /** Transfers wait for the disk: a paid transfer must survive a crash. */
  durability?: 'strict';
  schema: Schema;
  /** Options of a POST in its query string; GET operations read theirs through `schema`. */
  query: Query;
  /** Whether an Idempotency-Key makes a retry answer the first answer. */
  idempotent?: boolean;
  /** Answers with a stream of changes (`Outcome.changesOf`), which only a handler with a change feed has. */
  streamsChanges?: boolean;
  /**
   * The input field naming the member a key with the `member` scope may act as, with a member
   * token naming them (member-access.ts): the operation is then open to such keys. POST only:
   * the token is checked before the body is read.
   */
  asMember?: 'from_account' | 'account_name';
  /**
   * What `run` reads, which a server asks for before run needs it, where each read is a round
   * trip (read-ahead.ts says when). Only what run reads: a guess that differs from what it asks
   * for costs a statement, never a wrong answer.
   */
  readsAhead?: readonly AheadRead[];
  run(call: Call<z.infer<Schema>, z.infer<Query>>): Promise<Outcome>;
}

/** A member's own submissions listed at once: far past what one person sends. */
const MEMBER_SUBMISSIONS = 500;
/** The review queue's default page. */
const QUEUE_PAGE = 50;
/**
 * Datasets are large by nature: an export of a 100,000-member community (about
 * 300 bytes a member with its history) must import again in one request, as a
 * restore. Only a key that may import gets this far: the key is checked before
 * a byte of the body is read, so no stranger can make the server hold it.
 */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/** Each app's member count, null for an app not (yet) in the store. */
const memberCounts = (tx: Transaction, apps: { app_id: string }[]) =>
  Promise.all(apps.map(async ({ app_id }) => (await tx.get('apps', app_id))?.member_count ?? null));

export const operations: Record<string, Operation> = {
  health: define({
    methods: ['GET'],
    scope: null,
    transaction: 'none',
    schema: schemas.healthQuery,
    run: async ({ databaseAnswers }) => {
      await databaseAnswers();
      return { body: { ...OK, version: VERSION } };
    },
  }),

  get_challenge: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getChallengeQuery,
    readsAhead: ['challenge'],
    run: async ({ input, tx, key, now }) => {
      const challenge = await findChallenge(tx, input.challenge_id, key.app_id);
      assertStarted(challenge, now);
      const [tasks, app] = await Promise.all([
        Promise.all(challenge.task_ids.map((task_id) => tx.get('tasks', task_id))),
        findApp(tx, challenge.app_id),
      ]);
      return {
        body: challengeShape(
          challenge,
          tasks.filter((task) => task !== undefined),
          challengeBadge(app, challenge.challenge_id),
        ),
      };
    },
  }),

  endorse_account: define({
    methods: ['POST'],
    scope: 'write',
    asMember: 'from_account',
    transaction: 'write',
    idempotent: true,
    schema: schemas.endorseAccountBody,
    readsAhead: ['endorsement'],
    run: async (call) => {
      const app = await appFor(call);
      const changed = await endorse(call.tx, app, { ...call.input, at: call.now });
      return {
        body: OK,
        ...(changed ? { changed: { app_id: app.app_id, scope: 'members', account_names: [call.input.to_account] } } : {}),
      };
    },
  }),

  get_endorsement: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getEndorsementQuery,
    readsAhead: ['app'],
    run: async (call) => {
      const app = await appFor(call);
      const { from_account, to_account, endorsement_id } = call.input;
      // No member lookups: an endorsement between members who are not (yet) there is simply not made.
      const made = await call.tx.get('endorsements', [app.app_id, from_account, to_account, endorsement_id]);
      return { body: { ...OK, endorsed: made !== undefined } };
    },
  }),

  get_userinfo: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getUserInfoQuery,
    readsAhead: ['app', 'member'],
    run: async (call) => {
      const app = await appFor(call);
      const user = await findMember(call.tx, app.app_id, call.input.account_name);
      return { body: userInfo(user, call.now) };
    },
  }),

  get_achievements: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getAchievementsQuery,
    run: async (call) => {
      const app = await appFor(call);
      const user = await findMember(call.tx, app.app_id, call.input.account_name);
      const held = await heldBadges(call.tx, app, user.account_name);
      const badges = held.map(({ badge, earned_at }) => ({
        ...badgeSummary(badge),
        earned_at: new Date(earned_at).toISOString(),
      }));
      const streak = streakAt(app, user, call.now);
      return { body: { account_name: user.account_name, badges, streak, ...OK } };
    },
  }),

  get_badges: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getBadgesQuery,
    readsAhead: ['app'],
    run: async (call) => {
      const app = await appFor(call);
      const { account_name } = call.input;
      const user = account_name === undefined ? undefined : await call.tx.get('users', [app.app_id, account_name]);
      return { body: { badges: await badgeWall(call.tx, app, user), ...OK } };
    },
  }),

  get_seasons: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getSeasonsQuery,
    readsAhead: ['app'],
    run: async (call) => {
      const app = await appFor(call);
      const seasons = listSeasons(app).map(({ season_id, name, starts_at, ends_at }) => ({
        season_id,
        name,
        starts_at: new Date(starts_at).toISOString(),
        ends_at: new Date(ends_at).toISOString(),
        // Ended by the clock, whether or not a write has frozen its board yet (the board answers the same).
        ended: call.now >= ends_at,
      }));
      return { body: { seasons, ...OK } };
    },
  }),

  get_leaderboard: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getLeaderboardQuery,
    readsAhead: ['app', 'board'],
    run: async (call) => {
      const app = await appFor(call);
      const { input } = call;
      const type = input.leaderboard_type ?? 'score';
      const query = { type, limit: input.limit ?? DEFAULT_LIMIT, offset: input.offset ?? 0, around: input.around };
      const board =
        input.season === undefined
          ? await readLeaderboard(call.tx, app, query, call.now)
          : await readSeasonBoard(call.tx, app, input.season, query);
      if (input.widget_response !== 'html') return { body: board };
      const html = renderLeaderboardFragment(board.leaderboard_users, {
        leaderboardType: type,
        totalUsers: board.total_users,
        offset: query.offset,
        ...(input.around === undefined ? {} : { highlight: input.around }),
        // The page's language, which the embed sends; else the browser's; else English.
        locale: canonicalLanguageTag(input.locale ?? '') ?? acceptedLanguage(call.request) ?? 'en',
      });
      return { body: { html, ...OK } };
    },
  }),

  connect_social: define({
    methods: ['POST'],
    scope: 'write',
    asMember: 'account_name',
    transaction: 'write',
    idempotent: true,
    schema: schemas.connectSocialBody,
    readsAhead: ['member'],
    run: async (call) => {
      const app = await appFor(call);
      const { account_name, twitter_name } = call.input;
      // Saving a profile is also how a member first appears.
      let user = await call.tx.get('users', [app.app_id, account_name]);
      if (!user) {
        user = newMember(app.app_id, account_name, call.now);
        app.member_count++;
        call.tx.put('apps', app);
      }
      user.twitter_name = twitter_name.replace(/^@/, '');
      call.tx.put('users', user);
      return { body: OK, changed: { app_id: app.app_id, scope: 'members', account_names: [account_name] } };
    },
  }),

  get_task_progress: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getTaskProgressQuery,
    readsAhead: ['task'],
    run: async ({ input, tx, key }) => {
      const task = await findTask(tx, input.task_id, key.app_id);
      const user = await findMember(tx, task.app_id, input.account_name);
      const progress = await tx.get('progress', [task.task_id, user.account_name]);
      return { body: taskProgressShape(task, progress) };
    },
  }),

  airdrop_token_ledger: define({
    methods: ['GET', 'POST'],
    scope: 'ledger',
    transaction: 'write',
    idempotent: true,
    durability: 'strict',
    schema: schemas.airdropInput,
    run: async ({ input, tx, key, now }) => {
      // The key's app pays; an installation admin key names the app, and naming another is a 403.
      const app_id = input.app_id ?? key.app_id;
      if (app_id === null)
        throw new ApiError(INVALID_INPUT, { field: 'app_id', reason: 'is required with an installation admin key' });
      const app = await findApp(tx, app_id);
      requireApp(key, app.app_id);
      const tx_id = await transfer(tx, app, { to_address: input.to_address, quantity: String(input.quantity) }, now);
      return { body: { tx_id, ...OK }, changed: { app_id, scope: 'treasury' } };
    },
  }),

  events: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    streamsChanges: true,
    schema: schemas.eventsQuery,
    readsAhead: ['app'],
    run: async (call) => ({ body: null, changesOf: (await appFor(call)).app_id }),
  }),

  'admin/log_task': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.logTaskBody,
    readsAhead: ['log'],
    run: async ({ input, tx, key, now }) => {
      const task = await findTask(tx, input.task_id, key.app_id);
      // A task's app is there while the task is: its member is asked for beside it.
      const [app, user] = await Promise.all([findApp(tx, task.app_id), findMember(tx, task.app_id, input.account_name)]);
      const quantity_e4 = toQuantityE4(input.quantity);
      const progress = await logProgress(tx, { app, task, user, quantity_e4, at: now });
      return {
        body: taskProgressShape(task, progress),
        changed: { app_id: app.app_id, scope: 'members', account_names: [user.account_name] },
      };
    },
  }),

  'admin/seasons': define({
    methods: ['GET', 'POST'],
    scope: 'admin',
    transaction: 'write',
    schema: schemas.seasonsInput,
    run: async (call) => {
      const app = await appFor(call);
      if (call.request.method === 'GET') {
        await freezeEndedSeasons(call.tx, app, call.now);
        return { body: { seasons: listSeasons(app).map(seasonShape), ...OK } };
      }
      const parsed = schemas.seasonBody.safeParse(call.input);
      if (!parsed.success) throw invalidInput(parsed.error, call.input);
      const { season_id, name, starts_at, ends_at, rewards } = parsed.data;
      for (const [index, reward] of (rewards ?? []).entries()) findBadge(app, reward.badge_id, `rewards.${index}.badge_id`);
      const season = putSeason(call.tx, app, {
        season_id,
        name,
        starts_at: Date.parse(starts_at),
        ends_at: Date.parse(ends_at),
        rewards: rewards ?? [],
      });
      await freezeEndedSeasons(call.tx, app, call.now);
      return { body: { season: seasonShape(season), ...OK }, changed: { app_id: app.app_id, scope: 'app' } };
    },
  }),

  'admin/badges': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.defineBadgeBody,
    run: async (call) => {
      const app = await appFor(call);
      const { badge_id, name, description, image_url = null, rule } = call.input;
      const awarded = await defineBadge(call.tx, app, { badge_id, name, description, image_url, rule }, call.now);
      const changed: Changed[] = [{ app_id: app.app_id, scope: 'app' }];
      return { body: { ...OK, awarded: awarded.length }, changed };
    },
  }),

  'admin/award_badge': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.awardBadgeBody,
    run: async (call) => {
      const app = await appFor(call);
      findBadge(app, call.input.badge_id);
      const user = await findMember(call.tx, app.app_id, call.input.account_name);
      const awarded = await awardBadge(call.tx, app, call.input.badge_id, user.account_name, call.now, 'manual');
      return {
        body: { ...OK, awarded },
        ...(awarded ? { changed: { app_id: app.app_id, scope: 'members', account_names: [user.account_name] } } : {}),
      };
    },
  }),

  submit_task: define({
    methods: ['POST'],
    scope: 'write',
    asMember: 'account_name',
    transaction: 'write',
    schema: schemas.submitTaskBody,
    run: async ({ input, tx, key, now, checkCallback }) => {
      const task = await findTask(tx, input.task_id, key.app_id);
      const app = await findApp(tx, task.app_id);
      // Completing a quest is also how a member first appears, as saving a profile is.
      const known = await tx.get('users', [app.app_id, input.account_name]);
      const user = known ?? newMember(app.app_id, input.account_name, now);
      const submitted = await submitTask(tx, {
        app,
        task,
        user,
        answer: input.answer,
        text: input.text,
        at: now,
        checkCallback,
      });
      // A wrong answer counts nothing, not even a new member: only the attempt.
      if (submitted.kind === 'wrong') return { body: null, refusal: submitted.refusal };
      if (!known) {
        app.member_count++;
        tx.put('apps', app);
        tx.put('users', user);
      }
      // A pending submission is a change too: the member's other tabs show it as pending.
      const changed: Changed = { app_id: app.app_id, scope: 'members', account_names: [user.account_name] };
      if (submitted.kind === 'pending') {
        const { submission_id, status } = submitted.submission;
        return { status: 202, body: { ...OK, submission_id, status }, changed };
      }
      const progress = await tx.get('progress', [task.task_id, user.account_name]);
      return { body: taskProgressShape(task, progress), changed };
    },
  }),

  get_submissions: define({
    methods: ['GET'],
    scope: 'read',
    transaction: 'read',
    schema: schemas.getSubmissionsQuery,
    run: async (call) => {
      const app = await appFor(call);
      const found = await call.tx.listSubmissions(app.app_id, { account_name: call.input.account_name }, 0, MEMBER_SUBMISSIONS);
      return { body: { ...OK, submissions: found.map(submissionShape) } };
    },
  }),

  'admin/submissions': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.adminSubmissionsQuery,
    run: async (call) => {
      const app = await appFor(call);
      const { status, offset = 0, limit = QUEUE_PAGE } = call.input;
      const found = await call.tx.listSubmissions(app.app_id, status ? { status } : {}, offset, limit + 1);
      const page = found.slice(0, limit);
      return {
        body: {
          ...OK,
          submissions: await queuedSubmissions(call.tx, app, page),
          // Where the next page starts; null on the last.
          next_offset: found.length > limit ? offset + limit : null,
        },
      };
    },
  }),

  'admin/review': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.reviewBody,
    run: async ({ input, tx, key, now }) => {
      const { decision, reason } = input;
      const reviewOne = async (submission_id: string) => {
        const submission = await tx.get('submissions', submission_id);
        // Another app's submission is "not found", as its challenges are.
        const app =
          submission && (key.app_id === null || key.app_id === submission.app_id)
            ? await findApp(tx, submission.app_id)
            : undefined;
        if (!app) throw new ApiError(SUBMISSION_NOT_FOUND, { submission_id });
        return reviewSubmission(tx, { app, submission_id, decision, reason, at: now });
      };
      const changedOf = (reviewed: SubmissionRecord[]) =>
        reviewed.map((submission) => ({
          app_id: submission.app_id,
          scope: 'members' as const,
          account_names: [submission.account_name],
        }));
      if ('submission_id' in input) {
        const reviewed = await reviewOne(input.submission_id);
        return { body: { ...OK, submission: submissionShape(reviewed) }, changed: changedOf([reviewed]) };
      }
      // The bulk form reviews what it can: a submission already decided (by another reviewer) or
      // not found is listed as skipped, with its code, and the rest are decided.
      const reviewed: SubmissionRecord[] = [];
      const skipped: { submission_id: string; code: string }[] = [];
      for (const submission_id of new Set(input.submission_ids)) {
        try {
          reviewed.push(await reviewOne(submission_id));
        } catch (error) {
          if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 409)) throw error;
          skipped.push({ submission_id, code: error.code });
        }
      }
      return { body: { ...OK, reviewed: reviewed.map(submissionShape), skipped }, changed: changedOf(reviewed) };
    },
  }),

  'admin/import': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    bootstrap: true,
    bodyLimit: IMPORT_BODY_LIMIT,
    schema: schemas.dataset,
    query: schemas.importQuery,
    run: async ({ input, query, tx, key, now, mayAddAdminKeys, allowsPrivateWebhooks }) => {
      // An app's own admin key may load that app, and nothing more.
      if (key.app_id !== null) {
        const foreign = (input.apps ?? []).some((app) => app.app_id !== key.app_id);
        if (foreign || input.admin_keys?.length) {
          throw new ApiError(IMPORT_NOT_ALLOWED);
        }
      }
      if (input.admin_keys?.length && !mayAddAdminKeys) {
        throw new ApiError(ADMIN_KEYS_FROM_OPERATOR);
      }
      if (!allowsPrivateWebhooks) refuseHttpWebhooks(input);
      const membersBefore = query.dry_run ? await memberCounts(tx, input.apps ?? []) : null;
      const app_ids = await importDataset(tx, input, query.mode ?? 'merge', now, key.app_id);
      if (membersBefore !== null) {
        // The import ran in full, as it would have: what it did is measured, then rolled back.
        const membersAfter = await memberCounts(tx, input.apps ?? []);
        const changes = (input.apps ?? []).map((app, index) => ({
          app_id: app.app_id,
          new_app: membersBefore[index] === null,
          members_before: membersBefore[index] ?? 0,
          members_after: membersAfter[index] ?? 0,
          challenges: app.challenges?.length ?? 0,
          tasks: app.challenges?.reduce((sum, challenge) => sum + (challenge.tasks?.length ?? 0), 0) ?? 0,
          progress: app.progress?.length ?? 0,
        }));
        return { body: { ...OK, app_ids, dry_run: true, changes }, rollBack: true };
      }
      return { body: { ...OK, app_ids }, changed: app_ids.map((app_id) => ({ app_id, scope: 'app' as const })) };
    },
  }),

  'admin/webhook_deliveries': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.webhookDeliveriesQuery,
    run: async (call) => {
      const app = await appFor(call);
      const { limit = DEFAULT_LIMIT, offset = 0 } = call.input;
      // A browser's own store keeps no deliveries (it has no backend to tell): its list is empty.
      const deliveries = (await call.tx.webhookDeliveries?.(app.app_id, offset, limit)) ?? [];
      return {
        body: {
          ...OK,
          app_id: app.app_id,
          offset,
          limit,
          deliveries,
        },
      };
    },
  }),

  'admin/webhook_redeliver': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    schema: schemas.webhookRedeliverBody,
    run: async (call) => {
      const app = await appFor(call);
      const found = (await call.tx.redeliverWebhook?.(app.app_id, call.input.delivery_id, call.now)) ?? false;
      if (!found) throw new ApiError(INVALID_INPUT, { field: 'delivery_id', reason: 'no such delivery of this app' });
      return { body: { ...OK, delivery_id: call.input.delivery_id, status: 'pending' } };
    },
  }),

  'admin/export': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.exportQuery,
    readsAhead: ['app'],
    run: async (call) => ({ body: { ...(await exportApp(call.tx, await appFor(call))), ...OK } }),
  }),
  ...adminOperations,
};

/** The most preferred language of Accept-Language that is a BCP 47 tag, or null. */
function acceptedLanguage(request: Request): string | null {
  const ranked = (request.headers.get('accept-language') ?? '')
    .split(',')
    .map((item, index) => {
      const [tag = '', ...parameters] = item.split(';').map((part) => part.trim());
      const quality = parameters.find((parameter) => parameter.startsWith('q='));
      return { tag, quality: quality === undefined ? 1 : Number(quality.slice(2)), index };
    })
    .filter(({ quality }) => quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const canonical = tag === '*' ? null : canonicalLanguageTag(tag);
    if (canonical) return canonical;
  }
  return null;
}
