// A season's board on the SQL store is counted in blocks (src/store/sql/season-blocks.ts) and
// sections of blocks (season-sections.ts): a board of more members than a block holds, many of
// them tied on points and on time, answers its pages, `around` windows and ranks (under each tie
// rule) as its rows sorted in board order do, after imports (merge and replace), logs and
// adjustments have moved members between blocks and cut them; a section grown past its split is
// cut, and a block emptied leaves its section, each counting exactly its members; and a database
// of version 19 gets the blocks and sections of the season points it holds. On PGlite and on
// PostgreSQL.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, postgresAnswers } from '../../../scripts/postgres.js';
import { callHandler } from '../../handler-call.js';
import { skipWithoutPostgres } from '../../postgres-or-skip.js';
import { importSource } from '../../source-module.js';

const ADMIN = 'sk_season_blocks_admin';
const NOW = Date.UTC(2030, 3, 1);
const SEASON_ID = 'c0000000-0000-4000-8000-00000000aaaa';
const TASK_ID = 'c0000000-0000-4000-8000-00000000bbbb';
const CHALLENGE_ID = 'c0000000-0000-4000-8000-00000000cccc';
/** Past two blocks' split (1,000 members each). */
const MEMBERS = 2300;
/** Distinct names in a scrambled order: the board's order is not the order of writing. */
const nameOf = (/** @type {number} */ i) => `m${String((i * 7919) % 10000).padStart(4, '0')}`;
/** Five values and three times: long runs of ties, broken by the time, then the name. */
/** The members who log: half on the board, half new to it. */
const LOGGERS = Array.from({ length: 60 }, (_, i) => nameOf(i % 2 === 0 ? i * 31 : MEMBERS + 300 + i));
const entryOf = (/** @type {number} */ i, shift = 0) => ({
  account_name: nameOf(i),
  points: 10 * (1 + ((i + shift) % 5)),
  at: new Date(Date.UTC(2030, 2, 2) + ((i + shift) % 3) * 1000).toISOString(),
});

/**
 * @type {typeof import('../../../src/handler/handler.js') & typeof import('../../../src/store/sql/index.js') &
 *   typeof import('../../../src/api/key-hash.js')}
 */
let source;
before(async () => {
  source = await importSource('src/handler/handler.ts', 'src/store/sql/index.ts', 'src/api/key-hash.ts');
});

/** @typedef {{ account_name: string, points: number, at: string }} BoardEntry */
/** @typedef {(method: string, path: string, body?: unknown) => Promise<{ status: number, body: unknown }>} Call */

/** @param {BoardEntry[]} board */
const season = (board) => ({
  season_id: SEASON_ID,
  name: 'Spring',
  starts_at: '2030-03-01T00:00:00Z',
  ends_at: '2030-06-01T00:00:00Z',
  board,
});

/**
 * @param {import('../../../src/store/index.js').Store} store
 * @returns {Call}
 */
const callerOf = (store) => {
  const handle = source.createHandler({ store, now: () => new Date(NOW) });
  return (method, path, body) => callHandler(handle, method, path, ADMIN, body);
};

/** @param {{ status: number, body: unknown }} answer */
const ok = (answer) => {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return /** @type {any} */ (answer.body);
};

/**
 * Entries in board order: the most points first, then the earliest to reach them, then by name.
 * @param {BoardEntry[]} entries
 */
const inBoardOrder = (entries) =>
  [...entries].sort(
    (a, b) =>
      b.points - a.points ||
      Date.parse(a.at) - Date.parse(b.at) ||
      (a.account_name < b.account_name ? -1 : a.account_name > b.account_name ? 1 : 0),
  );

/**
 * The season's board as its rows stand (the export lists them), sorted here in board order, then
 * every page, window and rank the board answers checked against it.
 * @param {Call} call
 * @param {string} rank_policy
 */
async function checkBoard(call, rank_policy) {
  const exported = ok(await call('GET', '/v1/admin/export?app_id=guild'));
  /** @type {BoardEntry[]} */
  const rows = exported.apps[0].seasons[0].board;
  const sorted = inBoardOrder(rows);
  const distinctAbove = (/** @type {number} */ points) =>
    new Set(sorted.filter((row) => row.points > points).map((row) => row.points)).size;
  const expected = sorted.map((row, index) => {
    const rank =
      rank_policy === 'ordinal'
        ? index + 1
        : rank_policy === 'dense'
          ? 1 + distinctAbove(row.points)
          : 1 + sorted.findIndex((other) => other.points === row.points);
    return [row.account_name, row.points, rank];
  });
  const total = expected.length;
  const shown = (/** @type {import('../../../src/api/responses.js').Leaderboard} */ board) =>
    board.leaderboard_users.map((entry) => [entry.external_user.username, entry.score, entry.rank]);
  const path = `/v1/get_leaderboard?app_id=guild&season=${SEASON_ID}`;

  for (const offset of [0, 1, 499, 500, 501, 998, 999, 1000, 1001, 1499, 1500, total - 101, total - 7, total - 1, total + 5]) {
    if (offset < 0) continue;
    const board = ok(await call('GET', `${path}&offset=${offset}&limit=100`));
    assert.equal(board.total_users, total);
    assert.deepEqual(shown(board), expected.slice(offset, offset + 100), `offset ${offset}`);
  }
  for (let position = 0; position < total; position += 97) {
    for (const at of [position, Math.min(total - 1, position + 1)]) {
      const [name] = expected[at];
      const board = ok(await call('GET', `${path}&around=${name}&limit=5`));
      const start = Math.max(0, Math.min(at - 2, total - 5));
      assert.deepEqual(shown(board), expected.slice(start, start + 5), `around ${name} at ${at}`);
    }
  }
  return total;
}

/**
 * The writes' checks on one engine's store, opened on the driver `open` gives (null: PostgreSQL
 * does not answer).
 * @param {() => Promise<import('../../../src/store/sql/sql.js').SqlDriver | null>} open
 */
function writesOn(open) {
  /** @type {import('../../../src/store/sql/index.js').SqlStore | null} */
  let store = null;
  /** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
  let driver;
  /** @type {Call} */
  let call;
  /** The board as its rows, and its counts exact. */
  const check = async (/** @type {string} */ rank_policy) => {
    const total = await checkBoard(call, rank_policy);
    await checkCounts(driver);
    return total;
  };
  before(async () => {
    const opened = await open();
    if (!opened) return;
    driver = opened;
    store = await source.openSqlStore({ driver });
    call = callerOf(store);
  });
  after(() => store?.close());

  it('answers as its rows after imports, logs, adjustments and a replace, under each tie rule', async (t) => {
    if (!store) return skipWithoutPostgres(t);
    const board = Array.from({ length: MEMBERS }, (_, i) => entryOf(i));
    ok(
      await call('POST', '/v1/admin/import', {
        admin_keys: [ADMIN],
        apps: [
          {
            app_id: 'guild',
            settings: { rank_policy: 'olympic' },
            challenges: [
              {
                challenge_id: CHALLENGE_ID,
                name: 'Posts',
                start_date: '2030-01-01T00:00:00Z',
                tasks: [{ task_id: TASK_ID, name: 'Post', quantity: 1, operator: 0, points: 10, allowretry: true }],
              },
            ],
            users: LOGGERS.map((account_name) => ({ account_name })),
            seasons: [season(board)],
          },
        ],
      }),
    );
    assert.equal(await check('olympic'), MEMBERS);

    // A merge: members already on the board at other points and times (moving between blocks,
    // one of them twice), and new ones.
    const merged = [
      ...Array.from({ length: 400 }, (_, i) => entryOf(i * 5, 2)),
      entryOf(5, 4),
      ...Array.from({ length: 300 }, (_, i) => entryOf(MEMBERS + i)),
    ];
    ok(await call('POST', '/v1/admin/import', { apps: [{ app_id: 'guild', seasons: [season(merged)] }] }));
    assert.equal(await check('olympic'), MEMBERS + 300);

    // Logs: members on the board earn points in it, and members new to it join; some twice.
    for (const [i, account_name] of LOGGERS.entries()) {
      ok(await call('POST', '/v1/admin/log_task', { task_id: TASK_ID, account_name, quantity: 1 }));
      if (i % 7 === 0) ok(await call('POST', '/v1/admin/log_task', { task_id: TASK_ID, account_name, quantity: 1 }));
    }
    // Adjustments: logged as logs are, with a reason for the audit.
    for (let i = 0; i < 10; i++) {
      ok(
        await call('POST', '/v1/admin/adjust', {
          app_id: 'guild',
          task_id: TASK_ID,
          account_name: LOGGERS[i * 3],
          quantity: 1,
          reason: 'Missed by the backend',
        }),
      );
    }
    const afterLogs = await check('olympic');
    assert.equal(afterLogs, MEMBERS + 300 + 30);

    // A replace brings the app back as exported: the same board, its blocks built anew.
    const exported = ok(await call('GET', '/v1/admin/export?app_id=guild'));
    ok(await call('POST', '/v1/admin/import?mode=replace', exported));
    assert.equal(await check('olympic'), afterLogs);
    for (const rank_policy of ['dense', 'ordinal']) {
      ok(await call('POST', '/v1/admin/import', { apps: [{ app_id: 'guild', settings: { rank_policy } }] }));
      await check(rank_policy);
    }
  });
}

describe('a season board of several blocks, written on PGlite', () => {
  writesOn(() => source.pgliteDriver());
});

describe('a season board of several blocks, written on PostgreSQL', () => {
  /** @type {Awaited<ReturnType<typeof createDatabase>> | undefined} */
  let database;
  writesOn(async () => {
    if (!(await postgresAnswers())) return null;
    database = await createDatabase('questboard_season_blocks');
    return source.postgresDriver({ url: database.url });
  });
  after(() => database?.drop());
});

/**
 * Writes what a store of an older version kept: the admin key, each app with the season (and its
 * member count), and the season's points.
 * @param {import('../../../src/store/sql/sql.js').SqlSession} session
 * @param {Record<string, number>} apps the season's member count, by app
 * @param {Array<BoardEntry & { app_id: string }>} points
 */
async function writeSeasonRows(session, apps, points) {
  const run = (/** @type {string} */ text, /** @type {unknown[]} */ values) => session.query({ text, values });
  await run('INSERT INTO meta (key, value) VALUES ($1, $2)', [
    'admin_keys',
    JSON.stringify({ sha256: [source.sha256Hex(ADMIN)] }),
  ]);
  const season = {
    season_id: SEASON_ID,
    name: 'Spring',
    starts_at: Date.UTC(2030, 2, 1),
    ends_at: Date.UTC(2030, 5, 1),
    rewards: [],
    frozen_at: null,
  };
  for (const [app_id, member_count] of Object.entries(apps)) {
    const app = { app_id, name: app_id, endorsement_xp: 5, rank_policy: 'olympic', member_count: 0, treasury: null };
    await run('INSERT INTO apps (app_id, record) VALUES ($1, $2)', [
      app_id,
      JSON.stringify({ ...app, seasons: [{ ...season, member_count }] }),
    ]);
  }
  const rows = points.map(({ app_id, account_name, points, at }) => ({
    app_id,
    season_id: SEASON_ID,
    account_name,
    points,
    at: Date.parse(at),
  }));
  await run(
    `INSERT INTO season_points (app_id, season_id, account_name, points, at, record)
      SELECT app_id, season_id, account_name, points, at, record
      FROM json_to_recordset($1::text::json) AS r(app_id text, season_id text, account_name text, points float8, at float8, record text)`,
    [JSON.stringify(rows.map((row) => ({ ...row, record: JSON.stringify(row) })))],
  );
}

/**
 * Season points written at version 19 (before the blocks): 1,300 members of one season, tied in
 * runs, and a member of another app's season of the same id; the store opened on them builds the
 * blocks, and the board answers as its rows.
 * @param {() => import('../../../src/store/sql/sql.js').SqlDriver | Promise<import('../../../src/store/sql/sql.js').SqlDriver>} openDriver
 * @param {import('../../../src/store/sql/index.js').SqlStoreOptions} storeOptions
 */
async function upgrade(openDriver, storeOptions) {
  const members = 1300;
  const driver = await openDriver();
  await source.migrate(driver, 19);
  await driver.transaction('write', (session) =>
    writeSeasonRows(session, { guild: members, other: 1 }, [
      ...Array.from({ length: members }, (_, i) => ({ app_id: 'guild', ...entryOf(i) })),
      { app_id: 'other', account_name: 'zed', points: 99, at: new Date(1).toISOString() },
    ]),
  );
  await driver.close();

  const store = await source.openSqlStore(storeOptions);
  try {
    const call = callerOf(store);
    assert.equal(await checkBoard(call, 'olympic'), members);
  } finally {
    await store.close();
  }
  const reopened = await openDriver();
  try {
    assert.deepEqual(await checkCounts(reopened), { blocks: 3, sections: 1 });
  } finally {
    await reopened.close();
  }
}

describe('season points of version 19 get their blocks', () => {
  it('on PGlite in a directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'questboard-season-blocks-'));
    try {
      await upgrade(() => source.pgliteDriver(dataDir), { dataDir });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresAnswers())) return skipWithoutPostgres(t);
    const database = await createDatabase('questboard_season_blocks_upgrade');
    try {
      await upgrade(() => source.postgresDriver({ url: database.url }), { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  });
});

/**
 * Every block of the season counts the members from its start to the next block's, and every
 * section the blocks from its start to the next section's and their members; none is empty, nor
 * past its split (board-blocks.ts BLOCK_SPLIT, board-sections.ts SECTION_SPLIT).
 * @param {import('../../../src/store/sql/sql.js').SqlDriver} driver
 */
async function checkCounts(driver) {
  return driver.transaction('read', async (session) => {
    /** @type {(text: string) => Promise<any[]>} */
    const query = (text) => session.query({ text, values: [SEASON_ID] });
    const next = `WINDOW w AS (ORDER BY negated_points, start_at, start_name)`;
    const until = (/** @type {string} */ row, /** @type {string} */ of) =>
      `(${of}.next_points IS NULL OR ${row} < (${of}.next_points, ${of}.next_at, ${of}.next_name))`;
    const withNext = (/** @type {string} */ table) => `SELECT *, lead(negated_points) OVER w AS next_points,
        lead(start_at) OVER w AS next_at, lead(start_name) OVER w AS next_name
      FROM ${table} WHERE app_id = 'guild' AND season_id = $1 ${next}`;
    const wrongBlocks = await query(`
      SELECT b.negated_points, b.start_at, b.start_name, b.count, (SELECT count(*) FROM season_points AS p
        WHERE p.app_id = 'guild' AND p.season_id = $1
          AND (p.negated_points, p.at, p.account_name) >= (b.negated_points, b.start_at, b.start_name)
          AND ${until('(p.negated_points, p.at, p.account_name)', 'b')})::integer AS members
      FROM (${withNext('season_blocks')}) AS b`);
    const wrongSections = await query(`
      SELECT s.negated_points, s.start_at, s.start_name, s.count, s.blocks, counted.members::integer, counted.blocks::integer AS held
      FROM (${withNext('season_sections')}) AS s, LATERAL (
        SELECT coalesce(sum(b.count), 0) AS members, count(*) AS blocks FROM season_blocks AS b
        WHERE b.app_id = 'guild' AND b.season_id = $1
          AND (b.negated_points, b.start_at, b.start_name) >= (s.negated_points, s.start_at, s.start_name)
          AND ${until('(b.negated_points, b.start_at, b.start_name)', 's')}) AS counted`);
    const [{ members, before }] =
      await query(`SELECT (SELECT count(*) FROM season_points WHERE app_id = 'guild' AND season_id = $1)::integer AS members,
      (SELECT count(*) FROM season_blocks AS b, (SELECT * FROM season_sections WHERE app_id = 'guild' AND season_id = $1
          ORDER BY negated_points, start_at, start_name LIMIT 1) AS s
        WHERE b.app_id = 'guild' AND b.season_id = $1
          AND (b.negated_points, b.start_at, b.start_name) < (s.negated_points, s.start_at, s.start_name))::integer AS before`);
    assert.deepEqual(
      wrongBlocks.filter((block) => block.count !== block.members || block.count <= 0),
      [],
      'each block counts its members',
    );
    assert.deepEqual(
      wrongSections.filter(
        (section) => section.count !== section.members || section.blocks !== section.held || section.count <= 0,
      ),
      [],
      'each section counts its blocks and their members',
    );
    assert.equal(before, 0, 'no block before the first section');
    assert.deepEqual(
      wrongBlocks.filter((block) => block.count > 1000),
      [],
      'no block past BLOCK_SPLIT',
    );
    assert.deepEqual(
      wrongSections.filter((section) => section.blocks > 128),
      [],
      'no section past SECTION_SPLIT',
    );
    assert.equal(
      wrongSections.reduce((sum, section) => sum + section.count, 0),
      members,
    );
    return { blocks: wrongBlocks.length, sections: wrongSections.length };
  });
}

/**
 * A season's counts as a write leaves them just short of a cut: 1,400 members in blocks of 10,
 * the first 128 of them in the season's first section (SECTION_SPLIT, the most it keeps). A merge of
 * 1,000 members into one block cuts that block in three, and the section past its split; members
 * moved out of a block empty it. Each time every count is exact and the board answers as its rows.
 * @param {import('../../../src/store/sql/sql.js').SqlDriver} driver
 */
async function cutSections(driver) {
  const members = 1400;
  await source.migrate(driver);
  const entries = Array.from({ length: members }, (_, i) => entryOf(i));
  const sorted = inBoardOrder(entries);
  const start = (/** @type {number} */ index) =>
    index === 0
      ? [-Number.MAX_VALUE, -Number.MAX_VALUE, '']
      : [-sorted[index].points, Date.parse(sorted[index].at), sorted[index].account_name];
  const blocks = Array.from({ length: members / 10 }, (_, block) => [...start(block * 10), 10]);
  const sections = [
    [...start(0), 1280, 128],
    [...start(1280), members - 1280, members / 10 - 128],
  ];
  await driver.transaction('write', async (session) => {
    await writeSeasonRows(
      session,
      { guild: members },
      entries.map((entry) => ({ app_id: 'guild', ...entry })),
    );
    const run = (/** @type {string} */ text, /** @type {unknown[]} */ values) => session.query({ text, values });
    const startKey = `app_id, season_id, negated_points, start_at, start_name`;
    for (const block of blocks) {
      await run(`INSERT INTO season_blocks (${startKey}, count) VALUES ($1, $2, $3, $4, $5, $6)`, ['guild', SEASON_ID, ...block]);
    }
    for (const section of sections) {
      await run(`INSERT INTO season_sections (${startKey}, count, blocks) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        'guild',
        SEASON_ID,
        ...section,
      ]);
    }
  });
  assert.deepEqual(await checkCounts(driver), { blocks: 140, sections: 2 });

  const store = await source.openSqlStore({ driver });
  try {
    const call = callerOf(store);
    assert.equal(await checkBoard(call, 'olympic'), members);
    // 1,000 members after every member at 30 points and the earliest time, before the next: one
    // block's, in the first section.
    const joining = Array.from({ length: 1000 }, (_, i) => ({
      account_name: `n${String(i).padStart(4, '0')}`,
      points: 30,
      at: new Date(Date.UTC(2030, 2, 2)).toISOString(),
    }));
    // 990 of them in an import's bulk (the block then holds 1,000: BLOCK_SPLIT, not past it), the
    // last ten as a request's few moves (their statements find the block due to be cut, and the
    // write runs again to cut it).
    ok(await call('POST', '/v1/admin/import', { apps: [{ app_id: 'guild', seasons: [season(joining.slice(0, 990))] }] }));
    assert.deepEqual(await checkCounts(driver), { blocks: 140, sections: 2 }, 'no block past its split yet');
    ok(await call('POST', '/v1/admin/import', { apps: [{ app_id: 'guild', seasons: [season(joining.slice(990))] }] }));
    const afterCut = await checkCounts(driver);
    assert.equal(afterCut.blocks, 142, 'the block was cut in three');
    assert.equal(afterCut.sections, 4, 'the first section, past its split, was cut in three');
    assert.equal(await checkBoard(call, 'olympic'), members + 1000);
    // The ten members of one block (the 30th, in the first section) move to the top: it empties.
    const moved = sorted.slice(300, 310).map(({ account_name, at }) => ({ account_name, points: 90, at }));
    ok(await call('POST', '/v1/admin/import', { apps: [{ app_id: 'guild', seasons: [season(moved)] }] }));
    assert.equal((await checkCounts(driver)).blocks, 141, 'the emptied block is gone');
    assert.equal(await checkBoard(call, 'olympic'), members + 1000);
  } finally {
    await store.close();
  }
}

describe('season sections cut past their split, and blocks emptied', () => {
  it('on PGlite', async () => {
    await cutSections(await source.pgliteDriver());
  });

  it('on PostgreSQL', async (t) => {
    if (!(await postgresAnswers())) return skipWithoutPostgres(t);
    const database = await createDatabase('questboard_season_sections');
    try {
      await cutSections(source.postgresDriver({ url: database.url }));
    } finally {
      await database.drop();
    }
  });
});
