// The SQL store's second level of counts (src/store/sql/board-sections.ts): a
// few hundred members with values spread wide enough that a board holds more
// blocks than one section may, moved at random between values in batches (one
// transaction each). After each batch every section counts exactly the members
// and blocks it holds, and ranks, counts and pages agree with the members
// sorted in board order.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { importSource } from '../../source-module.js';
import { userRecord } from './user-record.js';

const APP = 'sections';
const MEMBERS = 300;
/** @type {import('../../../src/store/index.js').BoardRef} */
const SCORE = { app_id: APP, type: 'score', period: null };
/**
 * @type {typeof import('../../../src/store/sql/pglite-driver.js') & typeof import('../../../src/store/sql/index.js') &
 *   typeof import('../../../src/store/sql/board-order.js') & typeof import('../../../src/store/sql/migrations.js')}
 */
let source;
/** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
let driver;
/** @type {import('../../../src/store/sql/index.js').SqlStore} */
let store;

before(async () => {
  source = await importSource(
    'src/store/sql/pglite-driver.ts',
    'src/store/sql/index.ts',
    'src/store/sql/board-order.ts',
    'src/store/sql/migrations.ts',
  );
  driver = await source.pgliteDriver();
  store = await source.openSqlStore({ driver });
});
after(() => store?.close());

/** @param {number} i */
const nameOf = (i) => `m${String(i).padStart(3, '0')}`;
/**
 * @param {number} i
 * @param {number} total_score
 * @param {number} score_at
 */
const member = (i, total_score, score_at) => userRecord({ app_id: APP, account_name: nameOf(i), total_score, score_at });

/**
 * The model: every member's score and when they reached it.
 * @type {Map<string, { score: number, at: number }>}
 */
const scores = new Map();
let clock = 1;

/** @param {Array<[number, number]>} changes member index and score */
async function setScores(changes) {
  await store.write(async (tx) => {
    await tx.getMany(
      'users',
      changes.map(([i]) => [APP, nameOf(i)]),
    );
    for (const [i, score] of changes) {
      const at = clock++;
      const record = (await tx.get('users', [APP, nameOf(i)])) ?? member(i, score, at);
      tx.put('users', { ...record, total_score: score, score_at: at });
      scores.set(nameOf(i), { score, at });
    }
  });
}

/** The members in board order, as the model has them. */
function boardOrder() {
  return [...scores]
    .map(([name, { score, at }]) => ({ name, score, at }))
    .sort((a, b) => b.score - a.score || a.at - b.at || source.compareNames(a.name, b.name));
}

/** Every board's sections against the blocks they hold, read in the database. */
async function sectionMismatches() {
  return driver.transaction('read', (session) =>
    session.query({
      text: `WITH held AS (
          SELECT b.app_id, b.board, b.period, b.count, (
            SELECT (s.negated_value, s.start_at, s.start_name)::text FROM board_sections AS s
            WHERE s.app_id = b.app_id AND s.board = b.board AND s.period = b.period
              AND (s.negated_value, s.start_at, s.start_name) <= (b.negated_value, b.start_at, b.start_name)
            ORDER BY s.negated_value DESC, s.start_at DESC, s.start_name DESC LIMIT 1) AS section
          FROM board_blocks AS b),
        summed AS (
          SELECT app_id, board, period, section, sum(count)::integer AS count, count(*)::integer AS blocks
          FROM held GROUP BY app_id, board, period, section)
        SELECT coalesce(s.board, m.board) AS board, s.count AS kept, m.count AS held, s.blocks AS kept_blocks, m.blocks AS held_blocks
        FROM (SELECT app_id, board, period, (negated_value, start_at, start_name)::text AS section, count, blocks
              FROM board_sections) AS s
        FULL JOIN summed AS m USING (app_id, board, period, section)
        WHERE s.count IS DISTINCT FROM m.count OR s.blocks IS DISTINCT FROM m.blocks OR s.blocks > 128`,
      values: [],
    }),
  );
}

async function sectionCount() {
  const [row] = await driver.transaction('read', (session) =>
    session.query({
      text: `SELECT count(*)::integer AS n FROM board_sections WHERE app_id = $1 AND board = 'score'`,
      values: [APP],
    }),
  );
  // count(*)::integer
  return /** @type {number} */ (row.n);
}

async function assertBoardAgrees() {
  assert.deepEqual(await sectionMismatches(), []);
  const order = boardOrder();
  await store.read(async (tx) => {
    assert.equal(await tx.countOnBoard(SCORE), order.length);
    for (const offset of [0, 1, 63, 64, 150, order.length - 7]) {
      const page = await tx.boardPage(SCORE, offset, 10);
      assert.deepEqual(
        page.map((listed) => listed.row.account_name),
        order.slice(offset, offset + 10).map((entry) => entry.name),
        `the page at ${offset}`,
      );
      // Counted by the page's own statement: the first member's rank.
      const first = page[0].value;
      assert.equal(
        await tx.countHigher(SCORE, first),
        order.filter((entry) => entry.score > first).length,
        `members above the first of the page at ${offset}`,
      );
    }
    for (const index of [0, 37, 101, 199, order.length - 1]) {
      const { name, score, at } = order[index];
      const user = member(Number(name.slice(1)), score, at);
      // Five around the member, two before them where the board allows.
      const offset = Math.max(0, Math.min(index - 2, order.length - 5));
      const around = await tx.pageAround(SCORE, user, { lead: 2, limit: 5, lastStart: order.length - 5 });
      assert.equal(around.offset, offset, `the page around ${name}`);
      assert.deepEqual(
        around.members.map((listed) => listed.row.account_name),
        order.slice(offset, offset + 5).map((entry) => entry.name),
        `the page around ${name}`,
      );
      const first = around.members[0].value;
      assert.equal(
        await tx.countHigher(SCORE, first),
        order.filter((entry) => entry.score > first).length,
        `members above the first of the page around ${name}`,
      );
    }
  });
}

it('counts every section right as members move between values', async () => {
  // Distinct values for most: a block each, more blocks than one section holds.
  await setScores(Array.from({ length: MEMBERS }, (_, i) => [i, i % 250]));
  assert.ok((await sectionCount()) >= 2, 'the board is cut into several sections');
  await assertBoardAgrees();

  const batch = fc.record({
    // A narrow range empties blocks and sections; a wide one opens them.
    range: fc.constantFrom(1, 4, 40, 1000),
    changes: fc.array(fc.tuple(fc.integer({ min: 0, max: MEMBERS - 1 }), fc.nat()), { minLength: 1, maxLength: 120 }),
  });
  await fc.assert(
    fc.asyncProperty(batch, async ({ range, changes }) => {
      const unique = new Map(changes.map(([i, value]) => [i, value % range]));
      await setScores([...unique]);
      await assertBoardAgrees();
    }),
    { numRuns: 25, seed: 20261123 },
  );
});

it('lays the sections of blocks already there out on upgrade (version 5)', async () => {
  // As a database of version 4 had them: blocks, no sections.
  await setScores(Array.from({ length: MEMBERS }, (_, i) => [i, (i * 7) % 200]));
  const sections = /** @type {(typeof source.MIGRATIONS)[number]} */ (
    source.MIGRATIONS.find((migration) => migration.version === 5)
  );
  const layOut = /** @type {string} */ (
    sections.statements.find((statement) => statement.includes('INSERT INTO board_sections'))
  );
  await driver.transaction('write', async (session) => {
    await session.query({ text: 'DELETE FROM board_sections', values: [] });
    await session.query({ text: layOut, values: [] });
  });
  assert.ok((await sectionCount()) >= 3, 'the board is cut into several sections');
  await assertBoardAgrees();
  // And the writes after the upgrade keep them.
  await setScores(Array.from({ length: 90 }, (_, i) => [i * 3, 1000 + (i % 9)]));
  await assertBoardAgrees();
});
