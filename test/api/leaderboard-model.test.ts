// The leaderboard against a brute-force model: random members and events,
// every board, every rank policy, pages and windows cut from the whole board.
import { expect } from '@open-wc/testing';
import { seededRandom as random } from '../../bench/seeded-random.js';
import { GUIDS, WEDNESDAY, iso, localApi, checkInApp } from './support.js';

const DAY = 86_400_000;

const MEMBERS = 400;

describe('leaderboard model check', () => {
  let api: ReturnType<typeof localApi>;
  before(async function () {
    this.timeout(60_000);
    api = localApi({ now: WEDNESDAY });
    const next = random(7);
    const names = Array.from({ length: MEMBERS }, (_, i) => `member-${String(i).padStart(3, '0')}`);
    const progress = names.flatMap((account_name) =>
      Array.from({ length: next() < 0.6 ? 0 : Math.floor(next() * 4) }, () => ({
        task_id: GUIDS.checkIn,
        account_name,
        quantity: 1,
        // Whole days only, so that many members tie on their values and times.
        at: iso(WEDNESDAY - Math.floor(next() * 40) * DAY),
      })),
    );
    const endorsements = names
      .slice(0, 20)
      .map((from, i) => ({ from_account: from, to_account: names[(i * 7) % MEMBERS]!, endorsement_id: 'x' }))
      .filter((e) => e.from_account !== e.to_account);
    const answer = await api.call('POST', '/v1/admin/import', {
      body: {
        admin_keys: ['sk_admin'],
        apps: [
          {
            ...checkInApp('model', names),
            progress,
            endorsements,
          },
        ],
      },
    });
    expect(answer.status, answer.text).to.equal(200);
    // Then live writes, one member at a time: new members pile into the last
    // slot of the zero group until it splits, and members move between groups.
    for (let i = 0; i < 200; i++) {
      api.clock.now += 1000;
      await api.call('POST', '/v1/connect_social', {
        body: { app_id: 'model', account_name: `late-${String(i).padStart(3, '0')}`, twitter_name: 'x' },
      });
    }
    for (let i = 0; i < 120; i++) {
      api.clock.now += 1000;
      const account_name =
        i % 2 ? names[Math.floor(next() * MEMBERS)]! : `late-${String(Math.floor(next() * 200)).padStart(3, '0')}`;
      await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name, quantity: 1 } });
    }
    // Endorsements change XP alone: on the other boards a member's row changes where it stands.
    for (let i = 0; i < 60; i++) {
      api.clock.now += 1000;
      const [from_account, to_account] = [names[Math.floor(next() * MEMBERS)]!, names[Math.floor(next() * MEMBERS)]!];
      if (from_account === to_account) continue;
      const endorsed = await api.call('POST', '/v1/endorse_account', {
        body: { app_id: 'model', from_account, to_account, endorsement_id: `live-${i}` },
      });
      expect(endorsed.status, endorsed.text).to.equal(200);
    }
  });
  after(() => api.close());

  const get = async (query: string) => (await api.call('GET', `/v1/get_leaderboard?app_id=model${query}`)).body;

  for (const policy of ['olympic', 'dense', 'ordinal']) {
    for (const type of ['score', 'xp', 'weekly', 'monthly']) {
      it(`${type} board, ${policy} ranks: whole, pages and windows agree with the model`, async function () {
        this.timeout(60_000);
        await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'model', settings: { rank_policy: policy } }] } });
        const whole = (await get(`&leaderboard_type=${type}&limit=1000`)).leaderboard_users;
        expect(whole).to.have.length(MEMBERS + 200);
        const valueOf = (entry: any) => (type === 'xp' ? entry.total_xp : entry.score);
        // Ordered by value, and ranks follow the policy.
        let distinct = 0;
        whole.forEach((entry: any, index: number) => {
          const value = valueOf(entry);
          const previous = index === 0 ? undefined : valueOf(whole[index - 1]);
          if (previous !== undefined) expect(previous).to.be.at.least(value);
          if (previous !== value) distinct++;
          const higher = whole.filter((other: any) => valueOf(other) > value).length;
          const expected = policy === 'ordinal' ? index + 1 : policy === 'dense' ? distinct : higher + 1;
          expect(entry.rank, `${entry.external_user.username} at ${index}`).to.equal(expected);
        });
        if (policy === 'olympic') {
          // Every entry shows the member as they are now.
          for (const entry of whole) {
            const info = (await api.call('GET', `/v1/get_userinfo?app_id=model&account_name=${entry.external_user.username}`))
              .body;
            const score =
              { weekly: info.challenge_score_weekly, monthly: info.challenge_score_monthly }[type] ?? info.total_score;
            expect(
              [entry.challenge_count, entry.task_count, entry.score, entry.total_xp],
              entry.external_user.username,
            ).to.deep.equal([info.challenges_completed, info.tasks_completed, score, info.current_xp]);
          }
        }
        for (const offset of [0, 1, 7, 13, 29, 45, 59, 64, 127, 128, 129, 200, 333, 450, 599, 600]) {
          const page = (await get(`&leaderboard_type=${type}&limit=9&offset=${offset}`)).leaderboard_users;
          expect(page, `offset ${offset}`).to.deep.equal(whole.slice(offset, offset + 9));
        }
        for (const index of [0, 4, 30, 58, 64, 65, 130, 257, 400, 555, 598, 599]) {
          const name = whole[index].external_user.username;
          const window = (await get(`&leaderboard_type=${type}&limit=5&around=${name}`)).leaderboard_users;
          const start = Math.max(0, Math.min(index - 2, MEMBERS + 200 - 5));
          expect(window, `around ${name}`).to.deep.equal(whole.slice(start, start + 5));
        }
      });
    }
  }
});

describe('leaderboard counts after a bulk import', () => {
  it('stay right when live writes move members out of the zero group', async function () {
    this.timeout(60_000);
    const api = localApi({ now: WEDNESDAY });
    try {
      // 700 members × 2 boards: one import of many changes, merged into the runs at once.
      const names = Array.from({ length: 700 }, (_, i) => `z-${String(i).padStart(3, '0')}`);
      const imported = await api.call('POST', '/v1/admin/import', {
        body: {
          admin_keys: ['sk_admin'],
          apps: [
            {
              ...checkInApp('bulk', names),
            },
          ],
        },
      });
      expect(imported.status, imported.text).to.equal(200);
      await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name: 'z-100', quantity: 1 } });
      const around = await api.call('GET', '/v1/get_leaderboard?app_id=bulk&around=z-400&limit=3');
      expect(around.status, around.text).to.equal(200);
      // z-100 leads; everyone else ties at 0, by name, so z-400 stands at position 400.
      expect(around.body.leaderboard_users.map((e: any) => `${e.rank}:${e.external_user.username}`)).to.deep.equal([
        '2:z-399',
        '2:z-400',
        '2:z-401',
      ]);
      const page = await api.call('GET', '/v1/get_leaderboard?app_id=bulk&offset=650&limit=2');
      expect(page.body.leaderboard_users.map((e: any) => e.external_user.username)).to.deep.equal(['z-650', 'z-651']);
    } finally {
      await api.close();
    }
  });
});
