// The SQL store's counts by period of the name list (src/store/sql/name-periods.ts):
// members of a few blocks of names move at random between weeks and months in
// batches (one transaction each), new members join and cut blocks. After each
// batch every block and section of all names counts exactly its members of each
// week and month, as counted here from the members and blocks, and a page of a
// period board's unranked tail at any skip lists the members without points in
// the period, by name, and each member of it is counted where the tail lists them.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { importSource } from '../../source-module.js';
import { userRecord } from './user-record.js';

const APP = 'periods';
const WEEKS = ['2026-11-02', '2026-11-09', '2026-11-16'];
const MONTHS = ['2026-10', '2026-11'];
/** @typedef {import('../../../src/store/index.js').BoardRef} BoardRef */
/** A row of SQL written here: the columns it names. */
/** @typedef {Record<string, any>} Row */
/** A place on a board: negated value, time reached, name. */
/** @typedef {[number, number, string]} Place */

/** @type {BoardRef} */
const WEEKLY = { app_id: APP, type: 'weekly', period: WEEKS[2] };
/** @type {BoardRef} */
const MONTHLY = { app_id: APP, type: 'monthly', period: MONTHS[1] };
/**
 * @type {typeof import('../../../src/store/sql/pglite-driver.js') & typeof import('../../../src/store/sql/index.js') &
 *   typeof import('../../../src/store/sql/board-order.js')}
 */
let source;
/** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
let driver;
/** @type {import('../../../src/store/sql/index.js').SqlStore} */
let store;
let statements = 0;

before(async () => {
  source = await importSource('src/store/sql/pglite-driver.ts', 'src/store/sql/index.ts', 'src/store/sql/board-order.ts');
  driver = await source.pgliteDriver();
  // Counting the statements the store sends, to tell a tail read ahead from one read when asked for.
  /** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
  const counting = {
    ...driver,
    transaction: (mode, work, durability) =>
      driver.transaction(mode, (session) => work({ query: (query) => ((statements += 1), session.query(query)) }), durability),
  };
  store = await source.openSqlStore({ driver: counting });
});
after(() => store?.close());

// Spread over the name list, so that members join every block as the list grows.
/** @param {number} i */
const nameOf = (i) => `m${String((i * 7919) % 10007).padStart(5, '0')}`;

/**
 * The model: each member's latest week and month ('' for none).
 * @type {Map<string, { week: string, month: string }>}
 */
const periods = new Map();

/**
 * Gives each member `[i, week, month]` (indexes into WEEKS and MONTHS, -1 for none), one transaction.
 * @param {Array<[number, number, number]>} changes
 */
async function setPeriods(changes) {
  await store.write(async (tx) => {
    await tx.getMany(
      'users',
      changes.map(([i]) => [APP, nameOf(i)]),
    );
    for (const [i, weekIndex, monthIndex] of changes) {
      const name = nameOf(i);
      const [week, month] = [WEEKS[weekIndex] ?? '', MONTHS[monthIndex] ?? ''];
      const record =
        (await tx.get('users', [APP, name])) ?? userRecord({ app_id: APP, account_name: name, total_score: 0, score_at: 0 });
      tx.put('users', { ...record, week, week_score: week ? 5 : 0, month, month_score: month ? 5 : 0 });
      periods.set(name, { week, month });
    }
  });
}

/**
 * @param {string} text
 * @returns {Promise<Row[]>}
 */
const query = (text) => driver.transaction('read', (session) => session.query({ text, values: [] }));
/**
 * @param {Row} row
 * @returns {Place}
 */
const place = (row) => [row.negated_value, row.start_at, row.start_name];
/**
 * @param {Place} a
 * @param {Place} b
 */
function comparePlaces(a, b) {
  for (let i = 0; i < 2; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return source.compareNames(a[2], b[2]);
}

/** name_periods against the counts of the members in each block and section of all names, counted here. */
async function assertCountsAgree() {
  const blocks = await query(`SELECT negated_value, start_at, start_name FROM board_blocks
    WHERE app_id = '${APP}' AND board = 'names' ORDER BY negated_value, start_at, start_name`);
  const sections = await query(`SELECT negated_value, start_at, start_name FROM board_sections
    WHERE app_id = '${APP}' AND board = 'names' ORDER BY negated_value, start_at, start_name`);
  /** @type {Map<string, number>} */
  const expected = new Map();
  /**
   * @param {string} level
   * @param {Row} start
   * @param {string} board
   * @param {string} period
   */
  const add = (level, start, board, period) => {
    if (period === '') return;
    const key = JSON.stringify([level, ...place(start), board, period]);
    expected.set(key, (expected.get(key) ?? 0) + 1);
  };
  /**
   * @param {Row[]} starts
   * @param {Place} at
   */
  const last = (starts, at) => starts.filter((start) => comparePlaces(place(start), at) <= 0).at(-1);
  for (const [name, { week, month }] of periods) {
    const block = last(blocks, [0, 0, name]) ?? blocks[0];
    const section = last(sections, place(block));
    for (const [level, start] of /** @type {Array<[string, Row]>} */ ([
      ['block', block],
      ['section', section],
    ])) {
      add(level, start, 'weekly', week);
      add(level, start, 'monthly', month);
    }
  }
  const kept = await query(`SELECT level, negated_value, start_at, start_name, board, period, count
    FROM name_periods WHERE app_id = '${APP}'`);
  assert.deepEqual(
    new Map(kept.map((row) => [JSON.stringify([row.level, ...place(row), row.board, row.period]), row.count])),
    expected,
  );
}

/** Pages of each period board's unranked tail against the members without points in its period. */
async function assertTailsAgree() {
  for (const [board, field] of /** @type {[BoardRef, 'week' | 'month'][]} */ ([
    [WEEKLY, 'week'],
    [MONTHLY, 'month'],
  ])) {
    const tail = [...periods]
      .filter(([, member]) => member[field] !== board.period)
      .map(([name]) => name)
      .sort(source.compareNames);
    const ranked = periods.size - tail.length;
    await store.read(async (tx) => {
      for (const skip of [0, 1, 499, 500, 777, tail.length - 3, tail.length]) {
        const page = await tx.unrankedPage(board, skip, 20);
        assert.deepEqual(
          page.map((listed) => listed.row.account_name),
          tail.slice(skip, skip + 20),
          `the ${board.type} tail from ${skip}`,
        );
      }
      // Where a member of the tail stands in it (a page around them): counted, not walked.
      for (const index of [0, 1, 499, 500, 777, tail.length - 1]) {
        assert.equal(await tx.countUnrankedBefore(board, tail[index]), index, `${tail[index]} in the ${board.type} tail`);
      }
    });
    // A page across the ranked members' end reads its tail ahead: asked for as readLeaderboard asks, or otherwise.
    await store.read(async (tx) => {
      assert.equal((await tx.boardPage(board, ranked - 5, 20)).length, 5);
      const sent = statements;
      const rest = await tx.unrankedPage(board, 0, 15);
      assert.equal(statements, sent, 'read ahead with the page');
      assert.deepEqual(
        rest.map((listed) => listed.row.account_name),
        tail.slice(0, 15),
        `the ${board.type} tail after the page`,
      );
      const other = await tx.unrankedPage(board, 3, 10);
      assert.deepEqual(
        other.map((listed) => listed.row.account_name),
        tail.slice(3, 13),
        `the ${board.type} tail from 3`,
      );
    });
  }
}

/** @param {number} members */
const someBatch = (members) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: members - 1 }), fc.integer({ min: -1, max: 2 }), fc.integer({ min: -1, max: 1 })), {
    minLength: 1,
    maxLength: 150,
  });

it('counts the members of each period in every block and section of all names', async () => {
  // Joined in three writes: the later ones cut the blocks the first laid out.
  for (const [from, to] of [
    [0, 900],
    [900, 1800],
    [1800, 2400],
  ]) {
    await setPeriods(Array.from({ length: to - from }, (_, k) => [from + k, ((from + k) % 4) - 1, ((from + k) % 3) - 1]));
  }
  const [{ blocks }] = await query(
    `SELECT count(*)::integer AS blocks FROM board_blocks WHERE app_id = '${APP}' AND board = 'names'`,
  );
  assert.ok(blocks >= 3, `the names are in ${blocks} blocks`);
  await assertCountsAgree();
  await assertTailsAgree();

  await fc.assert(
    fc.asyncProperty(someBatch(2400), async (changes) => {
      await setPeriods([...new Map(changes.map((change) => [change[0], change])).values()]);
      await assertCountsAgree();
    }),
    { numRuns: 25, seed: 20261127 },
  );
  await assertTailsAgree();
});

it('lays the counts out on upgrade (version 6), and counts sections of all names cut again from their blocks', async () => {
  // The names in blocks of 18 members, all in one section of more blocks than a section may hold,
  // and their counts by period laid out as the upgrade to version 6 lays them out.
  const upgrade = /** @type {(typeof source.MIGRATIONS)[number]} */ (
    source.MIGRATIONS.find((migration) => migration.version === 6)
  );
  await driver.transaction('write', async (session) => {
    /** @param {string} text */
    const run = (text) => session.query({ text, values: [] });
    await run(`DELETE FROM board_blocks WHERE app_id = '${APP}' AND board = 'names'`);
    await run(`INSERT INTO board_blocks (app_id, board, period, value, start_at, start_name, count)
      SELECT '${APP}', 'names', '', 0, CASE WHEN i = 0 THEN ${-Number.MAX_VALUE} ELSE 0 END,
        CASE WHEN i = 0 THEN '' ELSE account_name END, least(18, total - i)
      FROM (SELECT account_name, row_number() OVER (ORDER BY account_name) - 1 AS i, count(*) OVER () AS total
        FROM users WHERE app_id = '${APP}') AS named
      WHERE i % 18 = 0`);
    await run(`DELETE FROM board_sections WHERE app_id = '${APP}' AND board = 'names'`);
    await run(`INSERT INTO board_sections (app_id, board, period, negated_value, start_at, start_name, count, blocks)
      SELECT '${APP}', 'names', '', ${-Number.MAX_VALUE}, ${-Number.MAX_VALUE}, '', sum(count), count(*)
      FROM board_blocks WHERE app_id = '${APP}' AND board = 'names'`);
    await run(`DELETE FROM name_periods WHERE app_id = '${APP}'`);
    for (const statement of upgrade.statements.filter((text) => text.includes('INSERT INTO name_periods'))) await run(statement);
  });
  const [{ blocks }] = await query(`SELECT blocks FROM board_sections WHERE app_id = '${APP}' AND board = 'names'`);
  assert.ok(blocks > 128, `one section of ${blocks} blocks`);
  await assertCountsAgree();
  await assertTailsAgree();
  // A member joins: the section is cut, and each section of the cut is counted.
  await setPeriods([[2400, 2, 1]]);
  const [{ sections }] = await query(
    `SELECT count(*)::integer AS sections FROM board_sections WHERE app_id = '${APP}' AND board = 'names'`,
  );
  assert.ok(sections >= 3, `the names are in ${sections} sections`);
  await assertCountsAgree();
  await assertTailsAgree();
});
