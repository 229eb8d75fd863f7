// Statements as the sql tag writes them (src/store/sql/sql.ts): a text cast alike where it
// recurs is one parameter, anything else a parameter of its own, and the database reads the
// statement back with every value where it was written. Text goes through textSafe and back
// unchanged, though PostgreSQL's text cannot hold U+0000.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importSource } from '../../source-module.js';

/** @type {typeof import('../../../src/store/sql/sql.js') & typeof import('../../../src/store/sql/pglite-driver.js')} */
let source;
/** @type {import('../../../src/store/sql/sql.js').SqlDriver} */
let driver;
before(async () => {
  source = await importSource('src/store/sql/sql.ts', 'src/store/sql/pglite-driver.ts');
  driver = await source.pgliteDriver();
});
after(() => driver?.close());

describe('the sql tag', () => {
  it('numbers a text once per cast, through nested fragments, and every other value each time', async () => {
    const { sql } = source;
    const named = sql`${'7'}::text AS inner_text`;
    const query = sql`SELECT ${'7'}::text AS text, ${named}, ${'7'}::integer AS cast_text, ${7}::integer AS first_number,
      ${7}::integer AS second_number, ${'{7}'}::text AS braces, ${'{7}'}::text[] AS braces_array, ${['7']}::text[] AS array,
      ${'7'} AS uncast`;
    assert.deepEqual(query.values, ['7', '7', 7, 7, '{7}', '{7}', ['7'], '7']);
    assert.match(query.text, /^SELECT \$1::text AS text, \$1::text AS inner_text, \$2::integer AS cast_text, \$3::integer/);
    assert.match(query.text, /\$5::text AS braces, \$6::text\[\] AS braces_array, \$7::text\[\] AS array,\s+\$8 AS uncast$/);

    const [row] = await driver.transaction('read', (session) => session.query(query));
    assert.deepEqual(
      { ...row },
      {
        text: '7',
        inner_text: '7',
        cast_text: 7,
        first_number: 7,
        second_number: 7,
        braces: '{7}',
        braces_array: ['7'],
        array: ['7'],
        uncast: '7',
      },
    );
  });
});

describe('text through textSafe', () => {
  it('comes back as it went in, U+0000 and U+0001 too, in code point order', async () => {
    const names = ['b\u0001', 'a', 'a\u0000b', '\u0001\u0002', '\u0000', 'a\u0001', '', 'a\u0000'];
    const rows = await driver.transaction('read', (session) =>
      source.textSafe(session).query({
        text: 'SELECT name, $2::text AS single FROM unnest($1::text[]) AS n(name) ORDER BY name COLLATE "C"',
        values: [names, '\u0000\u0001'],
      }),
    );
    assert.deepEqual(
      rows.map((row) => row.name),
      [...names].sort(),
    );
    assert.ok(rows.every((row) => row.single === '\u0000\u0001'));
  });
});
