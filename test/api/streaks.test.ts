// Streaks (docs/rules.md, Streaks): days in the app's time zone, DST, freezes, and imports that
// compute what live writes do. On every adapter, with a pinned clock.
import { expect } from '@open-wc/testing';
import { GUIDS, localApi } from './support.js';

const app = (settings: Record<string, unknown>, progress: unknown[] = []) => ({
  app_id: 'days',
  api_keys: [{ key: 'pk_days', scopes: ['read'] }],
  settings,
  users: [{ account_name: 'ann', joined_at: '2026-01-01T00:00:00Z' }],
  challenges: [
    {
      name: 'Daily',
      start_date: '2026-01-01T00:00:00Z',
      tasks: [{ task_id: GUIDS.checkIn, name: 'Check in', quantity: 1, operator: 0, points: 5, allowretry: true }],
    },
  ],
  progress,
});

describe('streaks', () => {
  let api: ReturnType<typeof localApi>;
  const setUp = async (settings: Record<string, unknown>) => {
    const answer = await api.call('POST', '/v1/admin/import', { body: { admin_keys: ['sk_admin'], apps: [app(settings)] } });
    expect(answer.status, answer.text).to.equal(200);
  };
  /** Logs a check-in at the instant. */
  const logAt = async (instant: string) => {
    api.clock.now = Date.parse(instant);
    const answer = await api.call('POST', '/v1/admin/log_task', {
      body: { task_id: GUIDS.checkIn, account_name: 'ann', quantity: 1 },
    });
    expect(answer.status, answer.text).to.equal(200);
  };
  const streakAt = async (instant: string, call = api.call) => {
    api.clock.now = Date.parse(instant);
    const answer = await call('GET', '/v1/get_achievements?app_id=days&account_name=ann', { key: 'pk_days' });
    expect(answer.status, answer.text).to.equal(200);
    return answer.body.streak;
  };

  beforeEach(() => {
    api = localApi({ now: Date.parse('2026-01-01T00:00:00Z') });
  });
  afterEach(() => api.close());

  it('a log at 23:30 UTC is the next day in Tokyo, the same day in UTC', async () => {
    await setUp({ time_zone: 'Asia/Tokyo' });
    await logAt('2026-11-17T14:00:00Z'); // 23:00 on the 17th in Tokyo
    await logAt('2026-11-17T23:30:00Z'); // 08:30 on the 18th in Tokyo
    expect(await streakAt('2026-11-18T00:00:00Z')).to.deep.equal({
      current: 2,
      longest: 2,
      last_day: '2026-11-18',
      freezes_left: 0,
    });
  });

  it('in UTC (the default) the same two logs are one day', async () => {
    await setUp({});
    await logAt('2026-11-17T14:00:00Z');
    await logAt('2026-11-17T23:30:00Z');
    expect(await streakAt('2026-11-18T00:00:00Z')).to.deep.equal({
      current: 1,
      longest: 1,
      last_day: '2026-11-17',
      freezes_left: 0,
    });
  });

  it('counts days across the end of DST in New York (a 25-hour day)', async () => {
    await setUp({ time_zone: 'America/New_York' });
    await logAt('2026-11-01T03:30:00Z'); // 23:30 EDT on Oct 31
    await logAt('2026-11-02T04:30:00Z'); // 23:30 EST on Nov 1 (at UTC-4 it would read 00:30 on Nov 2)
    expect(await streakAt('2026-11-02T04:45:00Z')).to.include({ current: 2, last_day: '2026-11-01' });
    await logAt('2026-11-02T05:30:00Z'); // 00:30 EST on Nov 2
    expect(await streakAt('2026-11-02T06:00:00Z')).to.include({ current: 3, longest: 3, last_day: '2026-11-02' });
  });

  it('counts days across the start of DST in Berlin (a 23-hour day)', async () => {
    await setUp({ time_zone: 'Europe/Berlin' });
    await logAt('2026-03-28T22:30:00Z'); // 23:30 CET on Mar 28
    await logAt('2026-03-29T22:30:00Z'); // 00:30 CEST on Mar 30 (at UTC+1 it would read 23:30 on Mar 29)
    expect(await streakAt('2026-03-29T23:00:00Z')).to.deep.equal({
      current: 1,
      longest: 1,
      last_day: '2026-03-30',
      freezes_left: 0,
    });
  });

  it('a missed day without a freeze breaks the streak', async () => {
    await setUp({});
    await logAt('2026-11-01T10:00:00Z');
    await logAt('2026-11-02T10:00:00Z');
    // Yesterday counts: the streak stands until a whole day passes without a log.
    expect(await streakAt('2026-11-03T23:00:00Z')).to.include({ current: 2 });
    expect(await streakAt('2026-11-04T00:00:00Z')).to.include({ current: 0, longest: 2 });
    await logAt('2026-11-04T10:00:00Z');
    expect(await streakAt('2026-11-04T11:00:00Z')).to.deep.equal({
      current: 1,
      longest: 2,
      last_day: '2026-11-04',
      freezes_left: 0,
    });
  });

  it('freezes cover missed days on their own, as many a month as the app allows', async () => {
    await setUp({ streak_freezes_per_month: 1 });
    await logAt('2026-11-01T10:00:00Z');
    await logAt('2026-11-02T10:00:00Z');
    // The 3rd missed: the freeze holds the streak, and is shown as taken.
    expect(await streakAt('2026-11-04T09:00:00Z')).to.deep.equal({
      current: 2,
      longest: 2,
      last_day: '2026-11-02',
      freezes_left: 0,
    });
    await logAt('2026-11-04T10:00:00Z');
    expect(await streakAt('2026-11-04T11:00:00Z')).to.deep.equal({
      current: 3,
      longest: 3,
      last_day: '2026-11-04',
      freezes_left: 0,
    });
    // No freeze left in November: two more days missed break it.
    await logAt('2026-11-07T10:00:00Z');
    expect(await streakAt('2026-11-07T11:00:00Z')).to.include({ current: 1, longest: 3 });
    // December brings its freeze again.
    await logAt('2026-11-30T10:00:00Z');
    await logAt('2026-12-02T10:00:00Z');
    expect(await streakAt('2026-12-02T11:00:00Z')).to.deep.equal({
      current: 2,
      longest: 3,
      last_day: '2026-12-02',
      freezes_left: 0,
    });
    expect(await streakAt('2027-01-01T11:00:00Z')).to.include({ freezes_left: 1, current: 0 });
  });

  it('an import with history computes what live writes do', async () => {
    const settings = { time_zone: 'Asia/Tokyo', streak_freezes_per_month: 1 };
    const instants = [
      '2026-11-01T10:00:00Z',
      '2026-11-01T16:00:00Z', // the 2nd in Tokyo
      '2026-11-03T16:00:00Z', // the 4th: the 3rd frozen
      '2026-11-04T01:00:00Z', // still the 4th
      '2026-11-07T10:00:00Z', // the 7th: broken
      '2026-11-08T10:00:00Z',
    ];
    await setUp(settings);
    for (const instant of instants) await logAt(instant);
    const live = await streakAt('2026-11-08T12:00:00Z');
    expect(live).to.deep.equal({ current: 2, longest: 3, last_day: '2026-11-08', freezes_left: 0 });

    const imported = localApi({ now: Date.parse('2026-11-08T12:00:00Z') });
    try {
      // Out of order on purpose: the import replays them in time order.
      const progress = [...instants].reverse().map((at) => ({ task_id: GUIDS.checkIn, account_name: 'ann', quantity: 1, at }));
      const answer = await imported.call('POST', '/v1/admin/import', {
        body: { admin_keys: ['sk_admin'], apps: [app(settings, progress)] },
      });
      expect(answer.status, answer.text).to.equal(200);
      expect(await streakAt('2026-11-08T12:00:00Z', imported.call)).to.deep.equal(live);
    } finally {
      await imported.close();
    }
  });

  it('refuses an unknown time zone or a bad freeze count, naming the field', async () => {
    const zone = await api.call('POST', '/v1/admin/import', {
      body: { admin_keys: ['sk_admin'], apps: [app({ time_zone: 'Mars/Olympus_Mons' })] },
    });
    expect(zone.status).to.equal(400);
    expect(zone.body.message).to.match(/^apps\.0\.settings\.time_zone: must be an IANA time zone/);
    const freezes = await api.call('POST', '/v1/admin/import', {
      body: { admin_keys: ['sk_admin'], apps: [app({ streak_freezes_per_month: -1 })] },
    });
    expect(freezes.status).to.equal(400);
    expect(freezes.body.message).to.match(/^apps\.0\.settings\.streak_freezes_per_month/);
  });
});
