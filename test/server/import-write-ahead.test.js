// An import replays its progress a member at a time, and the SQL store writes the records of
// each few hundred members done while the rules replay the next (Transaction.writeAhead, in
// src/core/dataset.ts and src/store/sql/transaction.ts). What it derives must be what the same
// members and logs derive imported in parts too small to write ahead: every member's totals and
// progress, every board's order; a member endorsed after being written ahead is written again;
// and the log of quantities keeps the dataset's progress in time order.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importSource } from '../source-module.js';
import { recordingStore } from '../store/sql/recording-store.js';

const ADMIN = 'sk_write_ahead_admin';
const MEMBERS = 1200;
/** Below the members an import writes ahead at a time (500): these parts never do. */
const PART = 300;
const NOW = Date.parse('2026-11-25T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const guid = (app, n) => `d0000000-0000-4000-8000-${String(app * 100 + n).padStart(12, '0')}`;
const name = (i) => `m-${String((i * 7919) % MEMBERS).padStart(4, '0')}`;

let source;
before(async () => {
  source = await importSource('src/server/handler.ts', 'src/store/sql/index.ts');
});

/** The app's definition, and its members, progress and endorsements in a deterministic spread. */
function dataset(app) {
  const tasks = [
    { task_id: guid(app, 2), name: 'Post', quantity: 2, operator: 0, points: 10, allowretry: true },
    { task_id: guid(app, 3), name: 'Thread', quantity: 3, operator: 1, points: 20 },
    { task_id: guid(app, 4), name: 'Reply', quantity: 5, operator: 0, points: 30 },
  ].map((task) => ({ ...task, create_date: '2026-01-01T00:00:00Z' }));
  const users = [];
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

describe('an import written ahead', () => {
  let call;
  /** The statements of the import written ahead, in order. */
  let sentByWhole;
  let whole;
  before(async () => {
    const recording = await recordingStore(source);
    const handle = source.createHandler({ store: recording.store, now: () => new Date(NOW) });
    call = async (method, path, body) => {
      const response = await handle(
        new Request(`http://q.test${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: response.status, body: await response.json() };
    };
    // App 1 in one import, written ahead; app 2, the same members and logs under other ids, in parts.
    whole = dataset(1);
    recording.sent.length = 0;
    const first = await call('POST', '/v1/admin/import', { admin_keys: [ADMIN], apps: [whole] });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    sentByWhole = [...recording.sent];
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
  });

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

  it('derives what the same members and logs derive imported in parts', async () => {
    const answers = async (app) => {
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
        // The task's own name and ids differ between the apps only by app.
        texts.push(JSON.stringify(body).replaceAll(`d0000000-0000-4000-8000-0000000001`, 'TASK-'));
      }
      return texts;
    };
    const [one, parts] = [await answers(1), await answers(2)];
    assert.equal(one.length, parts.length);
    for (let i = 0; i < one.length; i++) assert.equal(one[i], parts[i].replaceAll('d0000000-0000-4000-8000-0000000002', 'TASK-'));
    // Not all alike: members differ in score, so the boards' order is tested.
    assert.ok(new Set(one.filter((text) => text.includes('"total_score"'))).size > 10);
  });

  it("keeps the log of quantities in the dataset's time order", async () => {
    const { status, body } = await call('GET', '/v1/admin/export?app_id=app-1');
    assert.equal(status, 200);
    const inTimeOrder = whole.progress
      .map((log, index) => ({ log, index }))
      .sort((a, b) => Date.parse(a.log.at) - Date.parse(b.log.at) || a.index - b.index)
      .map(({ log }) => `${log.task_id} ${log.account_name} ${log.quantity} ${Date.parse(log.at)}`);
    const exported = body.apps[0].progress.map(
      (log) => `${log.task_id} ${log.account_name} ${log.quantity} ${Date.parse(log.at)}`,
    );
    assert.deepEqual(exported, inTimeOrder);
  });
});
