// Where the driver keeps each statement's plan (PostgreSQL), the store keeps
// the tables' statistics and visibility current as they grow: a plan kept
// from an empty table reads a member by scanning all of them, and ANALYZE has
// it made again for the table's size. Checked on PostgreSQL: the plans are
// kept (plan_cache_mode), and a write of more rows than the floor is followed
// by a VACUUM (ANALYZE) of the members (pg_class.reltuples, -1 until a table
// is first analyzed; pg_stat_user_tables.last_vacuum), as is the opening of
// a database of an older version. PGlite runs no autovacuum, and without
// statistics plans every table as a few rows: its drivers (in this process,
// and the server's thread over a data directory) are maintained likewise.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { createDatabase } from '../../../scripts/postgres.js';
import { postgresOrSkip, sharedDatabase } from '../../postgres-or-skip.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSource } from '../../source-module.js';
import { userRecord } from './user-record.js';

/** The season each member written has points in (a season's id is a GUID). */
const SEASON = 'c0000000-0000-4000-8000-00000000aaaa';

/** @type {typeof import('../../../src/store/sql/index.js') & typeof import('../../../src/server/pglite-thread.js')} */
let sql;
before(async () => {
  sql = await importSource('src/store/sql/index.ts', 'src/server/pglite-thread.ts');
});

describe('statistics kept on PostgreSQL', () => {
  const shared = sharedDatabase('questboard_statistics');
  after(() => shared.drop());

  // An upgrade may fill or rewrite whole tables (version 7 wrote most members' counts): no write
  // through the store follows to grow them past the floor, and their plans would stay those of
  // the tables before.
  it('vacuums and analyzes a database of an older version as it opens', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_upgraded');
    const observer = postgres(database.url, { max: 1, onnotice: () => undefined });
    const members = async () =>
      (
        await observer`
          SELECT c.reltuples::float8 AS analyzed, s.last_vacuum FROM pg_class AS c
          JOIN pg_stat_user_tables AS s ON s.relid = c.oid WHERE c.oid = 'users'::regclass`
      )[0];
    try {
      const driver = sql.postgresDriver({ url: database.url, max: 1 });
      await sql.migrate(driver, 1);
      await driver.close();
      assert.deepEqual(await members(), { analyzed: -1, last_vacuum: null }, 'version 1, never maintained');

      const store = await sql.openSqlStore({ databaseUrl: database.url });
      try {
        const deadline = Date.now() + 30_000;
        while ((await members()).last_vacuum === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const maintained = await members();
        assert.ok(maintained.last_vacuum instanceof Date, 'vacuumed with nothing written');
        assert.equal(maintained.analyzed, 0, 'and analyzed: an empty table, counted');
      } finally {
        await store.close();
      }
    } finally {
      await observer.end();
      await database.drop();
    }
  });

  it('plans each statement once on its connection', async (t) => {
    const database = await shared.orSkip(t);
    if (!database) return;
    const driver = sql.postgresDriver({ url: database.url, max: 1 });
    /** @param {import('../../../src/store/sql/sql.js').SqlSession} session */
    const mode = async (session) =>
      (await session.query({ text: "SELECT current_setting('plan_cache_mode') AS mode", values: [] }))[0].mode;
    try {
      assert.equal(typeof driver.maintain, 'function');
      assert.equal(await driver.transaction('read', mode), 'force_generic_plan');
      assert.equal(await driver.transaction('write', mode), 'force_generic_plan');
    } finally {
      await driver.close();
    }
  });

  /**
   * A store on the test's database (in `schema`, if given), with what the tests ask of it: writing
   * members `from`…`from + count - 1`, each with points in a season, and the members table's rows
   * as ANALYZE last counted them (-1 until then), looked for until they reach `count` (the
   * maintenance runs beside the requests, none waiting for it).
   * @param {{ url: string }} database
   * @param {string} [schema]
   */
  async function storeOf(database, schema) {
    const store = await sql.openSqlStore({ databaseUrl: database.url, schema });
    const users = schema ? `${schema}.users` : 'users';
    const observer = postgres(database.url, { max: 1, onnotice: () => undefined });
    const analyzedRows = async () =>
      (await observer`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = ${users}::regclass`)[0].n;
    return {
      users,
      observer,
      analyzedRows,
      /** @param {number} count */
      async rowsReach(count) {
        const deadline = Date.now() + 30_000;
        while ((await analyzedRows()) < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        return analyzedRows();
      },
      /**
       * @param {number} from
       * @param {number} count
       */
      writeMembers: (from, count) =>
        store.write(async (tx) => {
          for (let i = from; i < from + count; i++) {
            tx.put('users', userRecord({ app_id: 'guild', account_name: `member-${i}`, total_score: i % 7, score_at: i }));
            tx.put('season_points', { app_id: 'guild', season_id: SEASON, account_name: `member-${i}`, points: i % 7, at: i });
          }
        }),
      async close() {
        await observer.end();
        await store.close();
      },
    };
  }

  // A store of its own schema (as tests give each store) maintains its own tables.
  for (const schema of [undefined, 'tenant']) {
    it(`analyzes and vacuums the tables once a write has grown them${schema ? ', in its schema' : ''}`, async (t) => {
      const database = await shared.orSkip(t);
      if (!database) return;
      const store = await storeOf(database, schema);
      try {
        await store.writeMembers(0, 10);
        assert.equal(await store.analyzedRows(), -1, 'ten rows are short of the floor: never analyzed');
        await store.writeMembers(10, 1200);
        assert.equal(await store.rowsReach(1210), 1210, 'every member counted by the ANALYZE');
        const [stats] = await store.observer`SELECT last_vacuum FROM pg_stat_user_tables WHERE relid = ${store.users}::regclass`;
        assert.ok(stats.last_vacuum instanceof Date, 'and vacuumed');
        // A season's points, counted by index alone as the members are, vacuumed with them (by
        // the same statement, after the members: looked for until then).
        const points = schema ? `${schema}.season_points` : 'season_points';
        const lastVacuum = async () =>
          (await store.observer`SELECT last_vacuum FROM pg_stat_user_tables WHERE relid = ${points}::regclass`)[0].last_vacuum;
        const deadline = Date.now() + 30_000;
        while ((await lastVacuum()) === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        assert.ok((await lastVacuum()) instanceof Date, "and the season's points vacuumed");
      } finally {
        await store.close();
      }
    });
  }

  // The last rows of a bulk import, short of the tables' growth, once the writes pause.
  it('maintains what was written since the last time once the writes pause', async (t) => {
    const database = await shared.orSkip(t);
    if (!database) return;
    const store = await storeOf(database, 'paused');
    try {
      await store.writeMembers(0, 1210);
      assert.equal(await store.rowsReach(1210), 1210, 'maintained as the tables grew from nothing');
      // Fewer rows than the tables hold: no growth to maintain them for, only the pause.
      await store.writeMembers(1210, 1100);
      assert.equal(await store.rowsReach(2310), 2310, 'maintained after the pause');
    } finally {
      await store.close();
    }
  });
});

describe('statistics kept on PGlite', () => {
  /**
   * Writes 1,210 members with season points (past the floor) through a store on `driver`, and
   * looks for the members' and the season points' rows as ANALYZE counts them (-1 until then).
   * @param {import('../../../src/store/sql/sql.js').SqlDriver} driver
   */
  async function maintainedOn(driver) {
    const store = await sql.openSqlStore({ driver });
    const counted = async () =>
      driver.transaction('read', async (session) => {
        const rows = await session.query({
          text: `SELECT relname, reltuples::float8 AS n FROM pg_class WHERE relname IN ('users', 'season_points') ORDER BY relname`,
          values: [],
        });
        return Object.fromEntries(rows.map((row) => [row.relname, row.n]));
      });
    try {
      assert.deepEqual(await counted(), { season_points: -1, users: -1 }, 'never analyzed');
      await store.write(async (tx) => {
        for (let i = 0; i < 1210; i++) {
          tx.put('users', userRecord({ app_id: 'guild', account_name: `member-${i}`, total_score: i % 7, score_at: i }));
          tx.put('season_points', { app_id: 'guild', season_id: SEASON, account_name: `member-${i}`, points: i % 7, at: i });
        }
      });
      const deadline = Date.now() + 30_000;
      while ((await counted()).season_points < 1210 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(await counted(), { season_points: 1210, users: 1210 }, 'both counted by the ANALYZE after the write');
    } finally {
      await store.close();
    }
  }

  it('in this process', async () => {
    await maintainedOn(await sql.pgliteDriver());
  });

  it("in the server's thread over a data directory", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-statistics-'));
    try {
      await maintainedOn(await sql.pgliteThreadDriver(dataDir, { onFailure: () => undefined }));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
