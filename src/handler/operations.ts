// Every /v1 operation: its methods, the scope its key needs, whether it
// writes, and what it does. Inputs arrive already parsed by their schema.
import type { Changed } from '../api/broadcast.js';
import type * as z from 'zod/mini';
import { ADMIN_KEYS_FROM_OPERATOR, IMPORT_NOT_ALLOWED, INVALID_INPUT } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { canonicalLanguageTag, toQuantityE4 } from '../api/formats.js';
import * as schemas from '../api/schemas.js';
import type { Scope } from '../api/schemas.js';
import { VERSION } from '../api/version.js';
import { requireApp } from '../core/access.js';
import { assertStarted, challengeShape, findChallenge, findTask, taskProgressShape } from '../core/catalog.js';
import { exportApp, importDataset } from '../core/dataset.js';
import { endorse } from '../core/endorsements.js';
import { DEFAULT_LIMIT, readLeaderboard } from '../core/leaderboard.js';
import { transfer } from '../core/ledger.js';
import { newMember, userInfo } from '../core/member-totals.js';
import { findApp, findMember } from '../core/lookups.js';
import { logProgress } from '../core/progress.js';
import type { ApiKeyRecord, Transaction } from '../store/index.js';
import { renderLeaderboardFragment } from '../ui/index.js';

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
  /** Throws a 503 when the database does not answer. */
  databaseAnswers(): Promise<void>;
}

export interface Outcome {
  body: unknown;
  status?: number;
  /** The apps and members a committed write changed, for change notices. */
  changed?: Changed | Changed[];
  /** The app whose stream of changes answers the request (GET /v1/events), in place of `body`. */
  changesOf?: string;
}

/**
 * A read an operation makes that a server may ask for before it needs it (read-ahead.ts does each;
 * the compiler holds it to doing every one):
 * - app: the app `app_id` names, as appFor reads it;
 * - member: the member `account_name` names, in the app `app_id` names;
 * - board: a leaderboard's first reads: the member `around` names, or else the page by offset
 *   (and a period board's count);
 * - challenge: the challenge `challenge_id` names, then its tasks;
 * - task: the task `task_id` names, and the progress in it of the member `account_name` names;
 * - endorsement: the two members and the endorsement endorse_account reads;
 * - log: what admin/log_task reads once its key is good: its task, then at once its app, member,
 *   challenge and progress.
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

const OK = { is_valid: true, message: null } as const;
/**
 * Datasets are large by nature: an export of a 100,000-member community (about
 * 300 bytes a member with its history) must import again in one request, as a
 * restore. Only a key that may import gets this far: the key is checked before
 * a byte of the body is read, so no stranger can make the server hold it.
 */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

const define = <Schema extends z.ZodMiniType, Query extends z.ZodMiniType = typeof schemas.anyQuery>(
  operation: Omit<Operation<Schema, Query>, 'query'> & { query?: Query },
) => ({ query: schemas.anyQuery, ...operation }) as unknown as Operation;

/** The app named by the input, which the key must belong to. */
async function appFor(call: Call<{ app_id: string }>) {
  const app = await findApp(call.tx, call.input.app_id);
  requireApp(call.key, app.app_id);
  return app;
}

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
      const tasks = await Promise.all(challenge.task_ids.map((task_id) => tx.get('tasks', task_id)));
      return {
        body: challengeShape(
          challenge,
          tasks.filter((task) => task !== undefined),
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
      const board = await readLeaderboard(call.tx, app, query, call.now);
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
      const tx_id = transfer(tx, app, { to_address: input.to_address, quantity: String(input.quantity) }, now);
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
      const app = await findApp(tx, task.app_id);
      const user = await findMember(tx, app.app_id, input.account_name);
      const quantity_e4 = toQuantityE4(input.quantity);
      const progress = await logProgress(tx, { app, task, user, quantity_e4, at: now });
      return {
        body: taskProgressShape(task, progress),
        changed: { app_id: app.app_id, scope: 'members', account_names: [user.account_name] },
      };
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
    run: async ({ input, query, tx, key, now, mayAddAdminKeys }) => {
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
      const app_ids = await importDataset(tx, input, query.mode ?? 'merge', now, key.app_id);
      return { body: { ...OK, app_ids }, changed: app_ids.map((app_id) => ({ app_id, scope: 'app' as const })) };
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
