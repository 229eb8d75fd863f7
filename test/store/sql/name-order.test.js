// The SQL store locates board places in JavaScript (src/store/sql/board-order.ts),
// among block starts the database ordered: compareNames must order names exactly
// as PostgreSQL does under COLLATE "C" (by code point), which JavaScript's `<`
// (by UTF-16 code unit) does not where a surrogate pair meets U+E000–U+FFFF.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { importSource } from '../../source-module.js';

/** @type {typeof import('../../../src/store/sql/pglite-driver.js') & typeof import('../../../src/store/sql/board-order.js')} */
let source;
/** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
let driver;
before(async () => {
  source = await importSource('src/store/sql/pglite-driver.ts', 'src/store/sql/board-order.ts');
  driver = await source.pgliteDriver();
});
after(() => driver?.close());

/**
 * The names as the database orders them.
 * @param {string[]} names
 */
const databaseOrder = (names) =>
  driver.transaction('read', async (session) =>
    (
      await session.query({
        text: 'SELECT name FROM unnest($1::text[]) AS n(name) ORDER BY name COLLATE "C"',
        values: [names],
      })
    ).map((row) => row.name),
  );

it('orders names as PostgreSQL does, where JavaScript’s < does not', async () => {
  const names = ['b', 'a', '', 'ab', '\uffff', '\ue000', '\ud83d\ude00', '\ud800\udc00', 'é', 'a\ud83d\ude00', 'a\uffff'];
  const ordered = await databaseOrder(names);
  assert.deepEqual([...names].sort(source.compareNames), ordered);
  assert.notDeepEqual([...names].sort(), ordered, 'code unit order differs here, so the test can tell');
});

it('orders any names as PostgreSQL does', async () => {
  const character = fc.oneof(
    fc.constantFrom('a', 'é', '\ue000', '\uffff', '\ud83d\ude00'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  // PostgreSQL text holds neither U+0000 (escaped by the store) nor a lone surrogate.
  const name = fc.string({ unit: character, maxLength: 4 }).filter((text) => text.isWellFormed() && !text.includes('\0'));
  await fc.assert(
    fc.asyncProperty(fc.array(name, { maxLength: 12 }), async (names) => {
      assert.deepEqual([...names].sort(source.compareNames), await databaseOrder(names));
    }),
    { numRuns: 150 },
  );
});
