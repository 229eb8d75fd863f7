// Admin import and export: bootstrap, scopes, validation with paths,
// all-or-nothing, replace, and import(export()) reproducing every answer.
import { expect } from '@open-wc/testing';
import { sha256Hex } from '../../src/api/key-hash.js';
import { ADMIN_KEY, GUIDS, HOSTILE_NAME, WEDNESDAY, dataset, iso, localApi, seed, type Call } from './support.js';

const DAY = 86_400_000;

describe('admin import and export', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(() => {
    api = localApi({ now: WEDNESDAY });
  });
  afterEach(() => api.close());

  it('bootstraps an empty store with a key the dataset lists, and only then', async () => {
    const stranger = await api.call('POST', '/v1/admin/import', { key: 'sk_other', body: dataset(WEDNESDAY) });
    expect(stranger.status).to.equal(401);
    const first = await seed(api.call, WEDNESDAY);
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.equal({ is_valid: true, message: null, app_ids: ['guild', 'other'] });
    // Now that keys exist, listing a new admin key in a dataset opens nothing.
    const again = await api.call('POST', '/v1/admin/import', { key: 'sk_new', body: { admin_keys: ['sk_new'] } });
    expect(again.status).to.equal(401);
  });

  it('keeps admin keys as their SHA-256 hashes, never in clear', async () => {
    await seed(api.call, WEDNESDAY);
    const logged = await api.call('POST', '/v1/admin/log_task', {
      body: { task_id: GUIDS.posts, account_name: 'bob', quantity: 1 },
      headers: { 'idempotency-key': 'once' },
    });
    expect(logged.status, logged.text).to.equal(200);
    expect(await api.readMeta('admin_keys')).to.deep.equal({ sha256: [sha256Hex(ADMIN_KEY)] });
    const idempotency = await api.idempotencyRecords();
    expect(idempotency.map((record) => record.api_key)).to.deep.equal([sha256Hex(ADMIN_KEY)]);
  });

  it('takes admin keys a store kept in clear, and keeps them hashed from the next import', async () => {
    await seed(api.call, WEDNESDAY);
    // As a store written before admin keys were hashed holds them.
    await api.writeMeta('admin_keys', [ADMIN_KEY, 'sk_second']);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild')).status).to.equal(200);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild', { key: 'sk_second' })).status).to.equal(200);
    expect((await api.call('POST', '/v1/admin/import', { body: { apps: [] } })).status).to.equal(200);
    expect(await api.readMeta('admin_keys')).to.deep.equal({ sha256: [sha256Hex(ADMIN_KEY), sha256Hex('sk_second')] });
    expect((await api.call('GET', '/v1/admin/export?app_id=guild', { key: 'sk_second' })).status).to.equal(200);
  });

  it('lets an app admin key load its own app and nothing else', async () => {
    await seed(api.call, WEDNESDAY);
    const own = await api.call('POST', '/v1/admin/import', {
      key: 'pk_guild_admin',
      body: { apps: [{ app_id: 'guild', users: [{ account_name: 'newbie' }] }] },
    });
    expect(own.status, own.text).to.equal(200);
    const foreign = await api.call('POST', '/v1/admin/import', { key: 'pk_guild_admin', body: { apps: [{ app_id: 'other' }] } });
    expect(foreign.status).to.equal(403);
    const escalate = await api.call('POST', '/v1/admin/import', { key: 'pk_guild_admin', body: { admin_keys: ['mine'] } });
    expect(escalate.status).to.equal(403);
    const readOnly = await api.call('POST', '/v1/admin/import', { key: 'pk_read', body: { apps: [] } });
    expect(readOnly.status).to.equal(403);
    const exportOther = await api.call('GET', '/v1/admin/export?app_id=other', { key: 'pk_guild_admin' });
    expect(exportOther.status).to.equal(403);
  });

  it('rejects unknown fields with the path of the offending field', async () => {
    const body = dataset(WEDNESDAY);
    (body.apps[0]!.challenges[0]!.tasks[1] as any).colour = 'red';
    const answer = await api.call('POST', '/v1/admin/import', { body });
    expect(answer.status).to.equal(400);
    expect(answer.body).to.deep.equal({ is_valid: false, message: "apps.0.challenges.0.tasks.1: unknown field 'colour'." });
  });

  it('rejects other operators at import', async () => {
    const body = dataset(WEDNESDAY);
    body.apps[0]!.challenges[0]!.tasks[0]!.operator = 2;
    const answer = await api.call('POST', '/v1/admin/import', { body });
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.match(/^apps\.0\.challenges\.0\.tasks\.0\.operator: must be 0/);
  });

  it('is all or nothing: a broken replay leaves the store as it was', async () => {
    await seed(api.call, WEDNESDAY);
    const before = (await api.call('GET', '/v1/admin/export?app_id=guild')).text;
    const answer = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          {
            app_id: 'guild',
            users: [{ account_name: 'ghost' }],
            progress: [
              { task_id: GUIDS.posts, account_name: 'alice', quantity: 1 },
              { task_id: GUIDS.posts, account_name: 'nobody', quantity: 1 },
            ],
          },
        ],
      },
    });
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.equal('apps[0].progress[1]: account_name: no such member in this app.');
    expect((await api.call('GET', '/v1/admin/export?app_id=guild')).text).to.equal(before);
  });

  it('replace mode replaces the app, merge mode merges by id', async () => {
    await seed(api.call, WEDNESDAY);
    await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.posts, account_name: 'alice', quantity: 3 } });
    await api.call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'guild', users: [{ account_name: 'alice', is_active: false }] }] },
    });
    const merged = (await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice')).body;
    expect(merged).to.include({ is_active: false, total_score: 10 });

    const replaced = await api.call('POST', '/v1/admin/import?mode=replace', { body: dataset(WEDNESDAY) });
    expect(replaced.status).to.equal(200);
    const fresh = (await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice')).body;
    expect(fresh).to.include({ is_active: true, total_score: 0, tasks_logged: 0 });
    expect((await api.call('GET', '/v1/get_leaderboard?app_id=guild')).body.total_users).to.equal(4);
  });

  it("keeps a server's settings (write limits, allowed origins): each replaced whole, taken away with null, exported when set", async () => {
    await seed(api.call, WEDNESDAY);
    const settingsOf = async () => (await api.call('GET', '/v1/admin/export?app_id=guild')).body.apps[0].settings;
    const settle = (settings: object) =>
      api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'guild', settings }] } });
    expect(await settingsOf()).to.not.have.any.keys('rate_limits', 'allowed_origins');
    const perKey = { writes: 100, window_seconds: 60 };
    await settle({ rate_limits: { per_key: perKey, per_ip: null }, allowed_origins: ['https://forum.example.org'] });
    await settle({ rate_limits: { per_member: { writes: 5, window_seconds: 10 } }, endorsement_xp: 7 });
    expect(await settingsOf()).to.deep.equal({
      endorsement_xp: 7,
      rank_policy: 'olympic',
      rate_limits: { per_member: { writes: 5, window_seconds: 10 } },
      allowed_origins: ['https://forum.example.org'],
    });
    await settle({ rate_limits: null, allowed_origins: null });
    expect(await settingsOf()).to.not.have.any.keys('rate_limits', 'allowed_origins');
    const refused = await settle({ rate_limits: { per_key: { writes: 0, window_seconds: 60 } } });
    expect(refused.status).to.equal(400);
    expect(refused.body.message).to.equal('apps.0.settings.rate_limits.per_key.writes: must be at least 1.');
  });

  it('import(export()) reproduces every answer of the API', async () => {
    await seed(api.call, WEDNESDAY);
    const act = async (call: Call) => {
      const log = (task_id: string, account_name: string, quantity: number) =>
        call('POST', '/v1/admin/log_task', { body: { task_id, account_name, quantity } });
      await log(GUIDS.posts, 'alice', 2);
      await log(GUIDS.posts, 'alice', 1.5);
      await log(GUIDS.bigPost, 'bob', 5);
      await log(GUIDS.checkIn, HOSTILE_NAME, 1);
      await log(GUIDS.profile, 'carol', 7);
      await call('POST', '/v1/endorse_account', {
        body: { app_id: 'guild', from_account: 'bob', to_account: 'carol', endorsement_id: 'kind' },
      });
      await call('POST', '/v1/connect_social', { body: { app_id: 'guild', account_name: 'dora', twitter_name: 'dora' } });
      await call('POST', '/v1/airdrop_token_ledger', { body: { to_address: '0.0.5', quantity: 0.5, app_id: 'guild' } });
    };
    await act(api.call);
    api.clock.now += 60_000;
    await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name: 'bob', quantity: 1 } });

    const answers = async (call: Call) => {
      const paths = [
        `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`,
        ...['score', 'xp', 'weekly', 'monthly'].map((type) => `/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}`),
        '/v1/get_leaderboard?app_id=guild&widget_response=html',
        ...['alice', 'bob', 'carol', 'dora', HOSTILE_NAME].flatMap((name) => [
          `/v1/get_userinfo?app_id=guild&account_name=${encodeURIComponent(name)}`,
          ...[GUIDS.posts, GUIDS.bigPost, GUIDS.checkIn, GUIDS.profile].map(
            (task) => `/v1/get_task_progress?task_id=${task}&account_name=${encodeURIComponent(name)}`,
          ),
        ]),
        '/v1/admin/export?app_id=guild',
      ];
      return Promise.all(paths.map(async (path) => (await call('GET', path)).text));
    };
    const original = await answers(api.call);
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    expect(exported.status).to.equal(200);

    const copy = localApi({ now: api.clock.now });
    try {
      const imported = await copy.call('POST', '/v1/admin/import', {
        body: { admin_keys: [ADMIN_KEY], ...exported.body },
      });
      expect(imported.status, imported.text).to.equal(200);
      expect(await answers(copy.call)).to.deep.equal(original);
    } finally {
      await copy.close();
    }
  });

  it('removes a task a merge import leaves out: it no longer counts, is refused, and export → import still round-trips', async () => {
    await seed(api.call, WEDNESDAY);
    const log = (task_id: string, account_name: string, quantity: number) =>
      api.call('POST', '/v1/admin/log_task', { body: { task_id, account_name, quantity } });
    // alice does every task but the profile; carol only logs the profile; bob completes the check-in twice.
    for (const [task, name, quantity] of [
      [GUIDS.posts, 'alice', 3],
      [GUIDS.bigPost, 'alice', 5],
      [GUIDS.checkIn, 'alice', 1],
      [GUIDS.profile, 'carol', 7],
      [GUIDS.checkIn, 'bob', 1],
      [GUIDS.profile, 'bob', 10],
      [GUIDS.checkIn, 'bob', 1],
    ] as const) {
      api.clock.now += 60_000;
      expect((await log(task, name, quantity)).status).to.equal(200);
    }
    await api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'kind' },
    });
    api.clock.now += 60_000;

    const onboarding = dataset(WEDNESDAY).apps[0]!.challenges[0]!;
    const merged = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          {
            app_id: 'guild',
            challenges: [{ ...onboarding, tasks: onboarding.tasks.filter((task) => task.task_id !== GUIDS.profile) }],
          },
        ],
      },
    });
    expect(merged.status, merged.text).to.equal(200);

    const refusedLog = await log(GUIDS.profile, 'alice', 10);
    expect([refusedLog.status, refusedLog.body]).to.deep.equal([404, { is_valid: false, message: 'Task not found.' }]);
    const refusedRead = await api.call('GET', `/v1/get_task_progress?task_id=${GUIDS.profile}&account_name=bob`);
    expect([refusedRead.status, refusedRead.body]).to.deep.equal([404, { is_valid: false, message: 'Task not found.' }]);
    // alice has now done every task the challenge has; the profile's points and logs are gone.
    const info = async (name: string) => (await api.call('GET', `/v1/get_userinfo?app_id=guild&account_name=${name}`)).body;
    expect(await info('alice')).to.include({
      challenges_completed: 1,
      tasks_completed: 3,
      tasks_logged: 3,
      total_score: 10 + 20 + 5 + 50,
    });
    expect(await info('bob')).to.include({
      challenges_completed: 0,
      tasks_completed: 2,
      tasks_logged: 2,
      total_score: 10,
      current_xp: 15,
    });
    expect(await info('carol')).to.include({ tasks_completed: 0, tasks_logged: 0, total_score: 0 });
    const challenge = (await api.call('GET', `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`)).body;
    expect(challenge.tasks.map((task: any) => task.task_id)).to.deep.equal([GUIDS.posts, GUIDS.bigPost, GUIDS.checkIn]);

    const answers = async (call: Call) => {
      const paths = [
        `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`,
        ...['score', 'xp', 'weekly', 'monthly'].map((type) => `/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}`),
        ...['alice', 'bob', 'carol'].flatMap((name) => [
          `/v1/get_userinfo?app_id=guild&account_name=${name}`,
          ...[GUIDS.posts, GUIDS.bigPost, GUIDS.checkIn, GUIDS.profile].map(
            (task) => `/v1/get_task_progress?task_id=${task}&account_name=${name}`,
          ),
        ]),
        '/v1/admin/export?app_id=guild',
      ];
      return Promise.all(
        paths.map(async (path) => {
          const answer = await call('GET', path);
          return `${answer.status} ${answer.text}`;
        }),
      );
    };
    const original = await answers(api.call);
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    const copy = localApi({ now: api.clock.now });
    try {
      const imported = await copy.call('POST', '/v1/admin/import', { body: { admin_keys: [ADMIN_KEY], ...exported.body } });
      expect(imported.status, imported.text).to.equal(200);
      expect(await answers(copy.call)).to.deep.equal(original);
    } finally {
      await copy.close();
    }
  });

  it('takes the times values were reached from the imported history, not from the import', async () => {
    const checkIn = { task_id: GUIDS.checkIn, name: 'Check in', quantity: 1, operator: 0, points: 5, allowretry: true };
    const first = await api.call('POST', '/v1/admin/import', {
      body: {
        admin_keys: [ADMIN_KEY],
        apps: [
          {
            app_id: 'times',
            users: [{ account_name: 'amy' }, { account_name: 'ben' }],
            challenges: [{ name: 'c', start_date: '2026-01-01T00:00:00Z', tasks: [checkIn] }],
          },
        ],
      },
    });
    expect(first.status, first.text).to.equal(200);
    // cara joins live, now; then her history arrives, older than everyone's.
    api.clock.now += DAY;
    await api.call('POST', '/v1/connect_social', { body: { app_id: 'times', account_name: 'cara', twitter_name: 'cara' } });
    const history = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          {
            app_id: 'times',
            progress: [
              { task_id: GUIDS.checkIn, account_name: 'amy', quantity: 1, at: iso(WEDNESDAY - 1 * DAY) },
              { task_id: GUIDS.checkIn, account_name: 'ben', quantity: 1, at: iso(WEDNESDAY - 2 * DAY) },
              { task_id: GUIDS.checkIn, account_name: 'cara', quantity: 1, at: iso(WEDNESDAY - 2 * DAY - 1000) },
            ],
          },
        ],
      },
    });
    expect(history.status, history.text).to.equal(200);
    // All hold 5 points: listed by who reached them first in the history.
    for (const type of ['score', 'xp', 'weekly', 'monthly']) {
      const board = (await api.call('GET', `/v1/get_leaderboard?app_id=times&leaderboard_type=${type}`)).body;
      expect(
        board.leaderboard_users.map((entry: any) => entry.external_user.username),
        type,
      ).to.deep.equal(['cara', 'ben', 'amy']);
    }
  });

  it('tells hosts which app changed after each committed write', async () => {
    await seed(api.call, WEDNESDAY);
    await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.posts, account_name: 'bob', quantity: 1 } });
    await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.posts, account_name: 'bob', quantity: -1 } });
    await api.call('POST', '/v1/airdrop_token_ledger', { key: 'pk_ledger', body: { to_address: '0.0.2002', quantity: 1 } });
    expect(api.changes).to.deep.equal([
      { type: 'questboard:change', app_id: 'guild', scope: 'app' },
      { type: 'questboard:change', app_id: 'other', scope: 'app' },
      { type: 'questboard:change', app_id: 'guild', scope: 'members', account_names: ['bob'] },
      // Only the treasury: no member's widget refreshes for an airdrop.
      { type: 'questboard:change', app_id: 'guild', scope: 'treasury' },
    ]);
  });
});
