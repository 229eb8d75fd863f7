// A request's few moves on the boards go as statements that find their blocks
// and sections themselves (src/store/sql/board-moves.ts). Where they would grow
// a block or a section past its split, the write fails with SPLIT_DUE and runs
// again reading the boards first, which cuts it (board-blocks.ts,
// board-sections.ts): the boards stay cut as an import leaves them.
import assert from 'node:assert/strict';
import { afterEach, before, beforeEach, it } from 'node:test';
import { importSource } from '../../source-module.js';
import { recordingStore } from './recording-store.js';
import { userRecord } from './user-record.js';

const APP = 'moves';
/** @type {import('../../../src/store/index.js').BoardRef} */
const SCORE = { app_id: APP, type: 'score', period: null };
/** @type {typeof import('../../../src/store/sql/index.js')} */
let source;
/** @type {import('../../../src/store/sql/index.js').SqlStore} */
let store;
/** @type {string[]} */
let sent;
/** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
let driver;

before(async () => {
  source = await importSource('src/store/sql/index.ts');
});
beforeEach(async () => {
  ({ store, sent, driver } = await recordingStore(source));
});
afterEach(() => store?.close());

/** @param {number} i */
const nameOf = (i) => `m${String(i).padStart(4, '0')}`;
/**
 * @param {number} i
 * @param {number} total_score
 */
const member = (i, total_score) => userRecord({ app_id: APP, account_name: nameOf(i), total_score, score_at: i });

/**
 * Members `from`..`to` (excluded) joining in one write, at the score each is given.
 * @param {number} from
 * @param {number} to
 * @param {(i: number) => number} scoreOf
 */
async function join(from, to, scoreOf) {
  await store.write(async (tx) => {
    for (let i = from; i < to; i++) tx.put('users', member(i, scoreOf(i)));
  });
}

/**
 * The counts (and blocks) of a board's rows in `table`, in board order.
 * @param {'board_blocks' | 'board_sections'} table
 * @param {string} board
 */
async function countsOf(table, board) {
  const blocks = table === 'board_sections' ? ', blocks' : '';
  return driver.transaction('read', (session) =>
    session.query({
      text: `SELECT count${blocks} FROM ${table} WHERE app_id = $1 AND board = $2
        ORDER BY ${table === 'board_sections' ? 'negated_value' : '0 - value'}, start_at, start_name`,
      values: [APP, board],
    }),
  );
}

it('cuts a block that a move grows past its split, running the write again to read the boards first', async () => {
  // One write of 1,000 members at 0 points (read first, as an import's): one block of the
  // score board and one of all names, each at their split.
  await join(0, 1000, () => 0);
  assert.deepEqual(await countsOf('board_blocks', 'score'), [{ count: 1000 }]);
  sent.length = 0;
  await join(1000, 1001, () => 0);
  const [statements, readFirst] = [sent.indexOf('WITH board_blocks'), sent.indexOf('SELECT board_blocks')];
  assert.ok(statements >= 0 && readFirst > statements, `moved by statements, then read first: ${JSON.stringify(sent)}`);
  for (const board of ['score', 'names']) {
    assert.deepEqual(await countsOf('board_blocks', board), [{ count: 500 }, { count: 500 }, { count: 1 }], board);
  }
  await store.read(async (tx) => {
    assert.equal(await tx.countOnBoard(SCORE), 1001);
    const page = await tx.boardPage(SCORE, 998, 5);
    assert.deepEqual(
      page.map((listed) => listed.row.account_name),
      [nameOf(998), nameOf(999), nameOf(1000)],
    );
  });
});

it('cuts a section that a move grows past its split, running the write again to read the boards first', async () => {
  // 128 members at 128 scores: 128 blocks, the most one section holds.
  await join(0, 128, (i) => i + 1);
  assert.deepEqual(await countsOf('board_sections', 'score'), [{ count: 128, blocks: 128 }]);
  sent.length = 0;
  await join(128, 129, () => 1000);
  assert.ok(sent.indexOf('SELECT board_sections') > sent.indexOf('WITH board_sections'), JSON.stringify(sent));
  assert.deepEqual(await countsOf('board_sections', 'score'), [
    { count: 64, blocks: 64 },
    { count: 64, blocks: 64 },
    { count: 1, blocks: 1 },
  ]);
  await store.read(async (tx) => {
    const page = await tx.boardPage(SCORE, 0, 3);
    assert.deepEqual(
      page.map((listed) => listed.row.account_name),
      [nameOf(128), nameOf(127), nameOf(126)],
    );
  });
});

it('moves members by statements alone where no block or section passes its split', async () => {
  await join(0, 10, () => 0);
  sent.length = 0;
  await store.write(async (tx) => {
    // Joined above.
    const moved = /** @type {import('../../../src/store/index.js').UserRecord} */ (await tx.get('users', [APP, nameOf(3)]));
    tx.put('users', { ...moved, total_score: 7, score_at: 50 });
  });
  assert.deepEqual(sent, ['SELECT users', 'WITH board_sections', 'WITH board_blocks', 'INSERT users', 'COMMIT']);
  assert.deepEqual(await countsOf('board_blocks', 'score'), [{ count: 1 }, { count: 9 }]);
  assert.deepEqual(await countsOf('board_sections', 'score'), [{ count: 10, blocks: 2 }]);
});
