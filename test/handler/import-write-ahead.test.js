// An import replays its progress a member at a time, and the SQL store writes the records of
// each few hundred members done while the rules replay the next (Transaction.writeAhead, in
// src/core/dataset.ts and src/store/sql/transaction.ts). What it derives must be what the same
// members and logs derive imported in parts too small to write ahead: every member's totals and
// progress, every board's order; a member endorsed after being written ahead is written again;
// and the log of quantities keeps the dataset's progress in time order. A log refused after
// members were written ahead fails the whole import: nothing of it stays. On PGlite (whose
// statements are recorded) and on PostgreSQL (whose driver pipelines them).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { callHandler } from '../handler-call.js';
import { skipWithoutPostgres } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';
import { recordingStore } from '../store/sql/recording-store.js';

const ADMIN = 'sk_write_ahead_admin';
const MEMBERS = 1200;
/** Below the members an import writes ahead at a time (500): these parts never do. */
const PART = 300;
const NOW = Date.parse('2026-11-25T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
/** @typedef {import('../../src/store/sql/index.js').SqlStore} SqlStore */
/**
 * A request to the handler, answered as callHandler answers: `body` is any, as JSON parsed is, the
 * tests reading whichever answer's fields they check.
 * @typedef {(method: string, path: string, body?: unknown) => Promise<{ status: number, body: any }>} Call
 */

/**
 * @param {number} app
 * @param {number} n
 */
const guid = (app, n) => `d0000000-0000-4000-8000-${String(app * 100 + n).padStart(12, '0')}`;
/** @param {number} i */
const name = (i) => `m-${String((i * 7919) % MEMBERS).padStart(4, '0')}`;

/** @type {typeof import('../../src/handler/handler.js') & typeof import('../../src/store/sql/index.js')} */
let source;
before(async () => {
  source = await importSource('src/handler/handler.ts', 'src/store/sql/index.ts');
});

/**
 * The app's definition, and its members, progress and endorsements in a deterministic spread.
 * @param {number} app
 */
function dataset(app) {
  const tasks = [
    { task_id: guid(app, 2), name: 'Post', quantity: 2, operator: 0, points: 10, allowretry: true },
    { task_id: guid(app, 3), name: 'Thread', quantity: 3, operator: 1, points: 20 },
    { task_id: guid(app, 4), name: 'Reply', quantity: 5, operator: 0, points: 30 },
  ].map((task) => ({ ...task, create_date: '2026-01-01T00:00:00Z' }));
  /** @type {{ account_name: string, id?: string }[]} */
  const users = [];
  /** @type {{ task_id: string, account_name: string, quantity: number, at: string }[]} */
  const progress = [];
  for (let i = 0; i < MEMBERS; i++) {
    users.push({ account_name: name(i), id: `e0000000-0000-4000-8000-${String(i).padStart(12, '0')}` });
    // Members' logs interleaved in time, several at the same instant: the log's order must be the dataset's.
    for (let log = 0; log < i % 4; log++) {
      const at = new Date(NOW - ((i * 13 + log * 29) % 40) * DAY).toISOString();
      progress.push({ task_id: tasks[(i + log) % 3].task_id, account_name: name(i), quantity: 1 + ((i + log) % 4), at });
    }
  }
  // Received by members written ahead early in the replay and late: each receiver is written again.
  const endorsements = [];
  for (let i = 0; i < MEMBERS; i += 37) {
    endorsements.push({
      from_account: name(i + 1),
      to_account: name(i),
      endorsement_id: 'kind',
      at: new Date(NOW).toISOString(),
    });
  }
  return {
    app_id: `app-${app}`,
    api_keys: [{ key: `pk_app_${app}`, scopes: ['read', 'write'] }],
    challenges: [
      {
        challenge_id: guid(app, 1),
        name: 'All three',
        start_date: '2026-01-01T00:00:00Z',
        create_date: '2026-01-01T00:00:00Z',
        tasks,
      },
    ],
    users,
    progress,
    endorsements,
  };
}

/**
 * A caller of the handler over `store`, as the admin, with JSON.
 * @param {SqlStore} store
 * @returns {Call}
 */
function callerOf(store) {
  const handle = source.createHandler({ store, now: () => new Date(NOW) });
  return (method, path, body) => callHandler(handle, method, path, ADMIN, body);
}

/**
 * App 1 in one import, written ahead; app 2, the same members and logs under other ids, in parts.
 * @param {Call} call
 */
async function importBoth(call) {
  const whole = dataset(1);
  const first = await call('POST', '/v1/admin/import', { admin_keys: [ADMIN], apps: [whole] });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const parts = dataset(2);
  const { users, progress, endorsements, ...definition } = parts;
  const answer = await call('POST', '/v1/admin/import', { apps: [definition] });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  for (let start = 0; start < MEMBERS; start += PART) {
    const members = new Set(users.slice(start, start + PART).map((user) => user.account_name));
    const part = {
      app_id: parts.app_id,
      users: users.slice(start, start + PART),
      progress: progress.filter((log) => members.has(log.account_name)),
    };
    const imported = await call('POST', '/v1/admin/import', { apps: [part] });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
  }
  const endorsed = await call('POST', '/v1/admin/import', { apps: [{ app_id: parts.app_id, endorsements }] });
  assert.equal(endorsed.status, 200, JSON.stringify(endorsed.body));
  return whole;
}

/**
 * Every member's info and progress on one task, and every board in pages, as answered.
 * @param {Call} call
 * @param {number} app
 */
async function answers(call, app) {
  const paths = [];
  for (let i = 0; i < MEMBERS; i++) {
    paths.push(`/v1/get_userinfo?app_id=app-${app}&account_name=${name(i)}`);
    paths.push(`/v1/get_task_progress?task_id=${guid(app, 2 + (i % 3))}&account_name=${name(i)}`);
  }
  for (const type of ['score', 'xp', 'weekly', 'monthly']) {
    for (let offset = 0; offset < MEMBERS; offset += 500) {
      paths.push(`/v1/get_leaderboard?app_id=app-${app}&leaderboard_type=${type}&offset=${offset}&limit=500`);
    }
  }
  const texts = [];
  for (const path of paths) {
    const { status, body } = await call('GET', path);
    assert.equal(status, 200, `${path}: ${JSON.stringify(body)}`);
    // The apps' task ids differ only by the app's number.
    texts.push(JSON.stringify(body).replaceAll(`d0000000-0000-4000-8000-000000000${app}0`, 'TASK-'));
  }
  return texts;
}

/**
 * The checks of one engine's store, opened by `open` (null: PostgreSQL does not answer, and they are skipped, or failed in CI).
 * @param {() => Promise<{ store: SqlStore, sent?: string[] } | null>} open
 * @param {{ recorded?: boolean }} [options]
 */
function checksOn(open, { recorded = false } = {}) {
  /** @type {Call} */
  let call;
  /** @type {SqlStore | undefined} */
  let store;
  /** @type {string[] | undefined} */
  let sent;
  /**
   * The statements of the import written ahead, in order (recorded stores only).
   * @type {string[]}
   */
  let sentByWhole;
  /** @type {ReturnType<typeof dataset>} */
  let whole;
  before(async () => {
    ({ store, sent } = (await open()) ?? {});
    if (!store) return;
    call = callerOf(store);
    if (sent) sent.length = 0;
    whole = await importBoth(async (...args) => {
      const answer = await call(...args);
      if (sent && sentByWhole === undefined) sentByWhole = [...sent];
      return answer;
    });
  });
  after(() => store?.close());

  if (recorded) {
    it("wrote members' records while the rules ran on, and again those endorsed after", () => {
      const inserts = sentByWhole.filter((label) => label === 'INSERT users');
      const firstBoardRead = sentByWhole.indexOf('SELECT board_blocks');
      assert.ok(
        sentByWhole.indexOf('INSERT users') < firstBoardRead,
        `members written before the flush: ${sentByWhole.join(', ')}`,
      );
      // Two batches of 500 ahead; the rest, and the members endorsed, at the flush.
      assert.ok(inserts.length >= 3, `${inserts.length} writes of members`);
    });
  }

  it('derives what the same members and logs derive imported in parts', async (t) => {
    if (!store) return skipWithoutPostgres(t);
    const [one, parts] = [await answers(call, 1), await answers(call, 2)];
    assert.deepEqual(one, parts);
    // Not all alike: members differ in score, so the boards' order is tested.
    assert.ok(new Set(one.filter((text) => text.includes('"total_score"'))).size > 10);
  });

  it("keeps the log of quantities in the dataset's time order", async (t) => {
    if (!store) return skipWithoutPostgres(t);
    const { status, body } = await call('GET', '/v1/admin/export?app_id=app-1');
    assert.equal(status, 200);
    /** @param {{ task_id: string, account_name: string, quantity: number, at: string }} log */
    const line = (log) => `${log.task_id} ${log.account_name} ${log.quantity} ${Date.parse(log.at)}`;
    const inTimeOrder = whole.progress
      .map((log, index) => ({ log, index }))
      .sort((a, b) => Date.parse(a.log.at) - Date.parse(b.log.at) || a.index - b.index)
      .map(({ log }) => line(log));
    assert.deepEqual(body.apps[0].progress.map(line), inTimeOrder);
  });

  it('keeps nothing of an import refused after members were written ahead', async (t) => {
    if (!store) return skipWithoutPostgres(t);
    const broken = dataset(3);
    // A member whose one log comes last in time, naming no task: replayed after every other
    // member's, once 500 of them went ahead.
    broken.users.push({ account_name: 'last' });
    broken.progress.push({ task_id: guid(9, 9), account_name: 'last', quantity: 1, at: new Date(NOW + 1000).toISOString() });
    if (sent) sent.length = 0;
    const refused = await call('POST', '/v1/admin/import', { apps: [broken] });
    if (sent) assert.ok(sent.includes('INSERT users'), `members went ahead before the refusal: ${sent.join(', ')}`);
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.message, `apps[0].progress[${broken.progress.length - 1}]: task_id: no such task in this app.`);
    const exported = await call('GET', '/v1/admin/export?app_id=app-3');
    assert.equal(exported.status, 404, JSON.stringify(exported.body));
  });
}

describe('an import written ahead, on PGlite', () => {
  checksOn(async () => recordingStore(source), { recorded: true });
});

describe('an import written ahead, on PostgreSQL', () => {
  /** @type {Awaited<ReturnType<typeof createDatabase>> | undefined} */
  let database;
  checksOn(async () => {
    if (!(await postgresAnswers())) return null;
    database = await createDatabase('questboard_write_ahead');
    return { store: await source.openSqlStore({ databaseUrl: database.url }) };
  });
  // After the store's own (checksOn), which closes it.
  after(() => database?.drop());
});
