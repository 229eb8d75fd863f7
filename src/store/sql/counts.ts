// Counts kept in rows, as board_blocks, board_sections, name_periods,
// season_blocks and season_sections keep them: a write adds what it changed to
// them in one statement, inserting the rows it is the first to count, and
// deletes those it leaves empty.
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** A column of a counted table's key, read from a row. */
export interface KeyColumn<Row> {
  name: string;
  type: 'text' | 'float8';
  of: (row: Row) => string | number;
}

export interface CountedTable<Row> {
  table: 'board_blocks' | 'board_sections' | 'name_periods' | 'season_blocks' | 'season_sections';
  /** The key's columns, in the primary key's order. */
  key: KeyColumn<Row>[];
  /** Added to the stored ones; the first is the count a row is deleted at when it reaches 0. */
  counters: { name: string; of: (row: Row) => number }[];
}

/**
 * What adds rows to the counts of a table: each row's counters to the stored row of its key
 * (inserted where there is none), and deletes the rows it empties. A row that adds nothing is
 * not sent. The rows go in key order, so that two writes adding to the same
 * counts lock them in one order, and neither waits for the other in a circle. The delete goes
 * out with the add, for the rows it lowers: the database runs them in the order sent, so it
 * finds the counts as added, and an emptied row costs no round trip of its own.
 */
export function addingTo<Row>({ table, key, counters }: CountedTable<Row>) {
  const columns = [...key, ...counters.map(({ name, of }) => ({ name, type: 'integer', of }))];
  const names = columns.map(({ name }) => name).join(', ');
  const keyNames = key.map(({ name }) => name).join(', ');
  const arrays = (list: { type: string }[]) => list.map(({ type }, index) => `$${index + 1}::${type}[]`).join(', ');
  const add = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays(columns)})
    ON CONFLICT (${keyNames}) DO UPDATE SET ${counters.map(({ name }) => `${name} = ${table}.${name} + excluded.${name}`).join(', ')}`;
  const count = counters[0]!;
  const remove = `DELETE FROM ${table} WHERE (${keyNames}) IN (SELECT * FROM unnest(${arrays(key)})) AND ${count.name} <= 0`;

  return async (session: SqlSession, rows: Row[]): Promise<void> => {
    const changed = rows
      .filter((row) => counters.some(({ of }) => of(row) !== 0))
      .map((row) => ({ row, key: key.map(({ of }) => of(row)) }))
      .sort((a, b) => compareKeys(a.key, b.key));
    if (changed.length === 0) return;
    const added = session.query({
      text: add,
      values: columns.map(({ of }) => changed.map(({ row }) => of(row))),
    });
    const lowered = changed.filter(({ row }) => count.of(row) < 0);
    const removed =
      lowered.length > 0
        ? session.query({ text: remove, values: key.map((_, index) => lowered.map((entry) => entry.key[index])) })
        : undefined;
    await Promise.all([added, removed]);
  };
}

/**
 * The same adding as statements of one WITH, for counts located by the statement itself
 * (board-moves.ts): `rows` (a query of each row's key columns and counters, by their names, and
 * `before`, the first counter as stored, 0 where no row has the key) as `adding`, then `updated`
 * and `inserted`, each returning the rows' counters as they are now, and `deleted`. A key is
 * written once by one of them: the rows of one write of an app are not written by any other
 * meanwhile (transaction.ts).
 */
export function addingIn<Row>({ table, key, counters }: CountedTable<Row>, rows: Query): Query {
  const names = (list: { name: string }[], prefix = '') => list.map(({ name }) => `${prefix}${name}`).join(', ');
  const columns = new Identifier(`${names(key)}, ${names(counters)}`);
  const sameKey = new Identifier(key.map(({ name }) => `counted.${name} = adding.${name}`).join(' AND '));
  const first = new Identifier(`adding.${counters[0]!.name}`);
  return sql`adding AS (${rows}),
    updated AS (
      UPDATE ${new Identifier(table)} AS counted
      SET ${new Identifier(counters.map(({ name }) => `${name} = counted.${name} + adding.${name}`).join(', '))}
      FROM adding WHERE adding.before > 0 AND adding.before + ${first} > 0 AND ${sameKey}
      RETURNING ${new Identifier(names(counters, 'counted.'))}),
    inserted AS (
      INSERT INTO ${new Identifier(table)} (${columns}) SELECT ${columns} FROM adding WHERE adding.before = 0 AND ${first} > 0
      RETURNING ${new Identifier(names(counters))}),
    deleted AS (
      DELETE FROM ${new Identifier(table)} AS counted USING adding
      WHERE adding.before > 0 AND adding.before + ${first} <= 0 AND ${sameKey})`;
}

/** Keys compared column by column: one order, the same in every process (not always the table's). */
function compareKeys(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
