// Upgrades: a database left by an earlier version opens with its data intact,
// its boards laid out, its idempotency records dated and its keys hashed as this version keeps them.
import { expect } from '@open-wc/testing';
import { deleteDB, openDB, type IDBPDatabase } from 'idb';
import { weekOf } from '../../src/core/periods.js';
import { sha256Hex } from '../../src/api/key-hash.js';
import { createHandler } from '../../src/handler/handler.js';
import { openIndexedDbStore } from '../../src/store/indexeddb/index.js';
import { decodePages, decodeRows, PAGE_SPLIT, pageCount } from '../../src/store/indexeddb/board-positions.js';
import { prefixRange } from '../../src/store/indexeddb/key-ranges.js';
import type { RunsRecord } from '../../src/store/indexeddb/board-records.js';
import { isNameList } from '../../src/store/placements.js';
import { DATABASE_VERSION } from '../../src/store/indexeddb/migrations.js';
import type { GroupKey } from '../../src/store/records.js';
import { layoutFaults } from './board-faults.js';
import { openEarlierVersion } from './earlier-layouts.js';
import { expectedSeasonBoard, seasonEntries, type SeasonMember } from './season-ranks.js';
import { ADMIN_KEY, dataset, GUIDS, iso, WEDNESDAY } from './support.js';

/** The app both earlier versions wrote, with its member count as they kept it. */
const guildApp = (member_count: number) => ({
  app_id: 'guild',
  name: 'Guild',
  endorsement_xp: 5,
  rank_policy: 'olympic',
  member_count,
  treasury: null,
});

/** Opens the database `name` after its upgrade: it is at this code's version, and `check` passes on it. */
async function checkUpgraded(name: string, check: (db: IDBPDatabase) => unknown) {
  const db = await openDB(name);
  try {
    expect(db.version).to.equal(DATABASE_VERSION);
    await check(db);
  } finally {
    db.close();
  }
}

/** A version-3 database as that version wrote it: members carried their board keys in indexes. */
async function createVersion3(name: string) {
  const week = weekOf(WEDNESDAY);
  const member = (account_name: string, total_score: number, week_score: number) => ({
    app_id: 'guild',
    account_name,
    id: crypto.randomUUID(),
    is_active: true,
    twitter_name: null,
    joined_at: 0,
    challenges_completed: 0,
    tasks_completed: total_score / 10,
    tasks_logged: total_score / 10,
    total_score,
    xp: total_score,
    score_at: 1,
    xp_at: 1,
    week: week_score > 0 ? week : '',
    week_score,
    week_at: week_score > 0 ? 1 : 0,
    month: '',
    month_score: 0,
    month_at: 0,
    board_score: ['guild', -total_score || 0, 1, account_name],
    board_xp: ['guild', -total_score || 0, 1, account_name],
    ...(week_score > 0 ? { board_weekly: ['guild', week, -week_score, 1, account_name] } : {}),
  });
  const db = await openEarlierVersion(name, 3);
  const tx = db.transaction(['apps', 'api_keys', 'users', 'board_counts', 'board_slots'], 'readwrite');
  await Promise.all([
    tx.objectStore('apps').put(guildApp(3)),
    tx.objectStore('api_keys').put({ key: 'pk_guild', app_id: 'guild', scopes: ['read'] }),
    tx.objectStore('users').put(member('alice', 20, 20)),
    tx.objectStore('users').put(member('bob', 30, 0)),
    tx.objectStore('users').put(member('carol', 0, 0)),
    // Counts in the old layout, which the upgrade must not trust.
    tx.objectStore('board_counts').put({ key: ['guild', 'score', '', -20], count: 99 }),
    tx.objectStore('board_slots').put({ key: ['guild', 'score', '', -20], slots: [{ start: null, count: 99 }] }),
    tx.done,
  ]);
  db.close();
}

describe('upgrade from version 3', () => {
  const name = `questboard-test-${crypto.randomUUID()}`;
  after(() => deleteDB(name));

  it('keeps the members, drops their old index keys and lays the boards out anew', async () => {
    await createVersion3(name);
    const store = openIndexedDbStore({ name });
    const handle = createHandler({ store, now: () => new Date(WEDNESDAY) });
    const board = async (type: string) => {
      const response = await handle(
        new Request(`https://questboard.test/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}`, {
          headers: { authorization: 'Bearer pk_guild' },
        }),
      );
      expect(response.status).to.equal(200);
      const { leaderboard_users, total_users } = await response.json();
      expect(total_users).to.equal(3);
      return leaderboard_users.map((entry: any) => `${entry.rank}:${entry.external_user.username}:${entry.score}`);
    };
    try {
      expect(await board('score')).to.deep.equal(['1:bob:30', '2:alice:20', '3:carol:0']);
      expect(await board('weekly')).to.deep.equal(['1:alice:20', '2:bob:0', '2:carol:0']);
    } finally {
      store.close();
    }

    await checkUpgraded(name, async (db) => {
      expect([...db.objectStoreNames])
        .to.include.members(['board_runs', 'board_rows'])
        .and.not.include('board_slots');
      expect([...db.transaction('users').objectStore('users').indexNames]).to.deep.equal([]);
      const alice = await db.get('users', ['guild', 'alice']);
      expect(alice).to.include({ total_score: 20, week_score: 20 }).and.not.have.property('board_score');
    });
  });
});

/** A version-4 database with an idempotency record as that version wrote it: no creation time. */
async function createVersion4(name: string) {
  const db = await openEarlierVersion(name, 4);
  const tx = db.transaction(['apps', 'api_keys', 'idempotency'], 'readwrite');
  await Promise.all([
    tx.objectStore('apps').put(guildApp(0)),
    tx.objectStore('api_keys').put({ key: 'pk_guild', app_id: 'guild', scopes: ['read', 'write'] }),
    tx.objectStore('idempotency').put({
      api_key: 'pk_guild',
      idempotency_key: 'before-v5',
      fingerprint: 'POST connect_social {"account_name":"alice","app_id":"guild","twitter_name":"alice_x"}',
      status: 200,
      body: '{"is_valid":true,"message":null,"kept":"by version 4"}',
    }),
    tx.done,
  ]);
  db.close();
}

describe('upgrade from version 4', () => {
  const name = `questboard-test-${crypto.randomUUID()}`;
  after(() => deleteDB(name));

  it('dates the idempotency records at the upgrade: they answer for 24 hours from then', async () => {
    await createVersion4(name);
    const clock = { now: Date.now() };
    const store = openIndexedDbStore({ name });
    const handle = createHandler({ store, now: () => new Date(clock.now) });
    const connect = async () => {
      const response = await handle(
        new Request('https://questboard.test/v1/connect_social', {
          method: 'POST',
          headers: { authorization: 'Bearer pk_guild', 'content-type': 'application/json', 'idempotency-key': 'before-v5' },
          body: JSON.stringify({ app_id: 'guild', account_name: 'alice', twitter_name: 'alice_x' }),
        }),
      );
      return response.text();
    };
    try {
      expect(await connect()).to.equal('{"is_valid":true,"message":null,"kept":"by version 4"}');
      // After the upgrade: its time is now in the past.
      clock.now = Date.now() + 24 * 3_600_000;
      expect(await connect()).to.equal('{"is_valid":true,"message":null}');
    } finally {
      store.close();
    }

    await checkUpgraded(name, (db) => {
      expect([...db.transaction('idempotency').objectStore('idempotency').indexNames]).to.deep.equal(['by_created']);
    });
  });
});

/**
 * A version-5 database as that version wrote it: its app key in clear, and idempotency records
 * under that key, under the installation admin key's hash, and under a key no longer there.
 */
async function createVersion5(name: string, now: number) {
  const db = await openEarlierVersion(name, 5);
  const tx = db.transaction(['meta', 'apps', 'api_keys', 'idempotency'], 'readwrite');
  const input = '{"account_name":"alice","app_id":"guild","twitter_name":"alice_x"}';
  // As this version fingerprints a request, and as the versions before it did (the request as it came).
  const fingerprints = { current: `POST connect_social {} ${input}`, earlier: `POST connect_social ${input}` };
  const record = (api_key: string, idempotency_key: string, kept: string, form: keyof typeof fingerprints = 'current') => ({
    api_key,
    idempotency_key,
    fingerprint: fingerprints[form],
    status: 200,
    body: `{"is_valid":true,"message":null,"kept":"${kept}"}`,
    created_at: now,
  });
  await Promise.all([
    tx.objectStore('meta').put({ sha256: [sha256Hex('sk_admin')] }, 'admin_keys'),
    tx.objectStore('apps').put(guildApp(0)),
    tx.objectStore('api_keys').put({ key: 'pk_guild', app_id: 'guild', scopes: ['read', 'write'] }),
    tx.objectStore('idempotency').put(record('pk_guild', 'by-app-key', 'under pk_guild', 'earlier')),
    tx.objectStore('idempotency').put(record(sha256Hex('sk_admin'), 'by-admin-key', 'under sk_admin')),
    tx.objectStore('idempotency').put(record('pk_gone', 'by-gone-key', 'under pk_gone')),
    tx.done,
  ]);
  db.close();
}

describe('upgrade from version 5', () => {
  const name = `questboard-test-${crypto.randomUUID()}`;
  after(() => deleteDB(name));

  it('keeps each app key as its SHA-256, and its idempotency records under that', async () => {
    const now = Date.now();
    await createVersion5(name, now);
    const store = openIndexedDbStore({ name });
    const handle = createHandler({ store, now: () => new Date(now) });
    const connect = async (key: string, idempotencyKey: string) => {
      const response = await handle(
        new Request('https://questboard.test/v1/connect_social', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body: JSON.stringify({ app_id: 'guild', account_name: 'alice', twitter_name: 'alice_x' }),
        }),
      );
      return response.text();
    };
    try {
      // The key opens the app as before, and a retry across the upgrade gets its first answer.
      expect(await connect('pk_guild', 'by-app-key')).to.equal('{"is_valid":true,"message":null,"kept":"under pk_guild"}');
      expect(await connect('sk_admin', 'by-admin-key')).to.equal('{"is_valid":true,"message":null,"kept":"under sk_admin"}');
    } finally {
      store.close();
    }

    await checkUpgraded(name, async (db) => {
      expect([...db.objectStoreNames])
        .to.include('api_keys')
        .and.not.include('api_keys_in_clear');
      expect(await db.getAll('api_keys')).to.deep.equal([
        { key_sha256: sha256Hex('pk_guild'), app_id: 'guild', scopes: ['read', 'write'] },
      ]);
      expect([...db.transaction('api_keys').objectStore('api_keys').indexNames]).to.deep.equal(['by_app']);
      const idempotency = await db.getAll('idempotency');
      expect(idempotency.map((record) => `${record.api_key} ${record.idempotency_key}`)).to.have.members([
        `${sha256Hex('pk_guild')} by-app-key`,
        `${sha256Hex('sk_admin')} by-admin-key`,
      ]);
    });
  });
});

/** A season as version 9 kept it: in a meta record of the app's, beside its points in another. */
/** A season's id is a GUID. */
const SPRING = 'c0000000-0000-4000-8000-00000000aaaa';
const SEASON = {
  season_id: SPRING,
  name: 'Spring',
  starts_at: Date.UTC(2030, 2, 1),
  ends_at: Date.UTC(2030, 5, 1),
  rewards: [],
  frozen_at: null,
};

async function createVersion9(name: string) {
  const db = await openEarlierVersion(name, 9);
  const tx = db.transaction(['meta', 'apps', 'api_keys'], 'readwrite');
  await Promise.all([
    tx.objectStore('apps').put(guildApp(1)),
    tx.objectStore('api_keys').put({ key_sha256: sha256Hex('pk_guild'), app_id: 'guild', scopes: ['read'] }),
    tx.objectStore('meta').put([SEASON], 'seasons guild'),
    tx.objectStore('meta').put({ alice: [40, Date.UTC(2030, 2, 2)] }, `season guild ${SPRING}`),
    tx.done,
  ]);
  db.close();
}

describe('upgrade from version 9', () => {
  const name = `questboard-test-${crypto.randomUUID()}`;
  after(() => deleteDB(name));

  it("moves the app's seasons onto the app and their points into records, and their boards answer as before", async () => {
    await createVersion9(name);
    const store = openIndexedDbStore({ name });
    const handle = createHandler({ store, now: () => new Date(Date.UTC(2030, 3, 1)) });
    try {
      const response = await handle(
        new Request(`https://questboard.test/v1/get_leaderboard?app_id=guild&season=${SPRING}`, {
          headers: { authorization: 'Bearer pk_guild' },
        }),
      );
      const board = await response.json();
      expect(board.total_users, JSON.stringify(board)).to.equal(1);
      expect(
        board.leaderboard_users.map((entry: { external_user: { username: string }; score: number }) => [
          entry.external_user.username,
          entry.score,
        ]),
      ).to.deep.equal([['alice', 40]]);
    } finally {
      store.close();
    }
    await checkUpgraded(name, async (db) => {
      expect((await db.get('apps', 'guild')).seasons).to.deep.equal([{ ...SEASON, member_count: 1 }]);
      expect(await db.get('meta', 'seasons guild')).to.equal(undefined);
      // Each member's points a record of its own, no longer in meta.
      expect(await db.get('meta', `season guild ${SPRING}`)).to.equal(undefined);
      expect(await db.get('season_points', ['guild', SPRING, 'alice'])).to.deep.equal({
        app_id: 'guild',
        season_id: SPRING,
        account_name: 'alice',
        points: 40,
        at: Date.UTC(2030, 2, 2),
      });
    });
  });
});

const AUTUMN = 'c0000000-0000-4000-8000-00000000bbbb';

/** Seasons as version 10 kept them: on the app, uncounted, their points records of their own. */
async function createVersion10(name: string) {
  const db = await openEarlierVersion(name, 10);
  const tx = db.transaction(['apps', 'api_keys', 'season_points'], 'readwrite');
  const points = (account_name: string, points: number) => ({
    app_id: 'guild',
    season_id: SPRING,
    account_name,
    points,
    at: Date.UTC(2030, 2, 2),
    order: -points,
  });
  await Promise.all([
    tx.objectStore('apps').put({ ...guildApp(3), seasons: [SEASON, { ...SEASON, season_id: AUTUMN, name: 'Autumn' }] }),
    // An app without seasons is left as it was.
    tx.objectStore('apps').put({ ...guildApp(0), app_id: 'other' }),
    tx.objectStore('api_keys').put({ key_sha256: sha256Hex('pk_guild'), app_id: 'guild', scopes: ['read'] }),
    ...[points('alice', 40), points('bob', 30), points('cy', 30)].map((record) => tx.objectStore('season_points').put(record)),
    tx.done,
  ]);
  db.close();
}

describe('upgrade from version 10', () => {
  const name = `questboard-test-${crypto.randomUUID()}`;
  after(() => deleteDB(name));

  it('counts the members on each season’s board onto its entry, and the board answers with that count', async () => {
    await createVersion10(name);
    const store = openIndexedDbStore({ name });
    const handle = createHandler({ store, now: () => new Date(Date.UTC(2030, 3, 1)) });
    try {
      const response = await handle(
        new Request(`https://questboard.test/v1/get_leaderboard?app_id=guild&season=${SPRING}&around=cy&limit=1`, {
          headers: { authorization: 'Bearer pk_guild' },
        }),
      );
      const board = await response.json();
      expect(board.total_users, JSON.stringify(board)).to.equal(3);
      expect(board.leaderboard_users.map((entry: { rank: number }) => entry.rank)).to.deep.equal([2]);
    } finally {
      store.close();
    }
    await checkUpgraded(name, async (db) => {
      expect((await db.get('apps', 'guild')).seasons).to.deep.equal([
        { ...SEASON, member_count: 3 },
        { ...SEASON, season_id: AUTUMN, name: 'Autumn', member_count: 0 },
      ]);
      expect(await db.get('apps', 'other')).to.deep.equal({ ...guildApp(0), app_id: 'other' });
    });
  });
});

/** Season points as version 12 kept them: each record with its points negated, in an index in board order. */
async function createVersion12(name: string, members: SeasonMember[]) {
  const db = await openEarlierVersion(name, 12);
  const tx = db.transaction(['apps', 'api_keys', 'season_points'], 'readwrite');
  await Promise.all([
    tx.objectStore('apps').put({ ...guildApp(members.length), seasons: [{ ...SEASON, member_count: members.length }] }),
    tx.objectStore('api_keys').put({ key_sha256: sha256Hex('pk_guild'), app_id: 'guild', scopes: ['read'] }),
    ...members.map((member) =>
      tx.objectStore('season_points').put({ app_id: 'guild', season_id: SPRING, ...member, order: -member.points || 0 }),
    ),
    tx.done,
  ]);
  db.close();
}

describe('upgrade from version 12', () => {
  const name = `questboard-test-${crypto.randomUUID()}`;
  after(() => deleteDB(name));

  it('lays each season’s board out in runs: its pages and windows answer as its points say', async function () {
    this.timeout(60_000);
    // 150 members in three values, many at the same time: groups of several runs, ties by name.
    const members = Array.from({ length: 150 }, (_, i) => ({
      account_name: `m${String(i).padStart(3, '0')}`,
      points: [40, 40, 10][i % 3]!,
      at: Date.UTC(2030, 2, 2 + (i % 2)),
    }));
    await createVersion12(name, members);
    const expected = expectedSeasonBoard(members, 'olympic');
    const store = openIndexedDbStore({ name });
    const handle = createHandler({ store, now: () => new Date(Date.UTC(2030, 3, 1)) });
    const get = async (query: string) => {
      const response = await handle(
        new Request(`https://questboard.test/v1/get_leaderboard?app_id=guild&season=${SPRING}${query}`, {
          headers: { authorization: 'Bearer pk_guild' },
        }),
      );
      return response.json();
    };
    try {
      const pages = [await get('&limit=100'), await get('&limit=100&offset=100')];
      expect(pages.flatMap(seasonEntries)).to.deep.equal(expected);
      expect(seasonEntries(await get('&limit=7&offset=47'))).to.deep.equal(expected.slice(47, 54));
      for (const index of [0, 49, 50, 99, 100, 149]) {
        const member = expected[index]!.split(':')[1];
        const start = Math.max(0, Math.min(index - 2, 145));
        expect(seasonEntries(await get(`&limit=5&around=${member}`)), member).to.deep.equal(expected.slice(start, start + 5));
      }
    } finally {
      store.close();
    }
    await checkUpgraded(name, async (db) => {
      expect([...db.transaction('season_points').objectStore('season_points').indexNames]).to.deep.equal([]);
      const pages = (await db.getAll('board_runs', prefixRange(['guild', 'season']))) as RunsRecord[];
      expect(pages.map((page) => [...page.key, pageCount(page)])).to.deep.equal([
        ['guild', 'season', SPRING, -40, 100],
        ['guild', 'season', SPRING, -10, 50],
      ]);
    });
  });
});

/**
 * Copies every record of the database `from` into `to`, created at `version` with the same
 * stores: each run's rows as objects (versions 4 to 13), as JSON text of them (version 14) or
 * packed (versions 15 and 16); each group's runs in one record, and its count in one (a name
 * list's up to version 14 only), or in pages (version 16), each counted but a name list's.
 */
async function copyAsVersion(from: string, to: string, version: 13 | 14 | 15 | 16) {
  const source = await openDB(from);
  const target = await openEarlierVersion(to, version);
  try {
    for (const name of source.objectStoreNames) {
      if (name === 'board_runs' || name === 'board_counts') continue;
      const [keys, values] = await Promise.all([source.getAllKeys(name), source.getAll(name)]);
      const tx = target.transaction(name, 'readwrite');
      const store = tx.objectStore(name);
      values.forEach((value, index) => {
        if (name === 'board_rows' && version < 15) {
          const rows = decodeRows(value);
          void store.put(version === 13 ? { key: value.key, rows } : { key: value.key, rows_json: JSON.stringify(rows) });
        } else if (store.keyPath === null) void store.put(value, keys[index]);
        else void store.put(value);
      });
      await tx.done;
    }
    const pages = (await source.getAll('board_runs')) as RunsRecord[];
    const groups = new Map<string, RunsRecord[]>();
    for (const page of pages)
      groups.set(JSON.stringify(page.key.slice(0, 4)), [...(groups.get(JSON.stringify(page.key.slice(0, 4))) ?? []), page]);
    const tx = target.transaction(['board_runs', 'board_counts'], 'readwrite');
    for (const [group, records] of groups) {
      const key = JSON.parse(group) as GroupKey;
      if (version === 16) {
        for (const page of records) {
          void tx.objectStore('board_runs').put(page);
          if (!isNameList(key)) void tx.objectStore('board_counts').put({ key: page.key, count: pageCount(page) });
        }
        continue;
      }
      const runs = decodePages(records);
      void tx.objectStore('board_runs').put(oneRecordOfRuns(key, runs));
      // A count a group, a name list's too up to version 14.
      if (version < 15 || !isNameList(key)) {
        void tx.objectStore('board_counts').put({ key, count: runs.reduce((sum, run) => sum + run.count, 0) });
      }
    }
    await tx.done;
  } finally {
    source.close();
    target.close();
  }
}

/** `check` of the database's pages of runs (opened at its version, upgraded or not). */
async function checkPages(name: string, check: (pages: RunsRecord[]) => unknown) {
  const db = await openDB(name);
  try {
    await check((await db.getAll('board_runs')) as RunsRecord[]);
  } finally {
    db.close();
  }
}

/** A group's runs in one record, as versions before 16 kept them. */
function oneRecordOfRuns(key: GroupKey, runs: { start: [number, string] | null; count: number }[]): RunsRecord {
  return {
    key,
    counts: Uint16Array.from(runs, (run) => run.count),
    starts_at: Float64Array.from(runs, (run) => run.start?.[0] ?? 0),
    starts_name: JSON.stringify(runs.map((run) => run.start?.[1] ?? '')),
  };
}

for (const version of [13, 14, 15, 16] as const) {
  describe(`upgrade from version ${version}`, () => {
    const laidOut = `questboard-test-${crypto.randomUUID()}`;
    const upgraded = `questboard-test-${crypto.randomUUID()}`;
    const paged = `questboard-test-${crypto.randomUUID()}`;
    const pagedUpgraded = `questboard-test-${crypto.randomUUID()}`;
    after(() => Promise.all([laidOut, upgraded, paged, pagedUpgraded].map((name) => deleteDB(name))));

    /** The API over the database `name`, its clock on WEDNESDAY. */
    const api = (name: string) => {
      const store = openIndexedDbStore({ name });
      const handle = createHandler({ store, now: () => new Date(WEDNESDAY) });
      const call = async (method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_KEY}` };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const response = await handle(
          new Request(`https://questboard.test/v1/${path}`, { method, headers, body: JSON.stringify(body) }),
        );
        const answer = await response.json();
        expect(response.status, JSON.stringify(answer)).to.equal(200);
        return answer;
      };
      return { call, close: () => store.close() };
    };
    const logTask = (task_id: string, account_name: string, quantity: number) => ({ task_id, account_name, quantity });
    /** Every board, in pages across its runs and around a member deep in one (a period's second page lists its unranked members). */
    const boards = async (call: ReturnType<typeof api>['call']) => {
      const answers = [];
      for (const type of ['score', 'xp', 'weekly', 'monthly']) {
        const board = `get_leaderboard?app_id=guild&leaderboard_type=${type}`;
        for (const page of ['&limit=100', '&limit=100&offset=100', '&limit=5&around=m077'])
          answers.push(await call('GET', board + page));
      }
      return answers;
    };

    /**
     * The upgraded database answers `read` as the one it was copied from did (`before`); then
     * members in `checkingIn` check in on both, and they answer alike, otherwise than before.
     */
    const answersAlike = async ({
      upgraded,
      laidOut,
      read,
      before,
      checkingIn,
    }: {
      upgraded: string;
      laidOut: string;
      read: (call: ReturnType<typeof api>['call']) => Promise<unknown[]>;
      before: unknown[];
      checkingIn: string[];
    }) => {
      const target = api(upgraded);
      const after = api(laidOut);
      try {
        expect(await read(target.call)).to.deep.equal(before);
        for (const { call } of [target, after]) {
          for (const name of checkingIn) await call('POST', 'admin/log_task', logTask(GUIDS.checkIn, name, 1));
        }
        const moved = await read(after.call);
        expect(moved).to.not.deep.equal(before);
        expect(await read(target.call)).to.deep.equal(moved);
      } finally {
        target.close();
        after.close();
      }
    };

    it("packs each run's rows as columns and drops the boards' counts: the boards answer as before, and members move on them", async function () {
      this.timeout(60_000);
      // 130 members without points: the boards' groups of 0 span runs.
      const body = dataset(WEDNESDAY);
      body.apps[0]!.users.push(
        ...Array.from({ length: 130 }, (_, i) => ({
          account_name: `m${String(i).padStart(3, '0')}`,
          joined_at: iso(WEDNESDAY - 10 * 86_400_000 + (i % 7) * 1000),
        })),
      );
      const source = api(laidOut);
      await source.call('POST', 'admin/import', body);
      await source.call('POST', 'admin/log_task', logTask(GUIDS.posts, 'alice', 3));
      await source.call('POST', 'admin/log_task', logTask(GUIDS.bigPost, 'm077', 5));
      const before = await boards(source.call);
      source.close();
      await copyAsVersion(laidOut, upgraded, version);

      // A member leaves the group of 0 in the middle of its runs, on the upgraded rows and on rows laid out packed.
      await answersAlike({ upgraded, laidOut, read: boards, before, checkingIn: ['m050'] });
      await checkUpgraded(upgraded, async (db) => {
        const runs = await db.getAll('board_rows');
        expect(runs.length).to.be.greaterThan(10);
        for (const run of runs) expect(Object.keys(run).sort(), JSON.stringify(run.key)).to.deep.equal(['key', 'packed_rows']);
        // The pages of runs count the groups (version 17).
        expect([...db.objectStoreNames]).to.not.include('board_counts');
      });
    });

    // Version 16 cuts a group's runs kept in one record into pages: 12,000 members without points
    // lie in some 150 runs of the groups of 0, past a page's split.
    if (version === 15) {
      it("cuts each group's runs into pages: the boards answer as before, and members move across pages", async function () {
        this.timeout(240_000);
        const members = (from: number, to: number) =>
          Array.from({ length: to - from }, (_, i) => ({
            account_name: `m${String(from + i).padStart(5, '0')}`,
            joined_at: iso(WEDNESDAY - 10 * 86_400_000),
          }));
        const body = dataset(WEDNESDAY);
        // m077: the member the boards' pages are read around.
        body.apps[0]!.users.push(...members(0, 5000), { account_name: 'm077', joined_at: iso(WEDNESDAY) });
        const source = api(paged);
        await source.call('POST', 'admin/import', body);
        await source.call('POST', 'admin/import?mode=merge', { apps: [{ app_id: 'guild', users: members(5000, 12_000) }] });
        const deep = async (call: ReturnType<typeof api>['call']) => [
          ...(await boards(call)),
          await call('GET', 'get_leaderboard?app_id=guild&limit=5&around=m11321'),
          await call('GET', 'get_leaderboard?app_id=guild&limit=5&offset=9000'),
          await call('GET', 'get_leaderboard?app_id=guild&leaderboard_type=weekly&limit=5&offset=10000'),
        ];
        const before = await deep(source.call);
        source.close();
        await copyAsVersion(paged, pagedUpgraded, version);
        await checkPages(pagedUpgraded, (pages) =>
          expect(Math.max(...pages.map((page) => page.counts.length))).to.be.greaterThan(PAGE_SPLIT),
        );

        // Members leave the groups of 0 in their first pages and in later ones, and join others.
        await answersAlike({
          upgraded: pagedUpgraded,
          laidOut: paged,
          read: deep,
          before,
          checkingIn: ['m00010', 'm04000', 'm11321', 'm11999'],
        });
        for (const name of [paged, pagedUpgraded]) expect(await layoutFaults(name), name).to.deep.equal([]);
        await checkPages(pagedUpgraded, (pages) => {
          expect(Math.max(...pages.map((page) => page.counts.length))).to.be.at.most(PAGE_SPLIT);
          const groups = new Set(pages.map((page) => JSON.stringify(page.key.slice(0, 4))));
          expect(pages.length).to.be.greaterThan(groups.size);
        });
      });
    }
  });
}
