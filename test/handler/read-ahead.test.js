// A server's read asks for what its operation declares it reads (readsAhead in
// src/handler/operations.ts, done by src/handler/read-ahead.ts): the app and the
// member it names as its transaction opens, a leaderboard's page by offset for the
// page and its board's count, a challenge with its tasks and a task with the
// member's progress, so that they travel to the database with its key's read
// instead of a round trip after it each; a write does not (it locks
// its key before its app), but admin/log_task asks for what it reads after its
// task at once, once its key is good; a member who is not there is still the
// request's own 404, and every answer is the one given without reading ahead.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { callHandler } from '../handler-call.js';
import { importSource } from '../source-module.js';

const ADMIN = 'sk_read_ahead_admin';
const CHALLENGE = 'c0000000-0000-4000-8000-000000000001';
const TASK = 'c0000000-0000-4000-8000-000000000002';
const SECOND_TASK = 'c0000000-0000-4000-8000-000000000003';
const NOW = new Date();
const KEY = 'pk_read_ahead';
/** @typedef {{ event: 'sent' | 'answered', text: string }} StatementEvent */
/**
 * @type {typeof import('../../src/handler/handler.js') & typeof import('../../src/handler/operations.js') &
 *   typeof import('../../src/handler/rate-limits.js') & typeof import('../../src/handler/read-ahead.js') &
 *   typeof import('../../src/store/sql/index.js')}
 */
let source;

before(async () => {
  source = await importSource(
    'src/handler/handler.ts',
    'src/handler/operations.ts',
    'src/handler/rate-limits.ts',
    'src/handler/read-ahead.ts',
    'src/store/sql/index.ts',
  );
});

/**
 * A handler on PGlite whose statements are recorded as `sent` and `answered`, in order.
 * @param {Omit<import('../../src/handler/handler.js').HandlerOptions, 'store'>} options
 */
async function server(options) {
  const driver = await source.pgliteDriver();
  /** @type {StatementEvent[]} */
  const events = [];
  const store = await source.openSqlStore({
    driver: {
      ...driver,
      transaction: (mode, work, durability) =>
        driver.transaction(
          mode,
          (session) =>
            work({
              /**
               * @template Row
               * @param {import('../../src/store/sql/sql.js').Query} query
               */
              async query(query) {
                events.push({ event: 'sent', text: query.text });
                const rows = /** @type {Row[]} */ (await session.query(query));
                events.push({ event: 'answered', text: query.text });
                return rows;
              },
            }),
          durability,
        ),
    },
  });
  const handle = source.createHandler({ store, ...options });
  /**
   * @param {string} method
   * @param {string} path
   * @param {string} [key]
   * @param {unknown} [body]
   */
  const call = (method, path, key = KEY, body) => {
    events.length = 0;
    return callHandler(handle, method, path, key, body);
  };
  const imported = await call('POST', '/v1/admin/import', ADMIN, {
    admin_keys: [ADMIN],
    apps: [
      {
        app_id: 'guild',
        api_keys: [{ key: KEY, scopes: ['read', 'write'] }],
        users: [{ account_name: 'alice' }, { account_name: 'bob' }, { account_name: 'cat' }, { account_name: 'dan' }],
        challenges: [
          {
            challenge_id: CHALLENGE,
            name: 'Posts',
            start_date: '2020-01-01T00:00:00Z',
            // Fixed, so that the answers of two servers compare equal.
            create_date: '2020-01-01T00:00:00Z',
            tasks: [
              {
                task_id: TASK,
                name: 'Post',
                quantity: 1,
                operator: 0,
                points: 10,
                allowretry: true,
                create_date: '2020-01-01T00:00:00Z',
              },
              { task_id: SECOND_TASK, name: 'Reply', quantity: 2, operator: 0, points: 5, create_date: '2020-01-01T00:00:00Z' },
            ],
          },
        ],
        // This week's: bob and dan ranked on the weekly board, alice and cat its tail.
        progress: ['bob', 'dan', 'dan'].map((account_name) => ({
          task_id: TASK,
          account_name,
          quantity: 1,
          at: NOW.toISOString(),
        })),
      },
    ],
  });
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  return { call, events, close: () => store.close() };
}

/**
 * Whether the statement reading `table` went out before the key's read was answered.
 * @param {StatementEvent[]} events
 * @param {string} table
 */
function sentWithKey(events, table) {
  const sent = events.findIndex(({ event, text }) => event === 'sent' && text.startsWith(`SELECT record FROM ${table} `));
  const keyAnswered = events.findIndex(
    ({ event, text }) => event === 'answered' && text.startsWith('SELECT record FROM api_keys '),
  );
  assert.ok(sent !== -1, `${table} is read`);
  return sent < keyAnswered;
}

it('reads the app and the member a read names with its key', async () => {
  const { call, events, close } = await server({ readAhead: source.createReadAhead() });
  try {
    for (const path of [
      '/v1/get_leaderboard?app_id=guild&around=bob&limit=3',
      '/v1/get_userinfo?app_id=guild&account_name=bob',
    ]) {
      const read = await call('GET', path);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.ok(sentWithKey(events, 'apps'), `${path}: the app goes with the key`);
      assert.ok(sentWithKey(events, 'users'), `${path}: the member goes with the key`);
    }
    const missing = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=nobody');
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    const endorsed = await call('POST', '/v1/endorse_account', KEY, {
      app_id: 'guild',
      from_account: 'alice',
      to_account: 'bob',
      endorsement_id: 'e1',
    });
    assert.equal(endorsed.status, 200, JSON.stringify(endorsed.body));
    assert.ok(!sentWithKey(events, 'users'), 'a write reads its members after its key');
  } finally {
    await close();
  }
});

it('reads ahead what the operation declares, and nothing it does not', async () => {
  const { call, events, close } = await server({ readAhead: source.createReadAhead() });
  const userinfo = source.operations['get_userinfo'];
  const declared = userinfo.readsAhead;
  try {
    userinfo.readsAhead = ['app'];
    const read = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob');
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.ok(sentWithKey(events, 'apps'), 'the app, declared, goes with the key');
    assert.ok(!sentWithKey(events, 'users'), 'the member, not declared, is read after the key');
  } finally {
    userinfo.readsAhead = declared;
    await close();
  }
});

it('reads them after the key where the host asks for no read ahead (the worker, the page)', async () => {
  const { call, events, close } = await server({});
  try {
    const read = await call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob');
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.ok(!sentWithKey(events, 'users'));
  } finally {
    await close();
  }
});

/**
 * Where the statements whose text starts so went out, and where the key's read was answered (indexes of `events`).
 * @param {StatementEvent[]} events
 * @param {string} start
 */
function sentAt(events, start) {
  return events.flatMap(({ event, text }, index) => (event === 'sent' && text.trim().startsWith(start) ? [index] : []));
}
/** @param {StatementEvent[]} events */
const keyAnsweredAt = (events) =>
  events.findIndex(({ event, text }) => event === 'answered' && text.startsWith('SELECT record FROM api_keys '));

it("reads a leaderboard's page by offset and its count with the key, and answers as without", async () => {
  const ahead = await server({ readAhead: source.createReadAhead(() => NOW), now: () => NOW });
  const plain = await server({ now: () => NOW });
  try {
    for (const query of [
      '',
      '&leaderboard_type=weekly',
      '&leaderboard_type=weekly&offset=1&limit=2',
      '&offset=3&widget_response=html',
    ]) {
      const path = `/v1/get_leaderboard?app_id=guild${query}`;
      const read = await ahead.call('GET', path);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const keyAnswered = keyAnsweredAt(ahead.events);
      const pages = sentAt(ahead.events, 'WITH section AS');
      assert.ok(pages.length === 1 && pages[0] < keyAnswered, `${path}: the page, once, with the key`);
      // A period board's ranked members, counted to place its tail.
      const counts = sentAt(ahead.events, 'SELECT (SELECT coalesce(sum(count)');
      const period = query.includes('weekly');
      assert.ok(period ? counts.length === 1 && counts[0] < keyAnswered : counts.length === 0, `${path}: its count`);
      assert.deepEqual(read.body, (await plain.call('GET', path)).body, `${path}: the same answer`);
    }
    const tail = await ahead.call('GET', '/v1/get_leaderboard?app_id=guild&leaderboard_type=weekly&offset=1&limit=2');
    assert.deepEqual(
      tail.body.leaderboard_users.map(
        (/** @type {import('../../src/api/responses.js').LeaderboardEntry} */ entry) => entry.external_user.username,
      ),
      ['bob', 'alice'],
      'the ranked member, then the tail by name',
    );
    // A key that is not one: refused as ever, whatever was read ahead.
    const refused = await ahead.call('GET', '/v1/get_leaderboard?app_id=guild&offset=2', 'pk_nobody');
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
  } finally {
    await ahead.close();
    await plain.close();
  }
});

it('reads a challenge with its key and its tasks in one statement, a task with the progress asked for, and answers as without', async () => {
  const ahead = await server({ readAhead: source.createReadAhead() });
  const plain = await server({});
  try {
    const challenge = await ahead.call('GET', `/v1/get_challenge?challenge_id=${CHALLENGE}`);
    assert.equal(challenge.status, 200, JSON.stringify(challenge.body));
    assert.ok(sentWithKey(ahead.events, 'challenges'), 'the challenge goes with the key');
    assert.equal(sentAt(ahead.events, 'SELECT record FROM tasks ').length, 1, 'its two tasks in one statement');
    assert.deepEqual(
      challenge.body.tasks.map((/** @type {{ name: string }} */ task) => task.name),
      ['Post', 'Reply'],
    );
    assert.deepEqual(challenge.body, (await plain.call('GET', `/v1/get_challenge?challenge_id=${CHALLENGE}`)).body);

    for (const account_name of ['dan', 'alice']) {
      const path = `/v1/get_task_progress?task_id=${TASK}&account_name=${account_name}`;
      const progress = await ahead.call('GET', path);
      assert.equal(progress.status, 200, JSON.stringify(progress.body));
      assert.ok(sentWithKey(ahead.events, 'tasks'), `${path}: the task goes with the key`);
      assert.ok(sentWithKey(ahead.events, 'progress'), `${path}: the progress goes with the key`);
      assert.deepEqual(progress.body, (await plain.call('GET', path)).body, `${path}: the same answer`);
    }
    // Read ahead or not, what is not there is the request's own 404.
    for (const path of [
      '/v1/get_challenge?challenge_id=c0000000-0000-4000-8000-0000000000ff',
      `/v1/get_task_progress?task_id=${TASK}&account_name=nobody`,
      '/v1/get_task_progress?task_id=c0000000-0000-4000-8000-0000000000ff&account_name=dan',
    ]) {
      const missing = await ahead.call('GET', path);
      assert.equal(missing.status, 404, `${path}: ${JSON.stringify(missing.body)}`);
      assert.deepEqual(missing.body, (await plain.call('GET', path)).body, `${path}: the same refusal`);
    }
  } finally {
    await ahead.close();
    await plain.close();
  }
});

it('reads what admin/log_task reads after its task at once, once its key is known good, and answers as without', async () => {
  const ahead = await server({ readAhead: source.createReadAhead() });
  const plain = await server({});
  const READS = ['apps', 'users', 'challenges', 'progress'].map((table) => `SELECT record FROM ${table} WHERE (`);
  try {
    for (const account_name of ['cat', 'dan']) {
      const body = { task_id: TASK, account_name, quantity: 1 };
      const logged = await ahead.call('POST', '/v1/admin/log_task', ADMIN, body);
      assert.equal(logged.status, 200, JSON.stringify(logged.body));
      const sent = READS.map((start) => sentAt(ahead.events, start));
      assert.ok(
        sent.every((at) => at.length === 1),
        `${account_name}: each read once (${JSON.stringify(sent)})`,
      );
      const firstAnswered = ahead.events.findIndex(
        ({ event, text }) => event === 'answered' && READS.some((start) => text.startsWith(start)),
      );
      assert.ok(
        sent.every(([at]) => at < firstAnswered),
        `${account_name}: all four sent before any is answered`,
      );
      assert.ok(sentAt(ahead.events, 'SELECT record FROM tasks ')[0] > keyAnsweredAt(ahead.events), 'the task after the key');
      // Two meta records: the installation's admin keys, and the app's counts of the day, which the
      // completion updates (core/activity.ts). The app's seasons (which a log counts into) come
      // with the app, so an app without them reads nothing more for them.
      const metaReads = sentAt(ahead.events, 'SELECT value FROM meta ');
      assert.equal(metaReads.length, 2, 'the admin keys and the day’s counts read once each, and no seasons');
      assert.ok(metaReads[0] < keyAnsweredAt(ahead.events), 'the admin keys with the key');
      const appAnswered = ahead.events.findIndex(
        ({ event, text }) => event === 'answered' && text.startsWith('SELECT record FROM apps WHERE ('),
      );
      assert.ok(metaReads[1] > appAnswered, 'the day’s counts once the app says its time zone');
      assert.deepEqual(
        logged.body,
        (await plain.call('POST', '/v1/admin/log_task', ADMIN, body)).body,
        `${account_name}: the same answer`,
      );
    }
    for (const body of [
      { task_id: TASK, account_name: 'nobody', quantity: 1 },
      { task_id: 'c0000000-0000-4000-8000-0000000000ff', account_name: 'dan', quantity: 1 },
    ]) {
      const missing = await ahead.call('POST', '/v1/admin/log_task', ADMIN, body);
      assert.equal(missing.status, 404, JSON.stringify(missing.body));
      assert.deepEqual(missing.body, (await plain.call('POST', '/v1/admin/log_task', ADMIN, body)).body);
    }
    // A key that is not one locks nothing: refused before anything is read for it.
    const refused = await ahead.call('POST', '/v1/admin/log_task', 'sk_nobody', {
      task_id: TASK,
      account_name: 'dan',
      quantity: 1,
    });
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(sentAt(ahead.events, 'SELECT record FROM tasks ').length, 0, 'no task read for a key turned away');
  } finally {
    await ahead.close();
    await plain.close();
  }
});

it("counts a write's limits and reads its members with its key once its key was limited before, and answers as without", async () => {
  const limiterOf = () => source.createRateLimiter(source.sqlRateCounters);
  const limiter = limiterOf();
  const ahead = await server({ limiter, readAhead: source.createReadAhead(() => NOW, limiter), now: () => NOW });
  const plain = await server({ limiter: limiterOf(), now: () => NOW });
  const COUNT = 'INSERT INTO rate_counters ';
  /** @param {string} start */
  const withKey = (start) => {
    const sent = sentAt(ahead.events, start);
    assert.ok(sent.length > 0, `${start} is sent`);
    return sent.every((at) => at < keyAnsweredAt(ahead.events));
  };
  /**
   * @param {string} from_account
   * @param {string} to_account
   * @param {string} endorsement_id
   */
  const endorse = (from_account, to_account, endorsement_id) => ({
    path: '/v1/endorse_account',
    body: { app_id: 'guild', from_account, to_account, endorsement_id },
  });
  /**
   * @param {string} account_name
   * @param {string} [app_id]
   */
  const connect = (account_name, app_id = 'guild') => ({
    path: '/v1/connect_social',
    body: { app_id, account_name, twitter_name: `${account_name}_x` },
  });
  const writes = [
    endorse('alice', 'bob', 'e1'),
    endorse('cat', 'dan', 'e2'),
    connect('cat'),
    connect('newcomer'),
    endorse('alice', 'nobody', 'e3'),
  ];
  try {
    for (const [index, { path, body }] of writes.entries()) {
      const written = await ahead.call('POST', path, KEY, body);
      assert.deepEqual(written, await plain.call('POST', path, KEY, body), `${path} ${index}: the same answer`);
      // The key's first write tells the limiter its app and limits; from the next on, they go with the key.
      const first = index === 0;
      assert.equal(withKey(COUNT), !first, `${path} ${index}: counted with the key`);
      assert.equal(withKey('SELECT record FROM users '), !first, `${path} ${index}: its members read with the key`);
      if (path === '/v1/endorse_account') assert.equal(withKey('SELECT record FROM endorsements '), !first);
    }
    // Each member's id is drawn at random: the rest is the same.
    /** @param {Awaited<ReturnType<typeof server>>} s */
    const exported = async (s) =>
      JSON.stringify(
        (await s.call('GET', '/v1/admin/export?app_id=guild', ADMIN)).body,
        (/** @type {string} */ name, /** @type {unknown} */ value) => (name === 'id' ? undefined : value),
      );
    assert.equal(await exported(ahead), await exported(plain), 'the same records');
    // A key not limited before reads nothing ahead, nor a key of another app than the one named.
    const refused = await ahead.call('POST', '/v1/connect_social', 'pk_nobody', connect('cat').body);
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(sentAt(ahead.events, COUNT).length, 0, 'no count for a key turned away');
    assert.equal(sentAt(ahead.events, 'SELECT record FROM users ').length, 0, 'no member read for a key turned away');
    const elsewhere = await ahead.call('POST', '/v1/connect_social', KEY, connect('cat', 'other').body);
    assert.equal(elsewhere.status, 404, JSON.stringify(elsewhere.body));
    assert.equal(sentAt(ahead.events, 'SELECT record FROM users ').length, 0, "no member of an app not the key's");
  } finally {
    await ahead.close();
    await plain.close();
  }
});
