// The SQL store's boards past one block (src/store/sql/board-blocks.ts): 2,600
// members, most of one value, cut into blocks as they join and moved between
// blocks as they gain XP or points this week. Every page at every offset lists
// each member once, in board order (the weekly board's unranked tail by name),
// and `around` finds each member where the pages put them.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { callHandler } from '../../handler-call.js';
import { importSource } from '../../source-module.js';

const MEMBERS = 2600;
const ADMIN = 'sk_blocks_admin_key';
const TASK = '31111111-1111-4111-8111-111111111111';
const CHALLENGE = '32222222-2222-4222-8222-222222222222';
/** @type {(method: string, path: string, body?: unknown) => ReturnType<typeof callHandler>} */
let call;
/** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
let driver;

before(async () => {
  const source = await importSource('src/handler/handler.ts', 'src/store/sql/index.ts');
  driver = await source.pgliteDriver();
  const store = await source.openSqlStore({ driver });
  let now = Date.UTC(2026, 10, 18, 12);
  const handle = source.createHandler({ store, now: () => new Date(now) });
  call = (method, path, body) => {
    now += 1000;
    return callHandler(handle, method, path, ADMIN, body);
  };
  const names = Array.from({ length: MEMBERS }, (_, i) => `m${String((i * 7919) % MEMBERS).padStart(4, '0')}`);
  // In two imports, so the second's members join blocks the first laid out.
  for (const part of [names.slice(0, 1500), names.slice(1500)]) {
    const imported = await call('POST', '/v1/admin/import?mode=merge', {
      admin_keys: [ADMIN],
      apps: [
        {
          app_id: 'blocks',
          users: part.map((account_name) => ({ account_name })),
          challenges: [
            {
              challenge_id: CHALLENGE,
              name: 'Check in',
              start_date: '2026-01-01T00:00:00Z',
              tasks: [{ task_id: TASK, name: 'Daily check-in', quantity: 1, operator: 0, points: 5, allowretry: true }],
            },
          ],
        },
      ],
    });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
  }
  // Some gain XP, one at a time: they leave the crowd at 0 for blocks of their own value.
  for (let i = 0; i < 60; i++) {
    const to_account = names[(i * 37) % MEMBERS];
    const endorsed = await call('POST', '/v1/endorse_account', {
      app_id: 'blocks',
      from_account: names[(i * 37 + 1) % MEMBERS],
      to_account,
      endorsement_id: `e${i}`,
    });
    assert.equal(endorsed.status, 200, JSON.stringify(endorsed.body));
  }
  // Some score this week: ranked on the weekly board, out of its unranked tail.
  for (let i = 0; i < 1200; i += 9) {
    const logged = await call('POST', '/v1/admin/log_task', { task_id: TASK, account_name: names[i], quantity: 1 });
    assert.equal(logged.status, 200, JSON.stringify(logged.body));
  }
});

/**
 * @param {number} pageSize
 * @param {string} [type]
 */
async function wholeBoard(pageSize, type = 'xp') {
  /** @type {Array<{ name: string, rank: number, xp: number, score: number }>} */
  const members = [];
  for (let offset = 0; offset < MEMBERS; offset += pageSize) {
    const page = await call(
      'GET',
      `/v1/get_leaderboard?app_id=blocks&leaderboard_type=${type}&limit=${pageSize}&offset=${offset}`,
    );
    assert.equal(page.status, 200);
    members.push(
      .../** @type {import('../../../src/api/responses.js').Leaderboard} */ (page.body).leaderboard_users.map((entry) => ({
        name: entry.external_user.username,
        rank: entry.rank,
        xp: entry.total_xp,
        score: entry.score,
      })),
    );
  }
  return members;
}

/**
 * The window of three `around` each member at `indexes` is the one the pages put them in.
 * @param {string} type
 * @param {Awaited<ReturnType<typeof wholeBoard>>} board
 * @param {number[]} indexes
 */
async function assertAround(type, board, indexes) {
  for (const index of indexes) {
    const { name } = board[index];
    const around = await call('GET', `/v1/get_leaderboard?app_id=blocks&leaderboard_type=${type}&limit=3&around=${name}`);
    const names = /** @type {import('../../../src/api/responses.js').Leaderboard} */ (around.body).leaderboard_users.map(
      (entry) => entry.external_user.username,
    );
    const start = Math.max(0, Math.min(index - 1, MEMBERS - 3));
    assert.deepEqual(
      names,
      board.slice(start, start + 3).map((member) => member.name),
      `around ${name} (#${index})`,
    );
  }
}

it('lists every member once, in board order, whatever the page size', async () => {
  const by100 = await wholeBoard(100);
  assert.equal(by100.length, MEMBERS);
  assert.equal(new Set(by100.map((member) => member.name)).size, MEMBERS);
  for (let i = 1; i < by100.length; i++) assert.ok(by100[i - 1].xp >= by100[i].xp, `xp rises at ${i}`);
  // Olympic ranks: one more than the members above. A page's first rank is counted, deep in a value's blocks too.
  for (const [i, member] of by100.entries()) {
    const above = by100.findIndex((other) => other.xp === member.xp);
    assert.equal(member.rank, above + 1, `the rank of ${member.name} (#${i})`);
  }
  assert.deepEqual(await wholeBoard(37), by100);
});

it('finds each member where the pages put them (around)', async () => {
  const board = await wholeBoard(100);
  await assertAround('xp', board, [0, 1, 59, 60, 61, 499, 500, 501, 1000, 1501, 2000, 2599]);
});

it('lists the unranked tail of the weekly board by name, each member once, and finds each member in it', async () => {
  const board = await wholeBoard(100, 'weekly');
  assert.equal(board.length, MEMBERS);
  assert.equal(new Set(board.map((member) => member.name)).size, MEMBERS);
  const ranked = board.filter((member) => member.score > 0);
  assert.equal(ranked.length, Math.ceil(1200 / 9));
  const tail = board.slice(ranked.length).map((member) => member.name);
  assert.deepEqual(
    tail,
    [...tail].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    'the tail is in code point order, as the store lists names',
  );
  assert.deepEqual(await wholeBoard(37, 'weekly'), board);
  await assertAround('weekly', board, [ranked.length, ranked.length + 1, 700, 1301, 2000, 2599]);
});

it('lists the tail past stretches of names all ranked this week, with no name left out or repeated', async () => {
  // Every name from m1000 to m1999 scores this week: blocks of the name list hold no one of the tail,
  // and a page of the tail on either side of them steps over them.
  const stretch = Array.from({ length: 1000 }, (_, i) => `m${1000 + i}`);
  const imported = await call('POST', '/v1/admin/import?mode=merge', {
    apps: [
      {
        app_id: 'blocks',
        progress: stretch.map((account_name) => ({ task_id: TASK, account_name, quantity: 1, at: '2026-11-18T00:00:00Z' })),
      },
    ],
  });
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  const board = await wholeBoard(37, 'weekly');
  assert.equal(new Set(board.map((member) => member.name)).size, MEMBERS);
  const tail = board.filter((member) => member.score === 0).map((member) => member.name);
  const ranked = new Set(board.filter((member) => member.score > 0).map((member) => member.name));
  for (const name of stretch) assert.ok(ranked.has(name), `${name} is ranked`);
  const everyName = Array.from({ length: MEMBERS }, (_, i) => `m${String(i).padStart(4, '0')}`);
  assert.deepEqual(
    tail,
    everyName.filter((name) => !ranked.has(name)),
    'the tail is every name without points this week, by name',
  );
  assert.deepEqual(await wholeBoard(100, 'weekly'), board);
});

it('reads the same whatever the sections: with every block a section of its own', async () => {
  const boards = { xp: await wholeBoard(37), weekly: await wholeBoard(37, 'weekly') };
  /**
   * Rows of SQL written here, any columns it names.
   * @param {string} text
   * @returns {Promise<Record<string, any>[]>}
   */
  const run = (text) => driver.transaction('write', (session) => session.query({ text, values: [] }));
  await run(`DELETE FROM board_sections WHERE app_id = 'blocks'`);
  await run(`INSERT INTO board_sections (app_id, board, period, negated_value, start_at, start_name, count, blocks)
    SELECT app_id, board, period, negated_value, start_at, start_name, count, 1 FROM board_blocks WHERE app_id = 'blocks'`);
  // The names' counts by period too: each section's are its one block's.
  await run(`DELETE FROM name_periods WHERE app_id = 'blocks' AND level = 'section'`);
  await run(`INSERT INTO name_periods (app_id, level, negated_value, start_at, start_name, board, period, count)
    SELECT app_id, 'section', negated_value, start_at, start_name, board, period, count FROM name_periods
    WHERE app_id = 'blocks' AND level = 'block'`);
  const [{ sections }] = await run(
    `SELECT count(*)::integer AS sections FROM board_sections WHERE app_id = 'blocks' AND board = 'names'`,
  );
  assert.ok(sections >= 3, `the names are in ${sections} sections`);
  assert.deepEqual(await wholeBoard(37), boards.xp);
  assert.deepEqual(await wholeBoard(100, 'weekly'), boards.weekly);
  const ranked = boards.weekly.filter((member) => member.score > 0).length;
  await assertAround('xp', boards.xp, [0, 61, 500, 1501, 2599]);
  await assertAround('weekly', boards.weekly, [ranked, 700, 1301, 2000, 2599]);
});

it('reads the same with sections that start before their first block', async () => {
  const boards = { xp: await wholeBoard(37), weekly: await wholeBoard(100, 'weekly') };
  /**
   * Rows of SQL written here, any columns it names.
   * @param {string} text
   * @returns {Promise<Record<string, any>[]>}
   */
  const run = (text) => driver.transaction('write', (session) => session.query({ text, values: [] }));
  // Every section (each one block, as the test before left them) but a board's first moves its
  // start back to just past the start of the block before its own: the members of that block
  // from there on sort after the section's start, yet are counted in the section before.
  const [{ moved }] = await run(`
    WITH ordered AS (
      SELECT app_id, board, period, negated_value, start_at, start_name,
        lag(negated_value) OVER w AS before_value, lag(start_at) OVER w AS before_at, lag(start_name) OVER w AS before_name
      FROM board_blocks WHERE app_id = 'blocks'
      WINDOW w AS (PARTITION BY app_id, board, period ORDER BY negated_value, start_at, start_name)),
    moved AS (
      UPDATE board_sections AS s SET negated_value = o.before_value, start_at = o.before_at, start_name = o.before_name || '!'
      FROM ordered AS o
      WHERE s.app_id = o.app_id AND s.board = o.board AND s.period = o.period AND s.negated_value = o.negated_value
        AND s.start_at = o.start_at AND s.start_name = o.start_name AND o.before_value IS NOT NULL
      RETURNING 1),
    -- The names' counts by period move with their sections.
    moved_periods AS (
      UPDATE name_periods AS p SET negated_value = o.before_value, start_at = o.before_at, start_name = o.before_name || '!'
      FROM ordered AS o
      WHERE p.app_id = o.app_id AND p.level = 'section' AND o.board = 'names' AND p.negated_value = o.negated_value
        AND p.start_at = o.start_at AND p.start_name = o.start_name AND o.before_value IS NOT NULL)
    SELECT count(*)::integer AS moved FROM moved`);
  assert.ok(moved >= 10, `${moved} sections moved`);
  assert.deepEqual(await wholeBoard(37), boards.xp);
  assert.deepEqual(await wholeBoard(100, 'weekly'), boards.weekly);
  const ranked = boards.weekly.filter((member) => member.score > 0).length;
  await assertAround('xp', boards.xp, [0, 61, 500, 1501, 2599]);
  await assertAround('weekly', boards.weekly, [ranked, 700, 1301, 2000, 2599]);
});
