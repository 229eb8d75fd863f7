// Badges (docs/rules.md, Badges): definitions, rule awards live and retroactive, awards by hand,
// get_achievements, get_challenge's badge and rewarddata, export and import, and the refusals.
// On every adapter: the page's IndexedDB, the server's PGlite and PostgreSQL.
import { expect } from '@open-wc/testing';
import { GUIDS, WEDNESDAY, iso, localApi, seed } from './support.js';

const MINUTE = 60_000;

describe('badges', () => {
  let api: ReturnType<typeof localApi>;
  const log = (task_id: string, account_name: string, quantity = 1) =>
    api.call('POST', '/v1/admin/log_task', { body: { task_id, account_name, quantity } });
  const define = (badge: Record<string, unknown>, key?: string) =>
    api.call('POST', '/v1/admin/badges', {
      body: { app_id: 'guild', name: 'A badge', description: 'For something.', ...badge },
      ...(key ? { key } : {}),
    });
  const award = (badge_id: string, account_name: string, key?: string) =>
    api.call('POST', '/v1/admin/award_badge', { body: { app_id: 'guild', badge_id, account_name }, ...(key ? { key } : {}) });
  const achievements = async (account_name: string, call = api.call) =>
    (await call('GET', `/v1/get_achievements?app_id=guild&account_name=${encodeURIComponent(account_name)}`, { key: 'pk_read' }))
      .body;
  const held = async (account_name: string) =>
    (await achievements(account_name)).badges.map((badge: { badge_id: string }) => badge.badge_id);

  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  it('get_achievements: the exact shape, an empty start, and 404 for a stranger', async () => {
    const answer = await api.call('GET', '/v1/get_achievements?app_id=guild&account_name=alice', { key: 'pk_read' });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({
      account_name: 'alice',
      badges: [],
      streak: { current: 0, longest: 0, last_day: null, freezes_left: 0 },
      is_valid: true,
      message: null,
    });
    const stranger = await api.call('GET', '/v1/get_achievements?app_id=guild&account_name=nobody', { key: 'pk_read' });
    expect(stranger.status).to.equal(404);
    expect(stranger.body.message).to.match(/user not found/i);
  });

  it('a rule badge comes with the write that first makes its rule hold, once', async () => {
    expect((await define({ badge_id: 'two-tasks', rule: { kind: 'tasks_completed', at_least: 2 } })).status).to.equal(200);
    await log(GUIDS.checkIn, 'alice');
    expect(await held('alice')).to.deep.equal([]);
    api.clock.now = WEDNESDAY + 5 * MINUTE;
    await log(GUIDS.checkIn, 'alice');
    api.clock.now = WEDNESDAY + 10 * MINUTE;
    await log(GUIDS.checkIn, 'alice');
    const { badges } = await achievements('alice');
    expect(badges).to.deep.equal([
      {
        badge_id: 'two-tasks',
        name: 'A badge',
        description: 'For something.',
        image_url: null,
        earned_at: iso(WEDNESDAY + 5 * MINUTE),
      },
    ]);
    expect(await held('bob')).to.deep.equal([]);
    // Badges count as achievements beside tasks and challenges.
    const info = await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key: 'pk_read' });
    expect(info.body.total_achievements).to.equal(3 + 1);
  });

  it('a badge defined later goes to the members who already qualify, at its definition', async () => {
    await log(GUIDS.checkIn, 'alice');
    await log(GUIDS.checkIn, 'alice');
    await log(GUIDS.checkIn, 'bob');
    api.clock.now = WEDNESDAY + MINUTE;
    const answer = await define({ badge_id: 'two-tasks', rule: { kind: 'tasks_completed', at_least: 2 } });
    expect(answer.body).to.deep.equal({ is_valid: true, message: null, awarded: 1 });
    expect((await achievements('alice')).badges[0].earned_at).to.equal(iso(WEDNESDAY + MINUTE));
    expect(await held('bob')).to.deep.equal([]);
    // Defined again (updated), it awards nobody twice; a lower bar reaches bob.
    const lowered = await define({ badge_id: 'two-tasks', name: 'Renamed', rule: { kind: 'tasks_completed', at_least: 1 } });
    expect(lowered.body.awarded).to.equal(1);
    const info = await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob', { key: 'pk_read' });
    expect(info.body.total_achievements).to.equal(1 + 1);
    const alice = await achievements('alice');
    expect(alice.badges).to.have.length(1);
    expect(alice.badges[0]).to.include({ name: 'Renamed', earned_at: iso(WEDNESDAY + MINUTE) });
    expect(await held('bob')).to.deep.equal(['two-tasks']);
  });

  it('level and streak badges, live and retroactive', async () => {
    // 20 check-ins of 5 points: 100 XP, level 2, on one day (a streak of 1).
    await define({ badge_id: 'level-2', rule: { kind: 'level', at_least: 2 } });
    for (let i = 0; i < 20; i++) await log(GUIDS.checkIn, 'alice');
    expect(await held('alice')).to.deep.equal(['level-2']);
    await define({ badge_id: 'streak-1', rule: { kind: 'streak', at_least: 1 } });
    await define({ badge_id: 'streak-2', rule: { kind: 'streak', at_least: 2 } });
    expect(await held('alice')).to.deep.equal(['level-2', 'streak-1']);
    api.clock.now = WEDNESDAY + 24 * 60 * MINUTE;
    await log(GUIDS.checkIn, 'alice');
    expect(await held('alice')).to.deep.equal(['level-2', 'streak-1', 'streak-2']);
  });

  it('a challenge badge: get_challenge names it and what completing pays, and completing awards it', async () => {
    const before = await api.call('GET', `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`, { key: 'pk_read' });
    expect(before.body).to.include({ badge: null, rewarddata: null });
    await define({
      badge_id: 'onboarded',
      name: 'Onboarded',
      image_url: 'https://example.org/onboarded.png',
      rule: { kind: 'challenge', challenge_id: GUIDS.onboarding },
    });
    const after = await api.call('GET', `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`, { key: 'pk_read' });
    expect(after.body.badge).to.deep.equal({
      badge_id: 'onboarded',
      name: 'Onboarded',
      description: 'For something.',
      image_url: 'https://example.org/onboarded.png',
    });
    expect(after.body.rewarddata).to.deep.equal({ points: 50, xp: 50, badge_id: 'onboarded' });
    await log(GUIDS.posts, 'alice', 3);
    await log(GUIDS.bigPost, 'alice', 5);
    await log(GUIDS.checkIn, 'alice');
    expect(await held('alice')).to.deep.equal([]);
    await log(GUIDS.profile, 'alice', 10);
    expect(await held('alice')).to.deep.equal(['onboarded']);
  });

  it('get_badges: every badge with the member’s progress, capped; a stranger or no member stands at zero', async () => {
    expect((await define({ badge_id: 'two-tasks', rule: { kind: 'tasks_completed', at_least: 2 } })).status).to.equal(200);
    expect(
      (await define({ badge_id: 'onboarded', rule: { kind: 'challenge', challenge_id: GUIDS.onboarding } })).status,
    ).to.equal(200);
    expect((await define({ badge_id: 'by-hand', rule: { kind: 'manual' } })).status).to.equal(200);
    await log(GUIDS.checkIn, 'alice');
    const wall = async (query: string) => (await api.call('GET', `/v1/get_badges?app_id=guild${query}`, { key: 'pk_read' })).body;
    const standing = (answer: { badges: { badge_id: string; earned_at: string | null; progress: unknown }[] }) =>
      answer.badges.map(({ badge_id, earned_at, progress }) => [badge_id, earned_at !== null, progress]);
    expect(standing(await wall('&account_name=alice'))).to.deep.equal([
      ['two-tasks', false, { current: 1, target: 2 }],
      ['onboarded', false, { current: 0, target: 1 }],
      ['by-hand', false, null],
    ]);
    api.clock.now = WEDNESDAY + 5 * MINUTE;
    await log(GUIDS.checkIn, 'alice');
    api.clock.now = WEDNESDAY + 10 * MINUTE;
    await log(GUIDS.checkIn, 'alice');
    expect((await award('by-hand', 'alice')).status).to.equal(200);
    const alice = await wall('&account_name=alice');
    expect(alice.badges[0]).to.deep.equal({
      badge_id: 'two-tasks',
      name: 'A badge',
      description: 'For something.',
      image_url: null,
      rule: { kind: 'tasks_completed', at_least: 2 },
      earned_at: iso(WEDNESDAY + 5 * MINUTE),
      // Three tasks done, shown as the target reached.
      progress: { current: 2, target: 2 },
    });
    expect(standing(alice).slice(1)).to.deep.equal([
      ['onboarded', false, { current: 0, target: 1 }],
      ['by-hand', true, null],
    ]);
    const zero = [
      ['two-tasks', false, { current: 0, target: 2 }],
      ['onboarded', false, { current: 0, target: 1 }],
      ['by-hand', false, null],
    ];
    expect(standing(await wall('&account_name=nobody'))).to.deep.equal(zero);
    expect(standing(await wall(''))).to.deep.equal(zero);
    expect((await api.call('GET', '/v1/get_badges?app_id=nowhere', { key: 'pk_read' })).status).to.equal(404);
  });

  it('award_badge gives any badge by hand, once; again is a 200 that changes nothing', async () => {
    await define({ badge_id: 'helper', rule: { kind: 'manual' } });
    const first = await award('helper', 'alice');
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.equal({ is_valid: true, message: null, awarded: true });
    api.clock.now = WEDNESDAY + MINUTE;
    const again = await award('helper', 'alice');
    expect(again.status).to.equal(200);
    expect(again.body.awarded).to.equal(false);
    expect((await achievements('alice')).badges[0].earned_at).to.equal(iso(WEDNESDAY));
    expect(api.changes.some((change) => change.scope === 'members' && change.account_names.includes('alice'))).to.equal(true);
  });

  it('awards once under concurrency: of five awards at once, one awards', async () => {
    await define({ badge_id: 'helper', rule: { kind: 'manual' } });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => award('helper', 'carol')));
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.awarded === true)).to.have.length(1);
  });

  it('two concurrent writes that both make a rule hold award it once', async () => {
    await define({ badge_id: 'first-task', rule: { kind: 'tasks_completed', at_least: 1 } });
    const answers = await Promise.all([log(GUIDS.checkIn, 'carol'), log(GUIDS.profile, 'carol', 10)]);
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200]);
    expect(await held('carol')).to.deep.equal(['first-task']);
    const info = await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=carol', { key: 'pk_read' });
    expect(info.body.total_achievements).to.equal(2 + 1);
  });

  it('refusals: unknown badge or member 404, read and member keys 403, bad rules 400 naming the field', async () => {
    const unknown = await award('nope', 'alice');
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get('x-questboard-error')).to.equal('badge-not-found');
    await define({ badge_id: 'helper', rule: { kind: 'manual' } });
    const stranger = await award('helper', 'nobody');
    expect(stranger.status).to.equal(404);
    expect(stranger.headers.get('x-questboard-error')).to.equal('member-not-found');
    await api.call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'guild', api_keys: [{ key: 'pk_member', scopes: ['read', 'member'] }] }] },
    });
    for (const key of ['pk_read', 'pk_write', 'pk_member']) {
      expect((await define({ badge_id: 'x', rule: { kind: 'manual' } }, key)).status, key).to.equal(403);
      expect((await award('helper', 'alice', key)).status, key).to.equal(403);
    }
    expect((await award('helper', 'zed', 'pk_other')).status).to.equal(403);
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ kind: 'often' }, /^rule/],
      [{ kind: 'tasks_completed' }, /^rule\.at_least/],
      [{ kind: 'level', at_least: 0 }, /^rule\.at_least: must be at least 1/],
      [{ kind: 'streak', at_least: 1.5 }, /^rule\.at_least/],
      [{ kind: 'challenge' }, /^rule\.challenge_id/],
      [{ kind: 'challenge', challenge_id: GUIDS.otherChallenge }, /^rule\.challenge_id: no such challenge in this app/],
      [{ kind: 'manual', at_least: 3 }, /^rule/],
    ];
    for (const [rule, message] of refusals) {
      const answer = await define({ badge_id: 'bad', rule });
      expect(answer.status, JSON.stringify(rule)).to.equal(400);
      expect(answer.body.message, JSON.stringify(rule)).to.match(message);
    }
    const badUrl = await define({ badge_id: 'bad', image_url: 'javascript:alert(1)', rule: { kind: 'manual' } });
    expect(badUrl.body.message).to.match(/^image_url: must be an http\(s\) URL/);
    const noName = await define({ badge_id: 'bad', name: '', rule: { kind: 'manual' } });
    expect(noName.body.message).to.match(/^name: must not be empty/);
    expect(await held('alice')).to.deep.equal([]);
  });

  it('an import with history awards as the history crosses the rules, at its times', async () => {
    const at = (minutes: number) => iso(WEDNESDAY - 60 * MINUTE + minutes * MINUTE);
    const imported = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          {
            app_id: 'guild',
            badges: [{ badge_id: 'two-tasks', name: 'Two', description: '', rule: { kind: 'tasks_completed', at_least: 2 } }],
            progress: [
              { task_id: GUIDS.checkIn, account_name: 'bob', quantity: 1, at: at(20) },
              { task_id: GUIDS.checkIn, account_name: 'bob', quantity: 1, at: at(10) },
              { task_id: GUIDS.checkIn, account_name: 'carol', quantity: 1, at: at(5) },
            ],
          },
        ],
      },
    });
    expect(imported.status, imported.text).to.equal(200);
    expect((await achievements('bob')).badges[0].earned_at).to.equal(at(20));
    expect(await held('carol')).to.deep.equal([]);
  });

  it('an import refuses awards of unknown badges or members, naming where', async () => {
    const importing = (badge_awards: unknown[]) =>
      api.call('POST', '/v1/admin/import', {
        body: {
          apps: [
            {
              app_id: 'guild',
              badges: [{ badge_id: 'b', name: 'B', description: '', rule: { kind: 'manual' } }],
              badge_awards,
            },
          ],
        },
      });
    const unknownBadge = await importing([{ badge_id: 'c', account_name: 'alice', earned_at: iso(WEDNESDAY) }]);
    expect(unknownBadge.status).to.equal(400);
    expect(unknownBadge.body.message).to.match(/^apps\[0\]\.badge_awards\[0\]\.badge_id: no such badge/);
    const unknownMember = await importing([{ badge_id: 'b', account_name: 'nobody', earned_at: iso(WEDNESDAY) }]);
    expect(unknownMember.status).to.equal(400);
    expect(unknownMember.body.message).to.match(/^apps\[0\]\.badge_awards\[0\]\.account_name/);
    const badRule = await api.call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'guild', badges: [{ badge_id: 'b', name: 'B', description: '', rule: { kind: 'x' } }] }] },
    });
    expect(badRule.status).to.equal(400);
    expect(badRule.body.message).to.match(/^apps\.0\.badges\.0\.rule/);
  });

  it('export → import elsewhere answers the same', async () => {
    await define({ badge_id: 'two-tasks', rule: { kind: 'tasks_completed', at_least: 2 } });
    await define({ badge_id: 'helper', image_url: 'https://example.org/h.png', rule: { kind: 'manual' } });
    await define({ badge_id: 'onboarded', rule: { kind: 'challenge', challenge_id: GUIDS.onboarding } });
    await log(GUIDS.checkIn, 'alice');
    api.clock.now += 24 * 60 * MINUTE;
    await log(GUIDS.checkIn, 'alice');
    await award('helper', 'bob');
    await api.call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'guild', settings: { time_zone: 'Asia/Tokyo', streak_freezes_per_month: 2 } }] },
    });
    // Defined after the history: alice's award is at its definition, not at her second log.
    api.clock.now += MINUTE;
    await define({ badge_id: 'one-task', rule: { kind: 'tasks_completed', at_least: 1 } });
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    expect(exported.status).to.equal(200);
    expect(exported.body.apps[0].settings).to.include({ time_zone: 'Asia/Tokyo', streak_freezes_per_month: 2 });

    const elsewhere = localApi({ now: api.clock.now });
    try {
      const imported = await elsewhere.call('POST', '/v1/admin/import', { body: { admin_keys: ['sk_admin'], ...exported.body } });
      expect(imported.status, imported.text).to.equal(200);
      for (const name of ['alice', 'bob', 'carol']) {
        expect(await achievements(name, elsewhere.call), name).to.deep.equal(await achievements(name));
        const info = `/v1/get_userinfo?app_id=guild&account_name=${name}`;
        expect((await elsewhere.call('GET', info)).body, name).to.deep.equal((await api.call('GET', info)).body);
      }
      const bob = await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob');
      expect(bob.body.total_achievements).to.equal(1);
      const challenge = `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`;
      expect((await elsewhere.call('GET', challenge)).body).to.deep.equal((await api.call('GET', challenge)).body);
      const again = await elsewhere.call('GET', '/v1/admin/export?app_id=guild');
      expect(again.body).to.deep.equal(exported.body);
    } finally {
      await elsewhere.close();
    }
  });
});
