// Every rule of docs/rules.md, through the handler with a pinned clock.
import { expect } from '@open-wc/testing';
import { GUIDS, HOSTILE_NAME, WEDNESDAY, iso, localApi, seed } from './support.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('rules', () => {
  let api: ReturnType<typeof localApi>;
  const log = (task_id: string, account_name: string, quantity: number) =>
    api.call('POST', '/v1/admin/log_task', { body: { task_id, account_name, quantity } });
  const info = async (account_name: string) =>
    (await api.call('GET', `/v1/get_userinfo?app_id=guild&account_name=${encodeURIComponent(account_name)}`)).body;
  const progress = async (task_id: string, account_name: string) =>
    (await api.call('GET', `/v1/get_task_progress?task_id=${task_id}&account_name=${account_name}`)).body;

  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  describe('progress', () => {
    it('operator 0 adds logs until the sum reaches the quantity', async () => {
      expect((await log(GUIDS.posts, 'alice', 1)).body.quantity_completed).to.equal(1);
      await log(GUIDS.posts, 'alice', 1);
      expect((await info('alice')).tasks_completed).to.equal(0);
      const third = await log(GUIDS.posts, 'alice', 1);
      expect(third.body.quantity_completed).to.equal(3);
      const user = await info('alice');
      expect(user).to.include({ tasks_completed: 1, tasks_logged: 3, total_score: 10, current_xp: 10 });
    });

    it('adds decimal quantities exactly (0.7 + 0.1 reaches 0.8)', async () => {
      await api.call('POST', '/v1/admin/import', {
        body: {
          apps: [
            {
              app_id: 'guild',
              challenges: [
                {
                  challenge_id: GUIDS.onboarding,
                  name: 'Onboarding',
                  start_date: '2026-01-01T00:00:00Z',
                  tasks: [{ task_id: GUIDS.posts, name: 'Walk 0.8 km', quantity: 0.8, operator: 0 }],
                },
              ],
            },
          ],
        },
      });
      await log(GUIDS.posts, 'bob', 0.7);
      const answer = await log(GUIDS.posts, 'bob', 0.1);
      expect(answer.text).to.contain('"quantity_completed":0.8000');
      expect((await info('bob')).tasks_completed).to.equal(1);
    });

    it('operator 1 completes only when one log reaches the quantity', async () => {
      await log(GUIDS.bigPost, 'alice', 3);
      await log(GUIDS.bigPost, 'alice', 4);
      expect((await info('alice')).tasks_completed).to.equal(0);
      expect((await progress(GUIDS.bigPost, 'alice')).quantity_completed).to.equal(4);
      await log(GUIDS.bigPost, 'alice', 5);
      expect((await info('alice')).tasks_completed).to.equal(1);
    });

    it('alloweditquantity sets the progress instead of adding to it', async () => {
      await log(GUIDS.profile, 'alice', 6);
      await log(GUIDS.profile, 'alice', 4);
      expect((await progress(GUIDS.profile, 'alice')).quantity_completed).to.equal(4);
      await log(GUIDS.profile, 'alice', 10);
      expect((await info('alice')).tasks_completed).to.equal(1);
    });

    it('without allowretry later logs only count as logged', async () => {
      for (let i = 0; i < 5; i++) await log(GUIDS.posts, 'alice', 1);
      expect(await info('alice')).to.include({ tasks_completed: 1, tasks_logged: 5, total_score: 10 });
      expect((await progress(GUIDS.posts, 'alice')).quantity_completed).to.equal(3);
    });

    it('allowretry starts again from 0 and can complete again', async () => {
      await log(GUIDS.checkIn, 'alice', 1);
      expect((await progress(GUIDS.checkIn, 'alice')).quantity_completed).to.equal(0);
      await log(GUIDS.checkIn, 'alice', 1);
      await log(GUIDS.checkIn, 'alice', 1);
      expect(await info('alice')).to.include({ tasks_completed: 3, total_score: 15 });
    });

    it('refuses logs on a challenge that has not started', async () => {
      const answer = await log(GUIDS.futureTask, 'alice', 1);
      expect(answer.status).to.equal(404);
      expect(answer.body.message).to.match(/not started/);
    });

    it('refuses a quantity of 0 unless the task allows editing', async () => {
      expect((await log(GUIDS.posts, 'alice', 0)).status).to.equal(400);
      expect((await log(GUIDS.profile, 'alice', 0)).status).to.equal(200);
    });
  });

  describe('challenges', () => {
    const completeAll = async (name: string) => {
      for (let i = 0; i < 3; i++) await log(GUIDS.posts, name, 1);
      await log(GUIDS.bigPost, name, 5);
      await log(GUIDS.checkIn, name, 1);
      await log(GUIDS.profile, name, 10);
    };

    it('complete once each task has completed, once per member', async () => {
      await completeAll('alice');
      const user = await info('alice');
      expect(user).to.include({ challenges_completed: 1, tasks_completed: 4 });
      // 10 + 20 + 5 + 15 for the tasks, 50 for the challenge
      expect(user.total_score).to.equal(100);
      expect(user.total_achievements).to.equal(5);
      await log(GUIDS.checkIn, 'alice', 1);
      expect(await info('alice')).to.include({ challenges_completed: 1, tasks_completed: 5, total_score: 105 });
    });
  });

  describe('levels', () => {
    it('begin at 50·(L−1)·L total XP', async () => {
      expect(await info('bob')).to.include({ current_xp: 0, current_level: 1, next_level_xp: 100 });
      for (let i = 0; i < 3; i++) await log(GUIDS.posts, 'bob', 1);
      await log(GUIDS.bigPost, 'bob', 5);
      await log(GUIDS.checkIn, 'bob', 1);
      await log(GUIDS.profile, 'bob', 10);
      // 100 XP: level 2 begins exactly there
      expect(await info('bob')).to.include({ current_xp: 100, current_level: 2, next_level_xp: 300 });
      for (let i = 0; i < 40; i++) await log(GUIDS.checkIn, 'bob', 1);
      expect(await info('bob')).to.include({ current_xp: 300, current_level: 3, next_level_xp: 600 });
    });
  });

  describe('periods', () => {
    it('weekly counts since Monday 00:00 UTC, monthly since the 1st', async () => {
      const monday = Date.UTC(2026, 10, 16);
      await api.call('POST', '/v1/admin/import', {
        body: {
          apps: [
            {
              app_id: 'guild',
              progress: [
                { task_id: GUIDS.checkIn, account_name: 'carol', quantity: 1, at: iso(monday - 1000) },
                { task_id: GUIDS.checkIn, account_name: 'carol', quantity: 1, at: iso(monday) },
                { task_id: GUIDS.checkIn, account_name: 'carol', quantity: 1, at: iso(Date.UTC(2026, 9, 31, 23, 59)) },
              ],
            },
          ],
        },
      });
      expect(await info('carol')).to.include({ total_score: 15, challenge_score_weekly: 5, challenge_score_monthly: 10 });
      api.clock.now = WEDNESDAY + 7 * DAY;
      expect(await info('carol')).to.include({ challenge_score_weekly: 0, challenge_score_monthly: 10 });
      api.clock.now = Date.UTC(2026, 11, 1);
      expect(await info('carol')).to.include({ challenge_score_weekly: 0, challenge_score_monthly: 0, total_score: 15 });
    });
  });

  describe('endorsements', () => {
    const endorse = (from_account: string, to_account: string, endorsement_id = 'helpful') =>
      api.call('POST', '/v1/endorse_account', { body: { app_id: 'guild', from_account, to_account, endorsement_id } });

    it('add the app endorsement XP to the receiver, not to the score', async () => {
      expect((await endorse('alice', 'bob')).body).to.deep.equal({ is_valid: true, message: null });
      expect(await info('bob')).to.include({ current_xp: 5, total_score: 0 });
      expect(await info('alice')).to.include({ current_xp: 0 });
    });

    it('store the same endorsement once and answer it as success', async () => {
      await endorse('alice', 'bob');
      const again = await endorse('alice', 'bob');
      expect(again.status).to.equal(200);
      expect(again.body.is_valid).to.equal(true);
      expect((await info('bob')).current_xp).to.equal(5);
      await endorse('alice', 'bob', 'kind');
      expect((await info('bob')).current_xp).to.equal(10);
    });

    it('refuse endorsing oneself (400) and unknown accounts (404)', async () => {
      expect((await endorse('alice', 'alice')).status).to.equal(400);
      expect((await endorse('alice', 'nobody')).status).to.equal(404);
      expect((await endorse('nobody', 'alice')).status).to.equal(404);
    });

    it('use the app setting endorsement_xp', async () => {
      await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'guild', settings: { endorsement_xp: 12 } }] } });
      await endorse('carol', 'bob');
      expect((await info('bob')).current_xp).to.equal(12);
    });
  });

  describe('connect_social', () => {
    it('upserts the handle without its @, and creates the member', async () => {
      const body = { app_id: 'guild', account_name: 'dora', twitter_name: '@dora_builds' };
      expect((await api.call('POST', '/v1/connect_social', { body })).body).to.deep.equal({ is_valid: true, message: null });
      expect((await info('dora')).account_name).to.equal('dora');
      const exported = (await api.call('GET', '/v1/admin/export?app_id=guild')).body;
      expect(exported.apps[0].users.find((u: any) => u.account_name === 'dora').twitter_name).to.equal('dora_builds');
      const board = (await api.call('GET', '/v1/get_leaderboard?app_id=guild')).body;
      expect(board.total_users).to.equal(5);
    });

    it('rejects handles that are not 1–15 letters, digits or _', async () => {
      for (const twitter_name of ['', 'has space', 'sixteen_chars_xx', 'dash-ed', '@']) {
        const answer = await api.call('POST', '/v1/connect_social', {
          body: { app_id: 'guild', account_name: 'alice', twitter_name },
        });
        expect(answer.status, twitter_name).to.equal(400);
        expect(answer.body.message).to.match(/^twitter_name/);
      }
    });
  });

  describe('account names', () => {
    it('are matched exactly and shown exactly as given', async () => {
      const user = await info(HOSTILE_NAME);
      expect(user.account_name).to.equal(HOSTILE_NAME);
      expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=Alice')).status).to.equal(404);
    });

    it('accept any Unicode of 1–64 characters without control characters', async () => {
      const ok = ['Ωμέγα', '山田太郎', '🦊'.repeat(64)];
      for (const account_name of ok) {
        const answer = await api.call('POST', '/v1/connect_social', {
          body: { app_id: 'guild', account_name, twitter_name: 'x' },
        });
        expect(answer.status, account_name).to.equal(200);
        expect((await info(account_name)).account_name).to.equal(account_name);
      }
      for (const account_name of ['', 'a'.repeat(65), 'tab\there', 'nul\u0000']) {
        const answer = await api.call('POST', '/v1/connect_social', {
          body: { app_id: 'guild', account_name, twitter_name: 'x' },
        });
        expect(answer.status, JSON.stringify(account_name)).to.equal(400);
      }
    });
  });
});
