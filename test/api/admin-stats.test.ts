// GET /v1/admin/stats, the console's overview, on every store (IndexedDB, PGlite, PostgreSQL):
// members, the members active in the last 7 days (each once, however many days they logged),
// completions by day for 30 days in the app's time zone, the top tasks, and the review queue.
import { expect } from '@open-wc/testing';
import { iso, localApi } from './support.js';

const CHALLENGE = '61111111-1111-4111-8111-111111111111';
const CHECK_IN = '62111111-1111-4111-8111-111111111111';
const POST = '63111111-1111-4111-8111-111111111111';
const LONG_READ = '64111111-1111-4111-8111-111111111111';
const SHOW_BUILD = '65111111-1111-4111-8111-111111111111';
const DAY_MS = 86_400_000;
/** 20:00 UTC, 05:00 the next day in Tokyo: the app's days are Tokyo's. */
const YESTERDAY = Date.UTC(2026, 10, 16, 20, 0, 0);
const TODAY = YESTERDAY + DAY_MS;

const guild = {
  admin_keys: ['sk_admin'],
  apps: [
    {
      app_id: 'guild',
      api_keys: [
        { key: 'pk_write', scopes: ['read', 'write'] },
        { key: 'pk_guild_admin', scopes: ['admin', 'read'] },
      ],
      settings: { time_zone: 'Asia/Tokyo' },
      users: ['alice', 'bob', 'carol', 'dave'].map((account_name) => ({ account_name, joined_at: iso(Date.UTC(2026, 0, 1)) })),
      challenges: [
        {
          challenge_id: CHALLENGE,
          name: 'Guild life',
          start_date: '2026-01-01T00:00:00Z',
          tasks: [
            { task_id: CHECK_IN, name: 'Check in', quantity: 1, operator: 0, points: 5, allowretry: true },
            { task_id: POST, name: 'Post once', quantity: 1, operator: 0, points: 10 },
            { task_id: LONG_READ, name: 'Read three guides', quantity: 3, operator: 0, points: 10 },
            { task_id: SHOW_BUILD, name: 'Show your build', quantity: 1, operator: 0, verification: { kind: 'review' } },
          ],
        },
      ],
    },
  ],
};

describe('GET /v1/admin/stats', () => {
  let api: ReturnType<typeof localApi>;
  const clock = { now: TODAY - 10 * DAY_MS };
  beforeEach(async () => {
    clock.now = TODAY - 10 * DAY_MS;
    api = localApi(clock);
    const imported = await api.call('POST', '/v1/admin/import', { body: guild });
    expect(imported.status, imported.text).to.equal(200);
  });
  afterEach(() => api.close());

  const log = async (task_id: string, account_name: string, quantity = 1) => {
    const logged = await api.call('POST', '/v1/admin/log_task', { body: { task_id, account_name, quantity } });
    expect(logged.status, logged.text).to.equal(200);
  };

  it('counts members, the week’s active members once each, completions by day, top tasks and pending reviews', async () => {
    // Ten days ago: dave, active then and not since.
    await log(CHECK_IN, 'dave');
    clock.now = YESTERDAY;
    await log(CHECK_IN, 'alice');
    await log(CHECK_IN, 'bob');
    await log(POST, 'alice');
    clock.now = TODAY;
    await log(CHECK_IN, 'alice');
    // Active without completing anything.
    await log(LONG_READ, 'carol');
    for (const account_name of ['alice', 'bob']) {
      const sent = await api.call('POST', '/v1/submit_task', {
        key: 'pk_write',
        body: { task_id: SHOW_BUILD, account_name, text: 'https://builds.example/' },
      });
      expect(sent.status, sent.text).to.equal(202);
    }

    const stats = await api.call('GET', '/v1/admin/stats?app_id=guild', { key: 'pk_guild_admin' });
    expect(stats.status, stats.text).to.equal(200);
    const { completions_by_day, ...rest } = stats.body;
    expect(rest).to.deep.equal({
      is_valid: true,
      message: null,
      member_count: 4,
      active_members_7d: 3,
      top_tasks: [
        { task_id: CHECK_IN, name: 'Check in', completions: 4 },
        { task_id: POST, name: 'Post once', completions: 1 },
      ],
      pending_reviews: 2,
      pending_reviews_capped: false,
    });
    expect(completions_by_day).to.have.length(30);
    expect(completions_by_day[0].day).to.equal('2026-10-20');
    expect(completions_by_day.filter((day: { completions: number }) => day.completions > 0)).to.deep.equal([
      { day: '2026-11-08', completions: 1 },
      { day: '2026-11-17', completions: 3 },
      { day: '2026-11-18', completions: 1 },
    ]);
    expect(completions_by_day[29]).to.deep.equal({ day: '2026-11-18', completions: 1 });
  });

  it('lets the week pass: a member active a week ago is no longer counted, nor are days past 30', async () => {
    clock.now = YESTERDAY;
    await log(CHECK_IN, 'alice');
    clock.now = YESTERDAY + 7 * DAY_MS;
    const week = await api.call('GET', '/v1/admin/stats?app_id=guild');
    expect(week.status, week.text).to.equal(200);
    expect(week.body.active_members_7d).to.equal(0);
    expect(week.body.completions_by_day[22]).to.deep.equal({ day: '2026-11-17', completions: 1 });
    clock.now = YESTERDAY + 30 * DAY_MS;
    const month = await api.call('GET', '/v1/admin/stats?app_id=guild');
    expect(month.body.completions_by_day.every((day: { completions: number }) => day.completions === 0)).to.equal(true);
    expect(month.body.top_tasks).to.deep.equal([]);
  });

  it('refuses a key without the admin scope, and an app that is not there', async () => {
    const refused = await api.call('GET', '/v1/admin/stats?app_id=guild', { key: 'pk_write' });
    expect(refused.status, refused.text).to.equal(403);
    const missing = await api.call('GET', '/v1/admin/stats?app_id=nowhere');
    expect(missing.status, missing.text).to.equal(404);
  });
});
