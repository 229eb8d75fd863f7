// Seasons: their definition, their boards' windows at the exact edges, the freeze, what their
// entries show of the members, and export → import.
import { expect } from '@open-wc/testing';
import { openDB, type IDBPDatabase } from 'idb';
import { GUIDS, WEDNESDAY, checkInApp, iso, itOnIndexedDb, localApi } from './support.js';
import { decodeRows, encodeRows } from '../../src/store/indexeddb/board-positions.js';

const HOUR = 3_600_000;
const SEASON = '51111111-1111-4111-8111-111111111111';
const STARTS = WEDNESDAY;
const ENDS = WEDNESDAY + 2 * HOUR;

type Api = ReturnType<typeof localApi>;

async function seasonApp(api: Api, app_id = 'league') {
  const answer = await api.call('POST', '/v1/admin/import', {
    body: {
      admin_keys: ['sk_admin'],
      apps: [{ ...checkInApp(app_id, ['ann', 'bob', 'cy']), api_keys: [{ key: `pk_${app_id}`, scopes: ['read'] }] }],
    },
  });
  expect(answer.status, answer.text).to.equal(200);
}

const defineBadge = (api: Api, badge_id: string) =>
  api.call('POST', '/v1/admin/badges', {
    body: { app_id: 'league', badge_id, name: badge_id, description: '', rule: { kind: 'manual' } },
  });
const badgesOf = async (api: Api, account_name: string) =>
  (await api.call('GET', `/v1/get_achievements?app_id=league&account_name=${account_name}`)).body.badges.map(
    (badge: any) => badge.badge_id,
  );
const defineSeason = (api: Api, body: Record<string, unknown> = {}) =>
  api.call('POST', '/v1/admin/seasons', {
    body: { app_id: 'league', season_id: SEASON, name: 'Autumn', starts_at: iso(STARTS), ends_at: iso(ENDS), ...body },
  });
const checkIn = (api: Api, account_name: string) =>
  api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name, quantity: 1 } });
const seasonRows = async (api: Api, app_id = 'league') => {
  const answer = await api.call('GET', `/v1/get_leaderboard?app_id=${app_id}&season=${SEASON}`);
  expect(answer.status, answer.text).to.equal(200);
  return answer.body.leaderboard_users.map((e: any) => `${e.rank}:${e.external_user.username}:${e.score}`);
};

describe('seasons', () => {
  const clock = { now: STARTS - HOUR };
  let api: Api;
  beforeEach(async () => {
    clock.now = STARTS - HOUR;
    api = localApi(clock);
    await seasonApp(api);
  });
  afterEach(() => api.close());

  it('get_seasons: a read key lists the seasons, each ended by the clock, no rewards', async () => {
    const empty = await api.call('GET', '/v1/get_seasons?app_id=league', { key: 'pk_league' });
    expect(empty.status, empty.text).to.equal(200);
    expect(empty.body).to.deep.equal({ seasons: [], is_valid: true, message: null });
    expect((await defineSeason(api)).status).to.equal(200);
    const listed = async () => (await api.call('GET', '/v1/get_seasons?app_id=league', { key: 'pk_league' })).body.seasons;
    const autumn = { season_id: SEASON, name: 'Autumn', starts_at: iso(STARTS), ends_at: iso(ENDS) };
    expect(await listed()).to.deep.equal([{ ...autumn, ended: false }]);
    // At its end exactly it has ended ([starts_at, ends_at)), though no write has frozen it yet.
    clock.now = ENDS;
    expect(await listed()).to.deep.equal([{ ...autumn, ended: true }]);
    expect((await api.call('GET', '/v1/get_seasons?app_id=nowhere', { key: 'pk_league' })).status).to.equal(404);
  });

  it('defines and lists seasons; refuses a window that ends before it starts, bad ranks, unknown badges', async () => {
    const unknownBadge = await defineSeason(api, { rewards: [{ from_rank: 1, to_rank: 3, badge_id: 'podium' }] });
    expect(unknownBadge.status).to.equal(404);
    expect(unknownBadge.body.message).to.contain('rewards.0.badge_id');
    expect((await defineBadge(api, 'podium')).status).to.equal(200);
    const defined = await defineSeason(api, { rewards: [{ from_rank: 1, to_rank: 3, badge_id: 'podium' }] });
    expect(defined.status, defined.text).to.equal(200);
    const listed = await api.call('GET', '/v1/admin/seasons?app_id=league');
    expect(listed.body.seasons).to.deep.equal([
      {
        season_id: SEASON,
        name: 'Autumn',
        starts_at: iso(STARTS),
        ends_at: iso(ENDS),
        rewards: [{ from_rank: 1, to_rank: 3, badge_id: 'podium' }],
        frozen: false,
      },
    ]);
    const backwards = await defineSeason(api, { ends_at: iso(STARTS) });
    expect(backwards.status).to.equal(400);
    expect(backwards.body.message).to.match(/^ends_at: /);
    const ranks = await defineSeason(api, { rewards: [{ from_rank: 3, to_rank: 1, badge_id: 'podium' }] });
    expect(ranks.status).to.equal(400);
    expect(ranks.body.message).to.match(/^rewards\.0\.to_rank: /);
    const notGuid = await defineSeason(api, { season_id: 'Autumn' });
    expect(notGuid.status).to.equal(400);
    expect(notGuid.body.message).to.match(/^season_id: /);
  });

  it('refuses a read key on the admin routes', async () => {
    const listed = await api.call('GET', '/v1/admin/seasons?app_id=league', { key: 'pk_league' });
    expect(listed.status).to.equal(403);
    const defined = await api.call('POST', '/v1/admin/seasons', {
      key: 'pk_league',
      body: { app_id: 'league', season_id: SEASON, name: 'x', starts_at: iso(STARTS), ends_at: iso(ENDS) },
    });
    expect(defined.status).to.equal(403);
  });

  it('answers an unknown season with a 404', async () => {
    const answer = await api.call('GET', `/v1/get_leaderboard?app_id=league&season=${SEASON}`);
    expect(answer.status).to.equal(404);
    expect(answer.headers.get('X-Questboard-Error')).to.equal('season-not-found');
    expect(answer.body.is_valid).to.equal(false);
  });

  it('counts points at starts_at and not at ends_at, then keeps the ended board frozen', async () => {
    expect((await defineSeason(api)).status).to.equal(200);
    await checkIn(api, 'cy'); // before the season
    clock.now = STARTS;
    await checkIn(api, 'ann');
    clock.now = ENDS - 1;
    await checkIn(api, 'bob');
    await checkIn(api, 'bob');
    expect(await seasonRows(api)).to.deep.equal(['1:bob:10', '2:ann:5']);
    clock.now = ENDS;
    await checkIn(api, 'ann');
    await checkIn(api, 'ann');
    expect(await seasonRows(api)).to.deep.equal(['1:bob:10', '2:ann:5']);
    const listed = await api.call('GET', '/v1/admin/seasons?app_id=league');
    expect(listed.body.seasons[0].frozen).to.equal(true);
    // A later import of back-dated history does not reach the frozen board.
    const late = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          { app_id: 'league', progress: [{ task_id: GUIDS.checkIn, account_name: 'cy', quantity: 1, at: iso(STARTS + HOUR) }] },
        ],
      },
    });
    expect(late.status, late.text).to.equal(200);
    expect(await seasonRows(api)).to.deep.equal(['1:bob:10', '2:ann:5']);
  });

  it('pays its rank rewards once, when the first write after its end freezes it', async () => {
    for (const badge of ['gold', 'podium']) expect((await defineBadge(api, badge)).status).to.equal(200);
    const rewards = [
      { from_rank: 1, to_rank: 1, badge_id: 'gold' },
      { from_rank: 1, to_rank: 2, badge_id: 'podium' },
    ];
    expect((await defineSeason(api, { rewards })).status).to.equal(200);
    await checkIn(api, 'bob'); // before the season: not on its board
    clock.now = STARTS;
    for (const name of ['cy', 'ann', 'ann']) await checkIn(api, name);
    expect(await badgesOf(api, 'ann')).to.deep.equal([]);
    clock.now = ENDS;
    await checkIn(api, 'bob');
    expect((await badgesOf(api, 'ann')).sort()).to.deep.equal(['gold', 'podium']);
    expect(await badgesOf(api, 'cy')).to.deep.equal(['podium']);
    expect(await badgesOf(api, 'bob')).to.deep.equal([]);
    await checkIn(api, 'bob');
    expect((await api.call('GET', '/v1/admin/seasons?app_id=league')).status).to.equal(200);
    expect((await badgesOf(api, 'ann')).sort()).to.deep.equal(['gold', 'podium']);
  });

  it('pages the season board and ranks it by the app’s tie rule', async () => {
    expect((await defineSeason(api)).status).to.equal(200);
    clock.now = STARTS + 1;
    for (const name of ['ann', 'bob', 'cy', 'cy']) await checkIn(api, name);
    expect(await seasonRows(api)).to.deep.equal(['1:cy:10', '2:ann:5', '2:bob:5']);
    const page = await api.call('GET', `/v1/get_leaderboard?app_id=league&season=${SEASON}&offset=2&limit=1`);
    expect(page.body.leaderboard_users.map((e: any) => `${e.rank}:${e.external_user.username}`)).to.deep.equal(['2:bob']);
    expect(page.body.total_users).to.equal(3);
    const html = await api.call('GET', `/v1/get_leaderboard?app_id=league&season=${SEASON}&widget_response=html`);
    expect(html.status).to.equal(200);
    expect(html.body.html).to.contain('cy');
  });

  itOnIndexedDb('where rows hold ties alone, as version 13 laid them out, shows what records say until a write', async () => {
    expect((await defineSeason(api)).status).to.equal(200);
    clock.now = STARTS + 1;
    for (const name of ['ann', 'bob', 'cy', 'cy']) await checkIn(api, name);
    const shown = (entry: any) =>
      `${entry.external_user.username}:${entry.challenge_count}:${entry.task_count}:${entry.total_xp}`;
    const board = async (query = `&season=${SEASON}`) =>
      (await api.call('GET', `/v1/get_leaderboard?app_id=league${query}`)).body.leaderboard_users.map(shown).sort();
    const fromRows = await board();
    expect(fromRows).to.deep.equal(await board(''));
    const withDatabase = async <T>(work: (db: IDBPDatabase) => Promise<T>) => {
      const db = await openDB(api.name);
      try {
        return await work(db);
      } finally {
        db.close();
      }
    };
    const seasonRowsKept = () =>
      withDatabase(async (db) =>
        (await db.getAll('board_rows')).filter(({ key }) => key[1] === 'season').flatMap((record) => decodeRows(record)),
      );
    await withDatabase(async (db) => {
      const tx = db.transaction('board_rows', 'readwrite');
      for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
        if (cursor.value.key[1] !== 'season') continue;
        const rows = decodeRows(cursor.value).map(({ account_name, at }) => ({ account_name, at }));
        await cursor.update(encodeRows(cursor.value.key, rows));
      }
      await tx.done;
    });
    expect(await board()).to.deep.equal(fromRows);
    // After its end a log counts in no season: ann's row takes what it shows from her record.
    clock.now = ENDS;
    expect((await checkIn(api, 'ann')).status).to.equal(200);
    expect(await board()).to.deep.equal(await board(''));
    expect(await board()).not.to.deep.equal(fromRows);
    const kept = await seasonRowsKept();
    expect(kept.filter((row: any) => row.xp !== undefined).map((row: any) => row.account_name)).to.deep.equal(['ann']);
  });

  it('counts the members on its board as they join, mid-season and by imports', async () => {
    expect((await defineSeason(api)).status).to.equal(200);
    const total = async () => {
      const answer = await api.call('GET', `/v1/get_leaderboard?app_id=league&season=${SEASON}`);
      expect(answer.status, answer.text).to.equal(200);
      return answer.body.total_users;
    };
    expect(await total()).to.equal(0);
    clock.now = STARTS + 1;
    await checkIn(api, 'ann');
    expect(await total()).to.equal(1);
    // More points for a member already on it add no one; nor does the season defined again.
    for (const name of ['ann', 'bob']) await checkIn(api, name);
    expect((await defineSeason(api, { name: 'Late autumn' })).status).to.equal(200);
    expect(await total()).to.equal(2);
    // A merge import's board: ann already on it, dan new (twice in the board), eve new.
    const season = { season_id: SEASON, name: 'Late autumn', starts_at: iso(STARTS), ends_at: iso(ENDS) };
    const board = [
      { account_name: 'ann', points: 40, at: iso(STARTS + 2) },
      { account_name: 'dan', points: 20, at: iso(STARTS + 3) },
      { account_name: 'dan', points: 30, at: iso(STARTS + 3) },
      { account_name: 'eve', points: 20, at: iso(STARTS + 4) },
    ];
    const merge = () =>
      api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'league', seasons: [{ ...season, board }] }] } });
    expect((await merge()).status).to.equal(200);
    expect(await total()).to.equal(4);
    expect((await merge()).status).to.equal(200);
    expect(await total()).to.equal(4);
    expect(await seasonRows(api)).to.deep.equal(['1:ann:40', '2:dan:30', '3:eve:20', '4:bob:5']);
    // The page around the last member ends with the board: its offset is bounded by the count.
    const around = await api.call('GET', `/v1/get_leaderboard?app_id=league&season=${SEASON}&around=bob&limit=2`);
    expect(around.body.leaderboard_users.map((e: any) => `${e.rank}:${e.external_user.username}`)).to.deep.equal([
      '3:eve',
      '4:bob',
    ]);
    // A new member's first points count them once more.
    await checkIn(api, 'cy');
    expect(await total()).to.equal(5);
  });

  it('carries seasons and their boards through export and import', async () => {
    expect((await defineSeason(api)).status).to.equal(200);
    clock.now = STARTS + 1;
    for (const name of ['bob', 'ann', 'bob']) await checkIn(api, name);
    clock.now = ENDS + 1;
    await checkIn(api, 'ann'); // freezes the season
    const exported = await api.call('GET', '/v1/admin/export?app_id=league');
    expect(exported.status, exported.text).to.equal(200);
    const elsewhere = localApi(clock);
    try {
      const imported = await elsewhere.call('POST', '/v1/admin/import', {
        body: { ...exported.body, admin_keys: ['sk_admin'] },
      });
      expect(imported.status, imported.text).to.equal(200);
      expect(await seasonRows(elsewhere)).to.deep.equal(await seasonRows(api));
      const seasons = async (on: Api) => (await on.call('GET', '/v1/admin/seasons?app_id=league')).body.seasons;
      expect(await seasons(elsewhere)).to.deep.equal(await seasons(api));
      const totalOf = async (on: Api) =>
        (await on.call('GET', `/v1/get_leaderboard?app_id=league&season=${SEASON}`)).body.total_users;
      expect(await totalOf(elsewhere)).to.equal(2);
      expect(await totalOf(api)).to.equal(2);
      // Imported again over itself, replacing the app: its board counted as it came, not twice.
      const replaced = await elsewhere.call('POST', '/v1/admin/import?mode=replace', { body: exported.body });
      expect(replaced.status, replaced.text).to.equal(200);
      expect(await totalOf(elsewhere)).to.equal(2);
    } finally {
      await elsewhere.close();
    }
  });
});
