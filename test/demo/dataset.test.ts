import { expect } from '@open-wc/testing';
import { QuestboardClient, QuestboardError, inPageTransport } from '../../src/client/index.js';
import {
  CHALLENGE_IDS,
  DEMO_ADMIN_KEY,
  DEMO_API_KEY,
  DEMO_APP_ID,
  DEMO_MEMBER_KEY,
  DEMO_MEMBER_TOKEN_KEY,
  DEMO_TREASURY,
  HOSTILE_NAME,
  SEASON_IDS,
  MEETUP_CODE,
  TASK_IDS,
  generateDataset,
  type Dataset,
  type DatasetApp,
} from '../../demo/dataset.js';
import { signMemberToken } from '../../demo/member-tokens.js';

const NOW = new Date('2026-11-22T03:00:00Z');
const DAY_MS = 86_400_000;
const DB_NAME = 'questboard-test-demo-dataset';

function guild(dataset: Dataset): DatasetApp {
  const [app] = dataset.apps;
  if (!app) throw new Error('the dataset has no app');
  return app;
}

describe('the demo dataset', () => {
  it('is the same for the same seed and moment', () => {
    expect(JSON.stringify(generateDataset({ now: NOW }))).to.equal(JSON.stringify(generateDataset({ now: NOW })));
  });

  it('keeps its members when opened a week later, and moves every timestamp along with now', () => {
    const later = new Date(NOW.getTime() + 7 * DAY_MS);
    const first = guild(generateDataset({ now: NOW }));
    const second = guild(generateDataset({ now: later }));
    expect(second.users).to.deep.equal(first.users);
    expect(second.progress.length).to.equal(first.progress.length);
    const shift = (at: string) => Date.parse(at) + 7 * DAY_MS;
    expect(second.progress.map((entry) => Date.parse(entry.at))).to.deep.equal(first.progress.map((entry) => shift(entry.at)));
  });

  it('is a believable crowd: several hundred distinct names in many scripts, with emoji and one hostile name', () => {
    const names = guild(generateDataset({ now: NOW })).users.map((user) => user.account_name);
    expect(names.length).to.be.within(300, 1000);
    expect(new Set(names).size).to.equal(names.length);
    for (const script of ['Greek', 'Cyrillic', 'Han', 'Hiragana', 'Hangul', 'Arabic', 'Hebrew', 'Devanagari', 'Thai']) {
      expect(
        names.some((name) => new RegExp(`\\p{Script=${script}}`, 'u').test(name)),
        script,
      ).to.equal(true);
    }
    expect(names.filter((name) => /\p{Extended_Pictographic}/u.test(name)).length).to.be.greaterThan(3);
    expect(names).to.include(HOSTILE_NAME);
    for (const name of names) {
      expect([...name].length, name).to.be.within(1, 64);
      expect(/\p{Cc}/u.test(name), name).to.equal(false);
    }
  });

  it('has a task of every kind and one challenge that has not started', () => {
    const app = guild(generateDataset({ now: NOW }));
    const tasks = app.challenges.flatMap((challenge) => challenge.tasks);
    expect(tasks.some((task) => task.operator === 0)).to.equal(true);
    expect(tasks.some((task) => task.operator === 1)).to.equal(true);
    expect(tasks.some((task) => task.allowretry)).to.equal(true);
    expect(tasks.some((task) => task.alloweditquantity)).to.equal(true);
    const upcoming = app.challenges.filter((challenge) => Date.parse(challenge.start_date) > NOW.getTime());
    expect(upcoming.map((challenge) => challenge.challenge_id)).to.deep.equal([CHALLENGE_IDS.winterHackathon]);
  });

  it('spreads progress over the past weeks, never into the future or before a challenge opened', () => {
    const app = guild(generateDataset({ now: NOW }));
    const opened = new Map(
      app.challenges.flatMap((challenge) => challenge.tasks.map((task) => [task.task_id, Date.parse(challenge.start_date)])),
    );
    const times = app.progress.map((entry) => Date.parse(entry.at));
    expect(Math.max(...times)).to.be.at.most(NOW.getTime());
    expect(times.filter((time) => time > NOW.getTime() - 7 * DAY_MS).length).to.be.greaterThan(100);
    expect(times.filter((time) => time < NOW.getTime() - 30 * DAY_MS).length).to.be.greaterThan(100);
    for (const entry of app.progress) expect(Date.parse(entry.at)).to.be.at.least(opened.get(entry.task_id)!);
  });

  it('funds the treasury and lists the keys the demo pages use', () => {
    const dataset = generateDataset({ now: NOW });
    const app = guild(dataset);
    expect(app.treasury.account_id).to.equal(DEMO_TREASURY);
    expect(Number(app.treasury.balance)).to.be.greaterThan(0);
    expect(app.api_keys).to.deep.equal([
      { key: DEMO_MEMBER_KEY, scopes: ['read', 'member'] },
      { key: DEMO_API_KEY, scopes: ['read', 'write', 'ledger'] },
    ]);
    expect(app.settings.member_token_keys).to.deep.equal([DEMO_MEMBER_TOKEN_KEY]);
    expect(dataset.admin_keys).to.deep.equal([DEMO_ADMIN_KEY]);
    expect(app.endorsements.length).to.be.greaterThan(100);
  });
});

describe('the demo dataset imported through the API', () => {
  const transport = inPageTransport({ dbName: DB_NAME });
  const member = new QuestboardClient({ transport, apiKey: DEMO_API_KEY });
  const admin = new QuestboardClient({ transport, apiKey: DEMO_ADMIN_KEY });

  before(async () => {
    await admin.admin.importDataset(generateDataset({ now: new Date() }));
  });

  after(async () => {
    await transport.close();
    await new Promise((resolve, reject) => {
      const request = indexedDB.deleteDatabase(DB_NAME);
      request.onsuccess = resolve;
      request.onerror = () => reject(request.error);
    });
  });

  const topTen = async (leaderboard_type: 'score' | 'xp' | 'weekly' | 'monthly') =>
    (await member.getLeaderboard({ app_id: DEMO_APP_ID, leaderboard_type, limit: 10 })).leaderboard_users.map(
      (entry) => entry.external_user.username,
    );

  it('is accepted whole on an empty store, every member counted', async () => {
    const board = await member.getLeaderboard({ app_id: DEMO_APP_ID, limit: 1 });
    expect(board.total_users).to.equal(guild(generateDataset({ now: NOW })).users.length);
  });

  it('gives the all-time, weekly and monthly boards different leaders', async () => {
    const [score, weekly, monthly] = await Promise.all([topTen('score'), topTen('weekly'), topTen('monthly')]);
    expect(weekly).to.not.deep.equal(score);
    expect(monthly).to.not.deep.equal(score);
    expect(weekly).to.not.deep.equal(monthly);
    expect(weekly[0]).to.equal('bob');
  });

  it('starts alice outside the top ten, one shipped project away from it', async () => {
    expect(await topTen('score')).to.not.include('alice');
    const before = await member.getTaskProgress({ task_id: '7b2c3d4e-0201-4000-8000-00000000a201', account_name: 'alice' });
    expect(before.quantity_completed).to.equal(0);
    await admin.admin.logTask({ task_id: '7b2c3d4e-0201-4000-8000-00000000a201', account_name: 'alice', quantity: 1 });
    expect(await topTen('score')).to.include('alice');
  });

  it("takes the tokens the demo signs for the pages' member key, and only as their member", async () => {
    const page = new QuestboardClient({ transport, apiKey: DEMO_MEMBER_KEY, memberToken: () => signMemberToken('carol') });
    await page.endorseAccount({ app_id: DEMO_APP_ID, to_account: 'alice', endorsement_id: 'demo-token' });
    const exported = await admin.admin.exportApp({ app_id: DEMO_APP_ID });
    const given = exported.apps?.[0]?.endorsements?.filter((e) => e.endorsement_id === 'demo-token');
    expect(given?.map((e) => [e.from_account, e.to_account])).to.deep.equal([['carol', 'alice']]);
    const asBob = await page
      .endorseAccount({ app_id: DEMO_APP_ID, from_account: 'bob', to_account: 'alice', endorsement_id: 'demo-token' })
      .catch((error: unknown) => error);
    expect(asBob).to.be.instanceOf(QuestboardError);
    expect((asBob as QuestboardError).status).to.equal(403);
  });

  it('answers the challenge that opens later with "not started"', async () => {
    const failure = await member.getChallenge({ challenge_id: CHALLENGE_IDS.winterHackathon }).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(QuestboardError);
    expect((failure as QuestboardError).status).to.equal(404);
    expect((failure as QuestboardError).message).to.match(/not started/i);
  });

  it("shows a finished season's board, whose top three hold its badges, and a season under way", async () => {
    const autumn = await member.getLeaderboard({ app_id: DEMO_APP_ID, season: SEASON_IDS.autumn, limit: 3 });
    // Ranks 1, 2 and 3, no tie: the podium is unambiguous.
    expect(autumn.leaderboard_users.map((entry) => entry.rank)).to.deep.equal([1, 2, 3]);
    const [first, ...podium] = autumn.leaderboard_users.map((entry) => entry.external_user.username);
    const badgesOf = async (account_name: string) =>
      (await member.getAchievements({ app_id: DEMO_APP_ID, account_name })).badges.map((badge) => badge.badge_id);
    expect(await badgesOf(first!)).to.include.members(['autumn-champion', 'autumn-podium']);
    for (const name of podium) {
      expect(await badgesOf(name))
        .to.include('autumn-podium')
        .and.not.include('autumn-champion');
    }
    const winter = await member.getLeaderboard({ app_id: DEMO_APP_ID, season: SEASON_IDS.winter, limit: 1 });
    expect(winter.total_users).to.be.greaterThan(0);
  });

  it('has a quest the signed-in member completes: the meetup code counts, the proof waits for review', async () => {
    const page = new QuestboardClient({ transport, apiKey: DEMO_MEMBER_KEY, memberToken: () => signMemberToken('carol') });
    const challenge = await page.getChallenge({ challenge_id: CHALLENGE_IDS.meetupQuest });
    expect(challenge.tasks.map((task) => task.verification?.kind)).to.deep.equal(['code', 'review']);
    const counted = await page.submitTask({ app_id: DEMO_APP_ID, task_id: TASK_IDS.meetupCode, answer: MEETUP_CODE });
    expect(counted).to.include({ quantity_completed: 1 });
    const pending = await page.submitTask({ app_id: DEMO_APP_ID, task_id: TASK_IDS.showBuild, text: 'https://example.org' });
    expect(pending).to.include({ status: 'pending' });
  });
});
