// A season's board of several runs against the board its members' points make (season-ranks.ts):
// every rank policy, whole, in pages and in windows around members, after an import, live logs,
// a merge import that moves members down, and once the season has frozen; each entry's counts and
// XP against the score board's.
import { expect } from '@open-wc/testing';
import { expectedSeasonBoard, seasonEntries, type SeasonMember } from './season-ranks.js';
import { GUIDS, WEDNESDAY, checkInApp, iso, localApi } from './support.js';

const SEASON = '52222222-2222-4222-8222-222222222222';
const STARTS = WEDNESDAY;
const ENDS = WEDNESDAY + 86_400_000;
/** Members of the app; the last 20 have no points in the season until they log. */
const MEMBERS = 260;
const names = Array.from({ length: MEMBERS }, (_, i) => `member-${String(i).padStart(3, '0')}`);

describe('season board model check', () => {
  let api: ReturnType<typeof localApi>;
  const board = new Map<string, SeasonMember>();
  const season = { season_id: SEASON, name: 'Model', starts_at: iso(STARTS), ends_at: iso(ENDS) };
  const importBoard = async (members: SeasonMember[]) => {
    const answer = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [{ app_id: 'model', seasons: [{ ...season, board: members.map((m) => ({ ...m, at: iso(m.at) })) }] }],
      },
    });
    expect(answer.status, answer.text).to.equal(200);
    for (const member of members) board.set(member.account_name, member);
  };
  const get = async (query: string) => {
    const answer = await api.call('GET', `/v1/get_leaderboard?app_id=model&season=${SEASON}${query}`);
    expect(answer.status, answer.text).to.equal(200);
    return answer.body;
  };

  before(async function () {
    this.timeout(120_000);
    api = localApi({ now: STARTS });
    const created = await api.call('POST', '/v1/admin/import', {
      body: { admin_keys: ['sk_admin'], apps: [checkInApp('model', names)] },
    });
    expect(created.status, created.text).to.equal(200);
    // Three in five at 30 points: a group of 144, more than one run holds. Four times to choose
    // from, so that many tie on points and time and their names decide.
    await importBoard(
      names.slice(0, 240).map((account_name, i) => ({
        account_name,
        points: [30, 30, 30, 20, 10][i % 5]!,
        at: STARTS + (i % 4) * 1000,
      })),
    );
    // Live logs, two at each time: members move up, and those without points join.
    for (let i = 0; i < 80; i++) {
      api.clock.now = STARTS + 10_000 + Math.floor(i / 2) * 1000;
      const account_name = names[(i * 37 + (i % 3) * 240) % MEMBERS]!;
      const logged = await api.call('POST', '/v1/admin/log_task', {
        body: { task_id: GUIDS.checkIn, account_name, quantity: 1 },
      });
      expect(logged.status, logged.text).to.equal(200);
      const before = board.get(account_name);
      board.set(account_name, { account_name, points: (before?.points ?? 0) + 5, at: api.clock.now });
    }
    // A merge import sets members' points as they stood elsewhere: down as well as up.
    await importBoard(
      names
        .slice(0, 120)
        .flatMap((account_name, i) =>
          i % 3 === 0 ? [{ account_name, points: [5, 30, 45][i % 9 === 0 ? 0 : i % 2 ? 1 : 2]!, at: STARTS + 500 }] : [],
        ),
    );
  });
  after(() => api.close());

  const shown = (entry: any) => `${entry.external_user.username}:${entry.challenge_count}:${entry.task_count}:${entry.total_xp}`;
  const checkBoard = async (policy: string) => {
    await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'model', settings: { rank_policy: policy } }] } });
    const expected = expectedSeasonBoard(board.values(), policy);
    const size = expected.length;
    // Some of those without points joined by logging.
    expect(size).to.be.within(241, MEMBERS);
    const pages = await Promise.all([0, 100, 200].map((offset) => get(`&limit=100&offset=${offset}`)));
    expect(pages.flatMap(seasonEntries)).to.deep.equal(expected);
    expect(pages[0].total_users).to.equal(size);
    // Each entry shows the member's counts and XP as the score board does, kept in the season's rows.
    const scoreBoard = await Promise.all(
      [0, 100, 200].map(async (offset) => {
        const answer = await api.call('GET', `/v1/get_leaderboard?app_id=model&limit=100&offset=${offset}`);
        expect(answer.status, answer.text).to.equal(200);
        return answer.body.leaderboard_users as any[];
      }),
    );
    const shownByName = new Map(scoreBoard.flat().map((entry) => [entry.external_user.username, shown(entry)]));
    const seasonShown = pages.flatMap((page) => page.leaderboard_users.map(shown));
    expect(seasonShown).to.deep.equal(seasonShown.map((text: string) => shownByName.get(text.split(':')[0]!)));
    expect(
      seasonShown.some((text: string) => !text.endsWith(':0:0:0')),
      'some member has counts',
    ).to.equal(true);
    for (const offset of [1, 7, 47, 48, 49, 95, 96, 97, 143, 144, 145, 200, size - 9, size - 1]) {
      expect(seasonEntries(await get(`&limit=9&offset=${offset}`)), `offset ${offset}`).to.deep.equal(
        expected.slice(offset, offset + 9),
      );
    }
    for (const index of [0, 1, 30, 47, 48, 96, 97, 130, 143, 144, 200, size - 2, size - 1]) {
      const name = expected[index]!.split(':')[1];
      const start = Math.max(0, Math.min(index - 2, size - 5));
      expect(seasonEntries(await get(`&limit=5&around=${name}`)), `around ${name}`).to.deep.equal(
        expected.slice(start, start + 5),
      );
    }
  };

  for (const policy of ['olympic', 'dense', 'ordinal']) {
    it(`${policy} ranks: whole, pages and windows agree with the members' points`, async function () {
      this.timeout(60_000);
      await checkBoard(policy);
    });
  }

  it('answers the same once the season has frozen, and a log after its end moves no one', async function () {
    this.timeout(60_000);
    api.clock.now = ENDS;
    // Logs after its end count in no season: the members' entries show their new counts all the same.
    for (const account_name of [names[0], names[1], names[250]]) {
      const logged = await api.call('POST', '/v1/admin/log_task', {
        body: { task_id: GUIDS.checkIn, account_name, quantity: 1 },
      });
      expect(logged.status, logged.text).to.equal(200);
    }
    expect((await api.call('GET', '/v1/admin/seasons?app_id=model')).body.seasons[0].frozen).to.equal(true);
    await checkBoard('olympic');
  });
});
