// A SQL store over PGlite whose driver records, in order, each statement it is sent (as a
// label: its verb and the table it is about) and each COMMIT asked for, for tests of what a
// write sends and when.

/** Tables the labels name: a statement's first, or a WITH statement's the one it updates. */
const TABLE = /\b(users|board_blocks|board_sections|name_periods|logs|endorsements|apps|api_keys|pg_notify)\b/;
const UPDATED = /\bUPDATE (\w+)/;

/**
 * A statement as the tests name it: `SELECT board_blocks`, `INSERT users`, `WITH board_sections`…
 * @param {string} text
 */
export function labelOf(text) {
  const verb = text.trim().split(/\s+/)[0];
  return `${verb} ${(verb === 'WITH' ? UPDATED.exec(text) : TABLE.exec(text))?.[1] ?? '?'}`;
}

/**
 * `source` has pgliteDriver and openSqlStore (src/store/sql/index.ts); `options` go to
 * openSqlStore. Returns the store, and `sent`, the labels and COMMITs so far (clear it at will).
 * @param {Pick<typeof import('../../../src/store/sql/index.js'), 'pgliteDriver' | 'openSqlStore'>} source
 * @param {{ schema?: string, announceChanges?: boolean }} [options]
 */
export async function recordingStore(source, options = {}) {
  const driver = await source.pgliteDriver();
  /** @type {string[]} */
  const sent = [];
  const store = await source.openSqlStore({
    ...options,
    driver: {
      transaction: (mode, work, durability) =>
        driver.transaction(
          mode,
          (session) =>
            work({
              query: (query) => {
                sent.push(labelOf(query.text));
                return session.query(query);
              },
              // PGlite's driver commits once the work is done; here the ask is only noted.
              commit: () => sent.push('COMMIT'),
            }),
          durability,
        ),
      close: () => driver.close(),
    },
  });
  return { store, sent, driver };
}
