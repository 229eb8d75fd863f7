// The admin API a community manager's console drives (docs/api.md, "The admin API"): apps,
// keys, member-token keys, members, challenges and the audit log. Every write here is one
// transaction, kept in the audit log by the handler (audit.ts), and needs the admin scope.
import { INVALID_INPUT, KEY_NOT_FOUND, MEMBER_TOKEN_KEY_NOT_FOUND, MEMBER_TOKEN_KEY_TAKEN } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { formatCoins, toQuantityE4 } from '../api/formats.js';
import { sha256Hex } from '../api/key-hash.js';
import { algorithmOfCurve } from '../api/member-tokens.js';
import type { AdminStats } from '../api/admin-responses.js';
import * as schemas from '../api/schemas.js';
import { findTask, taskProgressShape } from '../core/catalog.js';
import { readActivity } from '../core/activity.js';
import { exportChallenge, importDataset } from '../core/dataset.js';
import { findMember } from '../core/lookups.js';
import { userInfo } from '../core/member-totals.js';
import { removeWebhook, saveWebhook, webhookShape } from '../core/webhooks.js';
import { logProgress } from '../core/progress.js';
import type { TaskRecord, UserRecord } from '../store/index.js';
import type { Operation } from './operations.js';
import { appFor, define, OK } from './define-operation.js';
import { refuseHttp, refuseHttpWebhooks } from './outbound-urls.js';

/** An installation has a handful of communities; a console lists this many at most. */
const MAX_LISTED_APPS = 1000;
const MEMBERS_PAGE = 20;
const AUDIT_PAGE = 50;
const LEDGER_PAGE = 50;
/**
 * Pending submissions the overview counts: beyond it, it says "more", and reads no more of them
 * (the queue is listed a page at a time in the reviews section).
 */
export const PENDING_REVIEWS_COUNTED = 100;

/** A member's totals as get_userinfo answers them, without its answer's own is_valid and message. */
function totalsOf(member: UserRecord, now: number) {
  const { is_valid: _valid, message: _message, ...totals } = userInfo(member, now);
  return totals;
}

/** A key's id: the start of its hash, which tells an app's keys apart and stands for none of them. */
const keyId = (key_sha256: string) => key_sha256.slice(0, schemas.KEY_ID_LENGTH);

/** A new key: 32 random bytes, base64url, after a prefix saying what it is for. */
function newApiKey(admin: boolean): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const text = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `${admin ? 'sk' : 'pk'}_${text}`;
}

export const adminOperations: Record<string, Operation> = {
  'admin/apps': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.adminAppsQuery,
    run: async ({ tx, key }) => {
      const ids = key.app_id === null ? await tx.appIds(MAX_LISTED_APPS) : [key.app_id];
      const apps = await Promise.all(ids.map((app_id) => tx.get('apps', app_id)));
      return {
        body: {
          ...OK,
          apps: apps.flatMap((app) => (app ? [{ app_id: app.app_id, name: app.name, member_count: app.member_count }] : [])),
        },
      };
    },
  }),

  'admin/keys': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.appQuery,
    run: async (call) => {
      const app = await appFor(call);
      const keys = (await call.tx.keysOf(app.app_id)).filter((key) => key.revoked_at === undefined);
      return { body: { ...OK, keys: keys.map((key) => ({ key_id: keyId(key.key_sha256), scopes: key.scopes })) } };
    },
  }),

  'admin/create_key': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    // No Idempotency-Key: the new key is answered once and kept nowhere in clear, not even in an
    // idempotency record. A retry makes a second key, which the first answer's loss leaves unused.
    schema: schemas.createKeyBody,
    run: async (call) => {
      const app = await appFor(call);
      const key = newApiKey(call.input.scopes.includes('admin'));
      const key_sha256 = sha256Hex(key);
      call.tx.put('api_keys', { key_sha256, app_id: app.app_id, scopes: call.input.scopes });
      return { body: { ...OK, key, key_id: keyId(key_sha256), scopes: call.input.scopes } };
    },
  }),

  'admin/revoke_key': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.revokeKeyBody,
    run: async (call) => {
      const app = await appFor(call);
      const key = (await call.tx.keysOf(app.app_id)).find((candidate) => keyId(candidate.key_sha256) === call.input.key_id);
      if (!key) throw new ApiError(KEY_NOT_FOUND, { key_id: call.input.key_id });
      // Kept, marked: the audit log still names it, and nobody can take its place by chance.
      if (key.revoked_at === undefined) call.tx.put('api_keys', { ...key, revoked_at: call.now });
      return { body: OK };
    },
  }),

  'admin/member_token_keys': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.appQuery,
    // What tells the keys apart and what they verify: never the key material (public as it is).
    run: async (call) => {
      const app = await appFor(call);
      const keys = (app.member_token_keys ?? []).map(({ kid, kty, crv }) => ({ kid, alg: algorithmOfCurve(crv), kty, crv }));
      return { body: { ...OK, keys } };
    },
  }),

  'admin/add_member_token_key': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.addMemberTokenKeyBody,
    run: async (call) => {
      const app = await appFor(call);
      const keys = app.member_token_keys ?? [];
      if (keys.some((key) => key.kid === call.input.key.kid))
        throw new ApiError(MEMBER_TOKEN_KEY_TAKEN, { kid: call.input.key.kid });
      if (keys.length >= schemas.MAX_MEMBER_TOKEN_KEYS) {
        const reason = `the app holds ${schemas.MAX_MEMBER_TOKEN_KEYS} keys, the most it may: remove one first`;
        throw new ApiError(INVALID_INPUT, { field: 'key', reason });
      }
      call.tx.put('apps', { ...app, member_token_keys: [...keys, call.input.key] });
      return { body: OK, changed: { app_id: app.app_id, scope: 'app' } };
    },
  }),

  'admin/remove_member_token_key': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.removeMemberTokenKeyBody,
    run: async (call) => {
      const app = await appFor(call);
      const keys = app.member_token_keys ?? [];
      if (!keys.some((key) => key.kid === call.input.kid))
        throw new ApiError(MEMBER_TOKEN_KEY_NOT_FOUND, { kid: call.input.kid });
      call.tx.put('apps', { ...app, member_token_keys: keys.filter((key) => key.kid !== call.input.kid) });
      return { body: OK, changed: { app_id: app.app_id, scope: 'app' } };
    },
  }),

  'admin/webhooks': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.appQuery,
    run: async (call) => {
      const app = await appFor(call);
      return { body: { ...OK, webhooks: (app.webhooks ?? []).map(webhookShape) } };
    },
  }),

  'admin/save_webhook': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    // No Idempotency-Key, as for admin/create_key: a secret made here is answered once and kept
    // in no idempotency record. Saving the same endpoint twice leaves it as once, but for a
    // second new secret, which the first answer's loss leaves unused.
    schema: schemas.saveWebhookBody,
    run: async (call) => {
      const app = await appFor(call);
      if (!call.allowsPrivateWebhooks) refuseHttp('url', call.input.url);
      const { webhooks, secret } = saveWebhook(app, call.input, call.now);
      call.tx.put('apps', { ...app, webhooks });
      const webhook = webhookShape(webhooks.find((endpoint) => endpoint.url === call.input.url)!);
      return { body: { ...OK, webhook, ...(secret === null ? {} : { secret }) } };
    },
  }),

  'admin/remove_webhook': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.removeWebhookBody,
    run: async (call) => {
      const app = await appFor(call);
      const webhooks = removeWebhook(app, call.input.url);
      const { webhooks: _removed, ...rest } = app;
      call.tx.put('apps', webhooks.length > 0 ? { ...app, webhooks } : rest);
      return { body: OK };
    },
  }),

  'admin/members': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.membersQuery,
    run: async (call) => {
      const app = await appFor(call);
      const { prefix = '', offset = 0, limit = MEMBERS_PAGE } = call.input;
      const members = await call.tx.membersNamed(app.app_id, prefix, offset, limit);
      return { body: { ...OK, members: members.map((member) => totalsOf(member, call.now)) } };
    },
  }),

  'admin/member': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.memberQuery,
    run: async (call) => {
      const app = await appFor(call);
      const member = await findMember(call.tx, app.app_id, call.input.account_name);
      return { body: { ...OK, member: totalsOf(member, call.now) } };
    },
  }),

  'admin/adjust': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.adjustBody,
    // The reason is the audit log's (audit.ts): the progress itself is logged as admin/log_task logs it.
    run: async (call) => {
      const app = await appFor(call);
      const task = await findTask(call.tx, call.input.task_id, app.app_id);
      const user = await findMember(call.tx, app.app_id, call.input.account_name);
      const quantity_e4 = toQuantityE4(call.input.quantity);
      const progress = await logProgress(call.tx, { app, task, user, quantity_e4, at: call.now });
      return {
        body: taskProgressShape(task, progress),
        changed: { app_id: app.app_id, scope: 'members', account_names: [user.account_name] },
      };
    },
  }),

  'admin/set_active': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.setActiveBody,
    run: async (call) => {
      const app = await appFor(call);
      const user = await findMember(call.tx, app.app_id, call.input.account_name);
      if (user.is_active !== call.input.active) call.tx.put('users', { ...user, is_active: call.input.active });
      return { body: OK, changed: { app_id: app.app_id, scope: 'members', account_names: [user.account_name] } };
    },
  }),

  'admin/challenges': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.appQuery,
    run: async (call) => {
      const app = await appFor(call);
      const challenges = await call.tx.challengesOf(app.app_id);
      const taskIds = challenges.flatMap((challenge) => challenge.task_ids);
      await call.tx.getMany('tasks', taskIds);
      const tasks = new Map<string, TaskRecord>();
      for (const task_id of taskIds) {
        const task = await call.tx.get('tasks', task_id);
        if (task) tasks.set(task_id, task);
      }
      const shaped = challenges.map((challenge) => exportChallenge(challenge, tasks));
      return { body: { ...OK, challenges: shaped } };
    },
  }),

  'admin/save_challenge': define({
    methods: ['POST'],
    scope: 'admin',
    transaction: 'write',
    idempotent: true,
    schema: schemas.upsertChallengeBody,
    // A challenge as the import shape writes it, created or (with its challenge_id) updated: one
    // home for what a challenge and its tasks may be.
    run: async (call) => {
      const app = await appFor(call);
      const dataset = { apps: [{ app_id: app.app_id, challenges: [call.input.challenge] }] };
      if (!call.allowsPrivateWebhooks) refuseHttpWebhooks(dataset);
      await importDataset(call.tx, dataset, 'merge', call.now, call.key.app_id);
      return { body: OK, changed: { app_id: app.app_id, scope: 'app' } };
    },
  }),

  'admin/ledger': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.ledgerQuery,
    // The balance and a page of the transfers read in one transaction: the page never shows a
    // transfer the balance has not paid, nor misses one it has.
    run: async (call) => {
      const app = await appFor(call);
      const { offset = 0, limit = LEDGER_PAGE } = call.input;
      const { treasury } = app;
      const transfers = await call.tx.transfersPage(app.app_id, offset, limit);
      return {
        body: {
          ...OK,
          treasury: treasury ? { account_id: treasury.account_id, balance: formatCoins(BigInt(treasury.balance)) } : null,
          offset,
          limit,
          transfers: transfers.map(({ app_id: _app, ...transfer }) => transfer),
        },
      };
    },
  }),

  'admin/stats': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.adminStatsQuery,
    run: async (call) => {
      const app = await appFor(call);
      const [activity, pending] = await Promise.all([
        readActivity(call.tx, app, call.now),
        call.tx.listSubmissions(app.app_id, { status: 'pending' }, 0, PENDING_REVIEWS_COUNTED + 1),
      ]);
      const stats: AdminStats = {
        ...OK,
        member_count: app.member_count,
        ...activity,
        pending_reviews: Math.min(pending.length, PENDING_REVIEWS_COUNTED),
        pending_reviews_capped: pending.length > PENDING_REVIEWS_COUNTED,
      };
      return { body: stats };
    },
  }),

  'admin/audit': define({
    methods: ['GET'],
    scope: 'admin',
    transaction: 'read',
    schema: schemas.auditQuery,
    run: async (call) => {
      const app = await appFor(call);
      const { before = Number.MAX_SAFE_INTEGER, limit = AUDIT_PAGE } = call.input;
      return { body: { ...OK, entries: await call.tx.auditPage(app.app_id, before, limit) } };
    },
  }),
};
