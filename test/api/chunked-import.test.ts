// A merge import moves only the rows of the members its chunk brings: the
// same members and history imported in chunks, some of them returning to
// members of earlier chunks, give exactly the boards of one import.
import { expect } from '@open-wc/testing';
import { seededRandom as random } from '../../bench/seeded-random.js';
import { ADMIN_KEY, GUIDS, WEDNESDAY, iso, localApi, type Call } from './support.js';

const DAY = 86_400_000;
const MEMBERS = 1200;
const CHUNK = 300;

const names = Array.from({ length: MEMBERS }, (_, i) => `m-${String(i).padStart(4, '0')}`);
const next = random(11);
// Whole days over two months, so that members tie on values and times and
// periods differ. A member's newest log may come with a later chunk: each
// member's logs stay in time order, as one import would replay them.
const progress = names.flatMap((account_name, index) => {
  const own = Math.floor(index / CHUNK);
  const times = Array.from({ length: Math.floor(next() * 4) }, () => WEDNESDAY - Math.floor(next() * 50) * DAY).sort(
    (a, b) => a - b,
  );
  return times.map((at, log) => ({
    task_id: next() < 0.8 ? GUIDS.checkIn : GUIDS.posts,
    account_name,
    quantity: 1,
    at: iso(at),
    chunk: log === times.length - 1 && next() < 0.3 ? own + Math.floor(next() * (MEMBERS / CHUNK - own)) : own,
  }));
});
const endorsements = names.slice(0, 150).map((from_account, i) => ({
  from_account,
  to_account: names[(i * 37 + 500) % MEMBERS]!,
  endorsement_id: 'x',
  at: iso(WEDNESDAY - (i % 20) * DAY),
}));

const app = {
  app_id: 'chunks',
  challenges: [
    {
      challenge_id: GUIDS.onboarding,
      name: 'c',
      start_date: '2026-01-01T00:00:00Z',
      tasks: [
        { task_id: GUIDS.checkIn, name: 'Check in', quantity: 1, operator: 0, points: 5, allowretry: true },
        { task_id: GUIDS.posts, name: 'Post twice', quantity: 2, operator: 0, points: 20 },
      ],
    },
  ],
};
const users = (from: number, to: number) =>
  names.slice(from, to).map((account_name) => ({ account_name, joined_at: iso(Date.UTC(2026, 0, 1)) }));
const logs = (chunk: number | null) =>
  progress.filter((log) => chunk === null || log.chunk === chunk).map(({ chunk: _, ...log }) => log);

async function boards(call: Call): Promise<string[]> {
  const answers: string[] = [];
  for (const type of ['score', 'xp', 'weekly', 'monthly']) {
    const query = `/v1/get_leaderboard?app_id=chunks&leaderboard_type=${type}`;
    const paths = [
      `${query}&limit=1000`,
      `${query}&limit=1000&offset=1000`,
      ...[0, 47, 48, 96, 97, 301, 599, 900, 1150].map((offset) => `${query}&limit=50&offset=${offset}`),
      ...['m-0000', 'm-0299', 'm-0300', 'm-0777', 'm-1199'].map((name) => `${query}&limit=7&around=${name}`),
    ];
    for (const path of paths) answers.push(`${path} ${(await call('GET', path)).text}`);
  }
  return answers;
}

it('a merge import in chunks gives the same boards, pages and ranks as one import', async function () {
  this.timeout(120_000);
  const whole = localApi({ now: WEDNESDAY });
  const chunked = localApi({ now: WEDNESDAY });
  try {
    const one = await whole.call('POST', '/v1/admin/import', {
      body: { admin_keys: [ADMIN_KEY], apps: [{ ...app, users: users(0, MEMBERS), progress: logs(null), endorsements }] },
    });
    expect(one.status, one.text).to.equal(200);

    const first = await chunked.call('POST', '/v1/admin/import', { body: { admin_keys: [ADMIN_KEY], apps: [app] } });
    expect(first.status, first.text).to.equal(200);
    for (let chunk = 0; chunk * CHUNK < MEMBERS; chunk++) {
      const answer = await chunked.call('POST', '/v1/admin/import', {
        body: { apps: [{ app_id: 'chunks', users: users(chunk * CHUNK, (chunk + 1) * CHUNK), progress: logs(chunk) }] },
      });
      expect(answer.status, answer.text).to.equal(200);
    }
    const last = await chunked.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'chunks', endorsements }] } });
    expect(last.status, last.text).to.equal(200);

    const expected = await boards(whole.call);
    expect(expected[0]).to.contain('"rank":1');
    expect(await boards(chunked.call)).to.deep.equal(expected);
  } finally {
    await Promise.all([whole.close(), chunked.close()]);
  }
});
