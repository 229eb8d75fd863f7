// The leaderboard against a brute-force model: random members and events,
// every board, every rank policy, pages and windows cut from the whole board.
import { expect } from '@open-wc/testing';
import { GUIDS, WEDNESDAY, iso, localApi } from './support.js';

const DAY = 86_400_000;

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('leaderboard model check', () => {
  let api: ReturnType<typeof localApi>;
  before(async () => {
    api = localApi({ now: WEDNESDAY });
    const next = random(7);
    const names = Array.from({ length: 60 }, (_, i) => `member-${String(i).padStart(2, '0')}`);
    const progress = names.flatMap((account_name) =>
      Array.from({ length: Math.floor(next() * 4) }, () => ({
        task_id: GUIDS.checkIn,
        account_name,
        quantity: 1,
        // Whole days only, so that many members tie on their values and times.
        at: iso(WEDNESDAY - Math.floor(next() * 40) * DAY),
      })),
    );
    const endorsements = names.slice(0, 20).map((from, i) => ({ from_account: from, to_account: names[(i * 7) % 60]!, endorsement_id: 'x' })).filter((e) => e.from_account !== e.to_account);
    const answer = await api.call('POST', '/v1/admin/import', {
      body: {
        admin_keys: ['sk_admin'],
        apps: [
          {
            app_id: 'model',
            users: names.map((account_name) => ({ account_name, joined_at: iso(Date.UTC(2026, 0, 1)) })),
            challenges: [
              {
                name: 'c',
                start_date: '2026-01-01T00:00:00Z',
                tasks: [
                  { task_id: GUIDS.checkIn, name: 'Check in', quantity: 1, operator: 0, points: 5, allowretry: true },
                  { task_id: GUIDS.posts, name: 'Never', quantity: 1, operator: 0 },
                ],
              },
            ],
            progress,
            endorsements,
          },
        ],
      },
    });
    expect(answer.status, answer.text).to.equal(200);
  });
  after(() => api.close());

  const get = async (query: string) => (await api.call('GET', `/v1/get_leaderboard?app_id=model${query}`)).body;

  for (const policy of ['olympic', 'dense', 'ordinal']) {
    for (const type of ['score', 'xp', 'weekly', 'monthly']) {
      it(`${type} board, ${policy} ranks: whole, pages and windows agree with the model`, async () => {
        await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'model', settings: { rank_policy: policy } }] } });
        const whole = (await get(`&leaderboard_type=${type}&limit=1000`)).leaderboard_users;
        expect(whole).to.have.length(60);
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
        for (const offset of [0, 1, 7, 13, 29, 45, 59, 60]) {
          const page = (await get(`&leaderboard_type=${type}&limit=9&offset=${offset}`)).leaderboard_users;
          expect(page, `offset ${offset}`).to.deep.equal(whole.slice(offset, offset + 9));
        }
        for (const index of [0, 4, 30, 58, 59]) {
          const name = whole[index].external_user.username;
          const window = (await get(`&leaderboard_type=${type}&limit=5&around=${name}`)).leaderboard_users;
          const start = Math.max(0, Math.min(index - 2, 55));
          expect(window, `around ${name}`).to.deep.equal(whole.slice(start, start + 5));
        }
      });
    }
  }
});
