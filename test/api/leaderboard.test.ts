// Leaderboard order, ranks, paging and the period boards.
import { expect } from '@open-wc/testing';
import { GUIDS, WEDNESDAY, iso, localApi, checkInApp } from './support.js';

const MINUTE = 60_000;

/** An app whose members earn the given check-in counts (5 points each), in order of the list. */
async function boardApp(api: ReturnType<typeof localApi>, checkIns: Record<string, number[]>, rank_policy?: string) {
  const names = Object.keys(checkIns);
  const progress = names.flatMap((account_name) =>
    checkIns[account_name]!.map((minutesAgo) => ({
      task_id: GUIDS.checkIn,
      account_name,
      quantity: 1,
      at: iso(WEDNESDAY - minutesAgo * MINUTE),
    })),
  );
  const answer = await api.call('POST', '/v1/admin/import', {
    body: {
      admin_keys: ['sk_admin'],
      apps: [
        {
          ...checkInApp('board', names),
          settings: rank_policy ? { rank_policy } : {},
          // Joined a minute apart, in the list's order.
          users: names.map((account_name, index) => ({ account_name, joined_at: iso(Date.UTC(2026, 0, 1) + index * MINUTE) })),
          progress,
        },
      ],
    },
  });
  expect(answer.status, answer.text).to.equal(200);
}

const board = async (api: ReturnType<typeof localApi>, query = '') =>
  (await api.call('GET', `/v1/get_leaderboard?app_id=board${query}`)).body;
const rows = (body: any) => body.leaderboard_users.map((e: any) => `${e.rank}:${e.external_user.username}:${e.score}`);

describe('leaderboard', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(() => {
    api = localApi({ now: WEDNESDAY });
  });
  afterEach(() => api.close());

  it('orders by score, ties by who reached it first, shares Olympic ranks with gaps', async () => {
    // dan and erin both reach 10; erin got there first. fay and gus have nothing.
    await boardApp(api, { ann: [50, 40, 30], dan: [20, 5], erin: [25, 10], bea: [45], fay: [], gus: [] });
    const body = await board(api);
    expect(rows(body)).to.deep.equal(['1:ann:15', '2:erin:10', '2:dan:10', '4:bea:5', '5:fay:0', '5:gus:0']);
    expect(body.total_users).to.equal(6);
    expect(body.leaderboard_users[0]).to.deep.equal({
      rank: 1,
      external_user: { username: 'ann' },
      challenge_count: 0,
      task_count: 3,
      score: 15,
      total_xp: 15,
    });
  });

  it('ranks dense or ordinal when the app says so', async () => {
    await boardApp(api, { ann: [50, 40], dan: [20], erin: [25], bea: [] }, 'dense');
    expect(rows(await board(api)).map((row: string) => row.split(':')[0])).to.deep.equal(['1', '2', '2', '3']);
    await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'board', settings: { rank_policy: 'ordinal' } }] } });
    expect(rows(await board(api)).map((row: string) => row.split(':')[0])).to.deep.equal(['1', '2', '3', '4']);
  });

  it('pages with limit and offset, ranks counted from the whole board', async () => {
    await boardApp(api, { ann: [50, 40], dan: [20], erin: [25], bea: [], cy: [] }, 'dense');
    expect(rows(await board(api, '&limit=2&offset=2'))).to.deep.equal(['2:dan:5', '3:bea:0']);
    await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'board', settings: { rank_policy: 'olympic' } }] } });
    expect(rows(await board(api, '&limit=2&offset=2'))).to.deep.equal(['2:dan:5', '4:bea:0']);
    expect(rows(await board(api, '&limit=2&offset=4'))).to.deep.equal(['4:cy:0']);
    expect(rows(await board(api, '&offset=99'))).to.deep.equal([]);
  });

  it('centres a window on a member with around=', async () => {
    const many: Record<string, number[]> = {};
    for (let i = 0; i < 9; i++) many[`m${i}`] = Array.from({ length: 9 - i }, (_, k) => 100 - k - i * 10);
    await boardApp(api, many);
    expect(rows(await board(api, '&around=m4&limit=3')).map((r: string) => r.split(':')[1])).to.deep.equal(['m3', 'm4', 'm5']);
    expect(rows(await board(api, '&around=m0&limit=3')).map((r: string) => r.split(':')[1])).to.deep.equal(['m0', 'm1', 'm2']);
    expect(rows(await board(api, '&around=m8&limit=3')).map((r: string) => r.split(':')[1])).to.deep.equal(['m6', 'm7', 'm8']);
    expect((await api.call('GET', '/v1/get_leaderboard?app_id=board&around=nobody')).status).to.equal(404);
  });

  it('has xp, weekly and monthly boards; members without points in the period follow by name', async () => {
    const lastWeek = 3 * 24 * 60; // minutes: Sunday of the week before
    const lastMonth = 20 * 24 * 60;
    await boardApp(api, { old: [lastMonth, lastMonth + 1, lastMonth + 2], mid: [lastWeek, lastWeek + 1], now1: [5], zed: [] });
    await api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'board', from_account: 'old', to_account: 'zed', endorsement_id: 'x' },
    });
    await api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'board', from_account: 'mid', to_account: 'zed', endorsement_id: 'x' },
    });
    await api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'board', from_account: 'now1', to_account: 'zed', endorsement_id: 'x' },
    });
    await api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'board', from_account: 'old', to_account: 'zed', endorsement_id: 'y' },
    });

    expect(rows(await board(api, '&leaderboard_type=score'))).to.deep.equal(['1:old:15', '2:mid:10', '3:now1:5', '4:zed:0']);
    const xp = (await board(api, '&leaderboard_type=xp')).leaderboard_users.map(
      (e: any) => `${e.external_user.username}:${e.total_xp}`,
    );
    expect(xp).to.deep.equal(['zed:20', 'old:15', 'mid:10', 'now1:5']);
    expect(rows(await board(api, '&leaderboard_type=weekly'))).to.deep.equal(['1:now1:5', '2:mid:0', '2:old:0', '2:zed:0']);
    expect(rows(await board(api, '&leaderboard_type=monthly'))).to.deep.equal(['1:mid:10', '2:now1:5', '3:old:0', '3:zed:0']);
    expect(rows(await board(api, '&leaderboard_type=weekly&limit=2&offset=2'))).to.deep.equal(['2:old:0', '2:zed:0']);
    expect(rows(await board(api, '&leaderboard_type=monthly&around=zed&limit=1'))).to.deep.equal(['3:zed:0']);
  });

  it('rejects unknown types and bad paging with 400 naming the field', async () => {
    await boardApp(api, { ann: [] });
    for (const [query, field] of [
      ['&leaderboard_type=karma', 'leaderboard_type'],
      ['&limit=1001', 'limit'],
      ['&limit=-1', 'limit'],
      ['&offset=abc', 'offset'],
    ]) {
      const answer = await api.call('GET', `/v1/get_leaderboard?app_id=board${query}`);
      expect(answer.status, query).to.equal(400);
      expect(answer.body.message, query).to.match(new RegExp(`^${field}:`));
    }
  });

  it('answers an HTML fragment with every member string escaped', async () => {
    const hostile = '"><img src=x onerror=alert(1)>';
    await boardApp(api, { [hostile]: [3], ann: [] });
    const answer = await api.call('GET', '/v1/get_leaderboard?app_id=board&widget_response=html&leaderboard_type=score');
    expect(answer.body.is_valid).to.equal(true);
    expect(answer.body.message).to.equal(null);
    expect(answer.body.html).to.contain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(answer.body.html).not.to.contain('<img');
    const container = document.createElement('div');
    container.innerHTML = answer.body.html;
    expect(container.querySelector('img, script, [href], [src]')).to.equal(null);
    const attributes = [...container.querySelectorAll('*')].flatMap((el) => el.getAttributeNames());
    expect(attributes.filter((name) => name.startsWith('on'))).to.deep.equal([]);
    expect(container.textContent).to.contain(hostile);
  });
});

describe('the HTML leaderboard in a language', () => {
  let api: ReturnType<typeof localApi>;
  const page = async (query: string, headers: Record<string, string> = {}) => {
    // An empty Accept-Language, so a browser's own does not stand in where a test sends none.
    const answer = await api.call('GET', `/v1/get_leaderboard?app_id=board&widget_response=html${query}`, {
      headers: { 'accept-language': '', ...headers },
    });
    const root = document.createElement('template');
    if (answer.status === 200) root.innerHTML = answer.body.html;
    return { answer, root: root.content.firstElementChild as HTMLElement | null };
  };
  const caption = (root: HTMLElement | null) => root!.querySelector('caption')!.textContent;

  before(async () => {
    api = localApi({ now: WEDNESDAY });
    await boardApp(api, { ann: [50, 40], bea: [45] });
  });
  after(() => api.close());

  it('reads the language of its locale parameter, marked on its root', async () => {
    const german = await page('&locale=de-AT');
    expect(caption(german.root)).to.equal('Bestenliste nach Punkten');
    expect(german.root!.querySelector('.qb-lb__summary')!.textContent).to.equal('Angezeigt: 1–2 von 2 Mitgliedern');
    expect([german.root!.lang, german.root!.dir]).to.deep.equal(['de-AT', 'ltr']);
    const arabic = await page('&locale=ar');
    expect(caption(arabic.root)).to.equal('لوحة الصدارة حسب النقاط');
    expect([arabic.root!.lang, arabic.root!.dir]).to.deep.equal(['ar', 'rtl']);
    const korean = await page('&locale=ko-KR');
    expect(caption(korean.root)).to.equal('점수순 리더보드');
    expect(korean.root!.querySelector('.qb-lb__summary')!.textContent).to.equal('멤버 2명 중 1–2번째 표시');
  });

  it('falls back to the most preferred language of Accept-Language, then to English', async () => {
    expect(caption((await page('', { 'accept-language': 'fr-CH;q=0.8, de;q=0.9, *;q=0.1' })).root)).to.equal(
      'Bestenliste nach Punkten',
    );
    expect(caption((await page('&locale=fr', { 'accept-language': 'de' })).root)).to.equal('Classement par score');
    expect(caption((await page('', { 'accept-language': 'not a language, *' })).root)).to.equal('Leaderboard by score');
    expect(caption((await page('')).root)).to.equal('Leaderboard by score');
  });

  it('shows English for a language it has no words for, and refuses a malformed tag with 400', async () => {
    const swahili = await page('&locale=sw');
    expect(caption(swahili.root)).to.equal('Leaderboard by score');
    expect(swahili.root!.lang).to.equal('sw');
    for (const malformed of ['en_US', 'not a tag', '*', 'x'.repeat(65)]) {
      const { answer } = await page(`&locale=${encodeURIComponent(malformed)}`);
      expect(answer.status, malformed).to.equal(400);
      expect(answer.body, malformed).to.deep.equal({
        is_valid: false,
        message: 'locale: must be a BCP 47 language tag of at most 64 characters, such as de or pt-BR.',
      });
    }
  });
});

describe('the unranked tail of a period board', () => {
  it('is counted and paged by name, however many ranked members lie between', async function () {
    this.timeout(60_000);
    const api = localApi({ now: WEDNESDAY });
    try {
      // 500 members; every fifth has no points this week, so the tail interleaves with 4× as many ranked names.
      const names = Array.from({ length: 500 }, (_, i) => `m${String(i).padStart(3, '0')}`);
      const unranked = names.filter((_, i) => i % 5 === 0);
      const answer = await api.call('POST', '/v1/admin/import', {
        body: {
          admin_keys: ['sk_admin'],
          apps: [
            {
              ...checkInApp('tail', names),
              progress: names
                .filter((_, i) => i % 5 !== 0)
                .map((account_name) => ({ task_id: GUIDS.checkIn, account_name, quantity: 1, at: iso(WEDNESDAY - 3_600_000) })),
            },
          ],
        },
      });
      expect(answer.status, answer.text).to.equal(200);
      const weekly = async (query: string) =>
        (await api.call('GET', `/v1/get_leaderboard?app_id=tail&leaderboard_type=weekly${query}`)).body.leaderboard_users.map(
          (e: any) => `${e.rank}:${e.external_user.username}:${e.score}`,
        );
      expect(await weekly('&offset=400&limit=100')).to.deep.equal(unranked.map((name) => `401:${name}:0`));
      expect(await weekly('&offset=450&limit=3')).to.deep.equal(['401:m250:0', '401:m255:0', '401:m260:0']);
      expect(await weekly('&offset=398&limit=3')).to.deep.equal(['1:m498:5', '1:m499:5', '401:m000:0']);
      expect(await weekly('&around=m495&limit=3')).to.deep.equal(['401:m485:0', '401:m490:0', '401:m495:0']);
      expect(await weekly('&around=m250&limit=1')).to.deep.equal(['401:m250:0']);

      // A live write moves m005 from the tail onto the ranked board.
      await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name: 'm005', quantity: 1 } });
      expect(await weekly('&offset=401&limit=3')).to.deep.equal(['402:m000:0', '402:m010:0', '402:m015:0']);
      expect(await weekly('&around=m010&limit=1')).to.deep.equal(['402:m010:0']);
    } finally {
      await api.close();
    }
  });
});
