// The SQL store upgrades a database of an older schema in place: members
// written at version 1 (before board counts) are on the boards, ranked and
// paged, once a store of this version opens it, the weekly board's unranked
// tail too, and each member listed with the counts their record held. On
// PGlite in a directory and on PostgreSQL.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../../../scripts/postgres.js';
import { postgresOrSkip } from '../../postgres-or-skip.js';
import { importSource } from '../../source-module.js';
import { userRecord } from './user-record.js';

/** @typedef {import('../../../src/store/sql/sql.js').SqlDriver} SqlDriver */
/** @typedef {import('../../../src/store/sql/index.js').SqlStoreOptions} SqlStoreOptions */
/** @typedef {import('../../../src/api/responses.js').Leaderboard} Leaderboard */

/**
 * @type {typeof import('../../../src/handler/handler.js') & typeof import('../../../src/store/sql/index.js') &
 *   typeof import('../../../src/core/periods.js') & typeof import('../../../src/api/key-hash.js')}
 */
let sql;
before(async () => {
  sql = await importSource('src/handler/handler.ts', 'src/store/sql/index.ts', 'src/core/periods.ts', 'src/api/key-hash.ts');
});

/**
 * @param {string} name
 * @param {number} total_score
 * @param {number} at
 */
const member = (name, total_score, at) => userRecord({ app_id: 'guild', account_name: name, total_score, score_at: at });

/**
 * Writes an app, its key and members as version 1 kept them.
 * @param {SqlDriver} driver
 */
async function writeVersion1(driver) {
  const app = { app_id: 'guild', name: 'Guild', endorsement_xp: 5, rank_policy: 'olympic', member_count: 4, treasury: null };
  const members = [member('ann', 30, 1), member('bob', 50, 2), member('cat', 30, 3), member('dan', 10, 4)];
  // Bob scored this week: first on the weekly board, the others its tail by name. His counts are
  // in his record alone, as version 7 moved them to columns of their own.
  Object.assign(members[1], {
    week: sql.weekOf(Date.now()),
    week_score: 50,
    week_at: 2,
    tasks_completed: 3,
    challenges_completed: 1,
  });
  await driver.transaction('write', async (session) => {
    /** @param {string} text @param {unknown[]} values */
    const run = (text, values) => session.query({ text, values });
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['guild', JSON.stringify(app)]);
    await run('INSERT INTO api_keys (key, app_id, record) VALUES ($1, $2, $3)', [
      'pk_guild',
      'guild',
      JSON.stringify({ key: 'pk_guild', app_id: 'guild', scopes: ['read'] }),
    ]);
    for (const user of members) {
      await run(
        `INSERT INTO users (app_id, account_name, total_score, score_at, xp, xp_at, week, week_score, week_at,
           month, month_score, month_at, record) VALUES ($1, $2, $3, $4, 0, 0, $5, $6, $7, '', 0, 0, $8)`,
        [
          'guild',
          user.account_name,
          user.total_score,
          user.score_at,
          user.week,
          user.week_score,
          user.week_at,
          JSON.stringify(user),
        ],
      );
    }
  });
}

/**
 * @param {() => SqlDriver | Promise<SqlDriver>} openDriver
 * @param {SqlStoreOptions} storeOptions
 */
async function upgradeAndRead(openDriver, storeOptions) {
  const driver = await openDriver();
  assert.equal(await sql.migrate(driver, 1), 0, 'a new database starts empty');
  await writeVersion1(driver);
  await driver.close();

  const store = await sql.openSqlStore(storeOptions);
  try {
    const handle = sql.createHandler({ store });
    /**
     * @param {string} query
     * @param {string} [type]
     */
    const entries = async (query, type = 'score') => {
      const response = await handle(
        new Request(`http://questboard.test/v1/get_leaderboard?app_id=guild&leaderboard_type=${type}&${query}`, {
          headers: { authorization: 'Bearer pk_guild' },
        }),
      );
      assert.equal(response.status, 200);
      return /** @type {Leaderboard} */ (await response.json()).leaderboard_users;
    };
    /**
     * @param {string} query
     * @param {string} [type]
     */
    const board = async (query, type) =>
      (await entries(query, type)).map((entry) => `${entry.rank} ${entry.external_user.username}`);
    /** @param {import('../../../src/api/responses.js').LeaderboardEntry} entry */
    const counts = ({ external_user, task_count, challenge_count }) =>
      `${external_user.username} ${task_count} ${challenge_count}`;
    assert.deepEqual((await entries('limit=2')).map(counts), ['bob 3 1', 'ann 0 0']);
    assert.deepEqual((await entries('around=bob&limit=1', 'weekly')).map(counts), ['bob 3 1']);
    assert.deepEqual(await board(''), ['1 bob', '2 ann', '2 cat', '4 dan']);
    assert.deepEqual(await board('offset=2&limit=2'), ['2 cat', '4 dan']);
    assert.deepEqual(await board('around=cat&limit=1'), ['2 cat']);
    assert.deepEqual(await board('', 'weekly'), ['1 bob', '2 ann', '2 cat', '2 dan']);
    assert.deepEqual(await board('offset=2&limit=2', 'weekly'), ['2 cat', '2 dan']);
    assert.deepEqual(await board('around=cat&limit=1', 'weekly'), ['2 cat']);
  } finally {
    await store.close();
  }
}

describe('an older SQL schema upgrades in place', () => {
  it('on PGlite in a directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-migration-'));
    try {
      await upgradeAndRead(() => sql.pgliteDriver(dataDir), { dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_migration');
    try {
      await upgradeAndRead(() => sql.postgresDriver({ url: database.url }), { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});

/** The migration that hashes API keys, by name: its number may change as others land before it. */
const beforeHashedKeys = () => sql.MIGRATIONS.findIndex((migration) => migration.name === 'hashed api keys');

/**
 * An app key in clear as the versions before hashed keys kept it, with idempotency records under
 * it, under the installation admin key's hash (kept so already) and under a key no longer there.
 * @param {SqlDriver} driver
 * @param {number} now
 */
async function writeClearKeys(driver, now) {
  const input = '{"account_name":"alice","app_id":"guild","twitter_name":"alice_x"}';
  const app = { app_id: 'guild', name: 'Guild', endorsement_xp: 5, rank_policy: 'olympic', member_count: 0, treasury: null };
  await driver.transaction('write', async (session) => {
    /** @param {string} text @param {unknown[]} values */
    const run = (text, values) => session.query({ text, values });
    await run('INSERT INTO meta (key, value) VALUES ($1, $2)', [
      'admin_keys',
      JSON.stringify({ sha256: [sql.sha256Hex('sk_admin')] }),
    ]);
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['guild', JSON.stringify(app)]);
    await run('INSERT INTO api_keys (key, app_id, record) VALUES ($1, $2, $3)', [
      'pk_guild',
      'guild',
      JSON.stringify({ key: 'pk_guild', app_id: 'guild', scopes: ['read', 'write'] }),
    ]);
    // The app key's record as the versions before fingerprinted a request: as it came.
    for (const [api_key, idempotency_key, fingerprint] of [
      ['pk_guild', 'by-app-key', `POST connect_social ${input}`],
      [sql.sha256Hex('sk_admin'), 'by-admin-key', `POST connect_social {} ${input}`],
      ['pk_gone', 'by-gone-key', `POST connect_social {} ${input}`],
    ]) {
      const record = {
        api_key,
        idempotency_key,
        fingerprint,
        status: 200,
        body: `{"kept":"${idempotency_key}"}`,
        created_at: now,
      };
      await run('INSERT INTO idempotency (api_key, idempotency_key, created_at, record) VALUES ($1, $2, $3, $4)', [
        api_key,
        idempotency_key,
        now,
        JSON.stringify(record),
      ]);
    }
  });
}

/**
 * @param {() => SqlDriver | Promise<SqlDriver>} openDriver
 * @param {SqlStoreOptions} storeOptions
 */
async function upgradeClearKeys(openDriver, storeOptions) {
  const now = Date.now();
  const driver = await openDriver();
  await sql.migrate(driver, beforeHashedKeys());
  await writeClearKeys(driver, now);
  await driver.close();

  const store = await sql.openSqlStore(storeOptions);
  try {
    const handle = sql.createHandler({ store, now: () => new Date(now) });
    /**
     * @param {string} key
     * @param {string} idempotencyKey
     */
    const connect = async (key, idempotencyKey) => {
      const response = await handle(
        new Request('http://questboard.test/v1/connect_social', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body: JSON.stringify({ app_id: 'guild', account_name: 'alice', twitter_name: 'alice_x' }),
        }),
      );
      return response.text();
    };
    // The key opens its app as before, and a retry across the upgrade gets its first answer.
    assert.equal(await connect('pk_guild', 'by-app-key'), '{"kept":"by-app-key"}');
    assert.equal(await connect('sk_admin', 'by-admin-key'), '{"kept":"by-admin-key"}');
  } finally {
    await store.close();
  }

  const reader = await openDriver();
  try {
    const rows = await reader.transaction('read', async (session) => ({
      keys: /** @type {{ row: string }[]} */ (
        await session.query({ text: 'SELECT row_to_json(api_keys)::text AS row FROM api_keys', values: [] })
      ),
      idempotency: await session.query({
        text: 'SELECT api_key, idempotency_key FROM idempotency ORDER BY idempotency_key',
        values: [],
      }),
    }));
    const hash = sql.sha256Hex('pk_guild');
    const kept = [...rows.keys].map(({ row }) => JSON.parse(row)).map((row) => ({ ...row, record: JSON.parse(row.record) }));
    assert.deepEqual(kept, [
      { key_sha256: hash, app_id: 'guild', record: { key_sha256: hash, app_id: 'guild', scopes: ['read', 'write'] } },
    ]);
    assert.ok(!rows.keys[0].row.includes('pk_guild'));
    assert.deepEqual(
      [...rows.idempotency],
      [
        { api_key: sql.sha256Hex('sk_admin'), idempotency_key: 'by-admin-key' },
        { api_key: hash, idempotency_key: 'by-app-key' },
      ],
    );
  } finally {
    await reader.close();
  }
}

describe('API keys kept in clear are hashed in place', () => {
  it('on PGlite in a directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-migration-'));
    try {
      await upgradeClearKeys(() => sql.pgliteDriver(dataDir), { dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_key_hashes');
    try {
      await upgradeClearKeys(() => sql.postgresDriver({ url: database.url }), { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});

/** The migration that moves seasons onto the app, by name: its number may change as others land before it. */
const beforeSeasonsOnApp = () => sql.MIGRATIONS.findIndex((migration) => migration.name === 'seasons');

/** A season as the versions before kept it: in a meta record of the app's, beside its points in another. */
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

/**
 * @param {() => SqlDriver | Promise<SqlDriver>} openDriver
 * @param {SqlStoreOptions} storeOptions
 */
async function upgradeSeasons(openDriver, storeOptions) {
  const driver = await openDriver();
  await sql.migrate(driver, beforeSeasonsOnApp());
  const app = { app_id: 'guild', name: 'Guild', endorsement_xp: 5, rank_policy: 'olympic', member_count: 1, treasury: null };
  await driver.transaction('write', async (session) => {
    /** @param {string} text @param {unknown[]} values */
    const run = (text, values) => session.query({ text, values });
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['guild', JSON.stringify(app)]);
    // An app without seasons is left as it was.
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['other', JSON.stringify({ ...app, app_id: 'other' })]);
    await run('INSERT INTO api_keys (key_sha256, app_id, record) VALUES ($1, $2, $3)', [
      sql.sha256Hex('pk_guild'),
      'guild',
      JSON.stringify({ key_sha256: sql.sha256Hex('pk_guild'), app_id: 'guild', scopes: ['read'] }),
    ]);
    await run('INSERT INTO meta (key, value) VALUES ($1, $2)', ['seasons guild', JSON.stringify([SEASON])]);
    await run('INSERT INTO meta (key, value) VALUES ($1, $2)', [
      `season guild ${SPRING}`,
      JSON.stringify({ alice: [40, Date.UTC(2030, 2, 2)] }),
    ]);
  });
  await driver.close();

  const store = await sql.openSqlStore(storeOptions);
  try {
    const handle = sql.createHandler({ store, now: () => new Date(Date.UTC(2030, 3, 1)) });
    const response = await handle(
      new Request(`http://questboard.test/v1/get_leaderboard?app_id=guild&season=${SPRING}`, {
        headers: { authorization: 'Bearer pk_guild' },
      }),
    );
    assert.equal(response.status, 200);
    const board = /** @type {Leaderboard} */ (await response.json());
    assert.deepEqual(
      board.leaderboard_users.map((entry) => [entry.external_user.username, entry.score]),
      [['alice', 40]],
    );
  } finally {
    await store.close();
  }

  const reader = await openDriver();
  try {
    const rows = await reader.transaction('read', async (session) => ({
      apps: /** @type {{ record: string }[]} */ (
        await session.query({ text: 'SELECT app_id, record FROM apps ORDER BY app_id', values: [] })
      ),
      meta: await session.query({ text: `SELECT key FROM meta WHERE starts_with(key, 'season')`, values: [] }),
      points: /** @type {{ record: string }[]} */ (await session.query({ text: 'SELECT record FROM season_points', values: [] })),
    }));
    assert.deepEqual(
      [...rows.apps].map(({ record }) => JSON.parse(record)),
      [
        { ...app, seasons: [{ ...SEASON, member_count: 1 }] },
        { ...app, app_id: 'other' },
      ],
    );
    assert.equal(rows.meta.length, 0, 'no seasons nor points left in meta');
    assert.deepEqual(
      [...rows.points].map(({ record }) => JSON.parse(record)),
      [{ app_id: 'guild', season_id: SPRING, account_name: 'alice', points: 40, at: Date.UTC(2030, 2, 2) }],
    );
  } finally {
    await reader.close();
  }
}

describe('seasons kept in meta move onto their app, their points into rows', () => {
  it('on PGlite in a directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-migration-'));
    try {
      await upgradeSeasons(() => sql.pgliteDriver(dataDir), { dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_seasons_on_app');
    try {
      await upgradeSeasons(() => sql.postgresDriver({ url: database.url }), { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});

/** The migration that takes the secrets out of the webhook outbox, by name: its number may change as others land before it. */
const beforeSecretsAtSendTime = () => sql.MIGRATIONS.findIndex((migration) => migration.name === 'webhook secrets at send time');

const SECRET_KEPT = `whsec_${Buffer.from('the secret the outbox once kept.').toString('base64')}`;
const SECRET_NOW = `whsec_${Buffer.from('the secret the app has now......').toString('base64')}`;

/**
 * Deliveries left pending by the versions that kept each one's secret: after the upgrade the
 * outbox has no secret column, and a claim signs with the app's secret now, or fails a delivery
 * to an endpoint the app no longer has.
 * @param {() => SqlDriver | Promise<SqlDriver>} openDriver
 * @param {SqlStoreOptions} storeOptions
 */
async function upgradeOutbox(openDriver, storeOptions) {
  const driver = await openDriver();
  await sql.migrate(driver, beforeSecretsAtSendTime());
  const url = 'https://hooks.example.org/questboard';
  const app = {
    app_id: 'guild',
    name: 'Guild',
    endorsement_xp: 5,
    rank_policy: 'olympic',
    member_count: 0,
    treasury: null,
    webhooks: [{ url, secret: SECRET_NOW, events: ['task.completed'] }],
  };
  await driver.transaction('write', async (session) => {
    /** @param {string} text @param {unknown[]} values */
    const run = (text, values) => session.query({ text, values });
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['guild', JSON.stringify(app)]);
    for (const [id, to] of [
      ['msg_kept', url],
      ['msg_removed', 'https://gone.example.org/hooks'],
    ]) {
      await run(
        `INSERT INTO webhook_deliveries (id, app_id, url, secret, type, body, created_at, next_at)
          VALUES ($1, 'guild', $2, $3, 'task.completed', '{}', 1, 1)`,
        [id, to, SECRET_KEPT],
      );
    }
  });
  await driver.close();

  const store = await sql.openSqlStore(storeOptions);
  try {
    const claimed = await store.webhookOutbox.claim(Date.now(), 10, 60_000);
    assert.deepEqual(
      claimed.map(({ id, endpoint, attempt }) => ({ id, secret: endpoint.secret, attempt })),
      [{ id: 'msg_kept', secret: SECRET_NOW, attempt: 1 }],
    );
  } finally {
    await store.close();
  }

  const reader = await openDriver();
  try {
    /** @type {{ id: string, status: string, attempts: number, last_error: string | null }[]} */
    const rows = await reader.transaction('read', (session) =>
      session.query({ text: 'SELECT * FROM webhook_deliveries ORDER BY id', values: [] }),
    );
    assert.equal(JSON.stringify(rows).includes(SECRET_KEPT.slice('whsec_'.length)), false, 'no secret left in the outbox');
    assert.deepEqual(
      rows.map(({ id, status, attempts, last_error }) => ({ id, status, attempts, last_error })),
      [
        { id: 'msg_kept', status: 'pending', attempts: 1, last_error: null },
        { id: 'msg_removed', status: 'failed', attempts: 0, last_error: 'the endpoint was removed' },
      ],
    );
  } finally {
    await reader.close();
  }
}

describe('webhook deliveries kept with their secret lose it, and sign with the secrets of their app', () => {
  it('on PGlite in a directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-migration-'));
    try {
      await upgradeOutbox(() => sql.pgliteDriver(dataDir), { dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_outbox_secrets');
    try {
      await upgradeOutbox(() => sql.postgresDriver({ url: database.url }), { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});

/** The migration that counts each season's members onto its entry, by name, as beforeSeasonsOnApp. */
const beforeSeasonCounts = () => sql.MIGRATIONS.findIndex((migration) => migration.name === 'season member counts');

const AUTUMN = 'c0000000-0000-4000-8000-00000000bbbb';

/**
 * @param {() => SqlDriver | Promise<SqlDriver>} openDriver
 * @param {SqlStoreOptions} storeOptions
 */
async function upgradeSeasonCounts(openDriver, storeOptions) {
  const driver = await openDriver();
  await sql.migrate(driver, beforeSeasonCounts());
  // A name holding U+0000, which PostgreSQL's JSON functions refuse: the record is kept as text.
  const seasons = [SEASON, { ...SEASON, season_id: AUTUMN, name: 'Autumn \u0000' }];
  const app = { app_id: 'guild', name: 'Guild', endorsement_xp: 5, rank_policy: 'olympic', member_count: 3, treasury: null };
  /** @type {(app_id: string, season_id: string, account_name: string, points: number) => unknown[]} */
  const points = (app_id, season_id, account_name, points) => [
    app_id,
    season_id,
    account_name,
    points,
    Date.UTC(2030, 2, 2),
    JSON.stringify({ app_id, season_id, account_name, points, at: Date.UTC(2030, 2, 2) }),
  ];
  await driver.transaction('write', async (session) => {
    /** @param {string} text @param {unknown[]} values */
    const run = (text, values) => session.query({ text, values });
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['guild', JSON.stringify({ ...app, seasons })]);
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', ['other', JSON.stringify({ ...app, app_id: 'other' })]);
    // Another app with a season of the same id: counted apart.
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', [
      'third',
      JSON.stringify({ ...app, app_id: 'third', seasons }),
    ]);
    await run('INSERT INTO api_keys (key_sha256, app_id, record) VALUES ($1, $2, $3)', [
      sql.sha256Hex('pk_guild'),
      'guild',
      JSON.stringify({ key_sha256: sql.sha256Hex('pk_guild'), app_id: 'guild', scopes: ['read'] }),
    ]);
    for (const row of [
      points('guild', SPRING, 'alice', 40),
      points('guild', SPRING, 'bob', 30),
      points('guild', SPRING, 'cy', 30),
      points('guild', AUTUMN, 'alice', 10),
      points('third', SPRING, 'alice', 10),
    ]) {
      await run(
        'INSERT INTO season_points (app_id, season_id, account_name, points, at, record) VALUES ($1, $2, $3, $4, $5, $6)',
        row,
      );
    }
  });
  await driver.close();

  const store = await sql.openSqlStore(storeOptions);
  try {
    const handle = sql.createHandler({ store, now: () => new Date(Date.UTC(2030, 3, 1)) });
    const response = await handle(
      new Request(`http://questboard.test/v1/get_leaderboard?app_id=guild&season=${SPRING}&around=cy&limit=1`, {
        headers: { authorization: 'Bearer pk_guild' },
      }),
    );
    assert.equal(response.status, 200);
    const board = /** @type {import('../../../src/api/responses.js').Leaderboard} */ (await response.json());
    assert.equal(board.total_users, 3);
    assert.deepEqual(
      board.leaderboard_users.map((entry) => [entry.external_user.username, entry.rank]),
      [['cy', 2]],
    );
  } finally {
    await store.close();
  }

  const reader = await openDriver();
  try {
    /** @type {{ record: string }[]} */
    const apps = await reader.transaction('read', (session) =>
      session.query({ text: 'SELECT record FROM apps ORDER BY app_id', values: [] }),
    );
    assert.deepEqual(
      [...apps].map(({ record }) => JSON.parse(record)),
      [
        {
          ...app,
          seasons: [
            { ...seasons[0], member_count: 3 },
            { ...seasons[1], member_count: 1 },
          ],
        },
        { ...app, app_id: 'other' },
        {
          ...app,
          app_id: 'third',
          seasons: [
            { ...seasons[0], member_count: 1 },
            { ...seasons[1], member_count: 0 },
          ],
        },
      ],
    );
  } finally {
    await reader.close();
  }
}

describe("each season's members counted onto its entry on the app", () => {
  it('on PGlite in a directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-migration-'));
    try {
      await upgradeSeasonCounts(() => sql.pgliteDriver(dataDir), { dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = await createDatabase('questboard_season_counts');
    try {
      await upgradeSeasonCounts(() => sql.postgresDriver({ url: database.url }), { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});
