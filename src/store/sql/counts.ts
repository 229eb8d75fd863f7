// Counts kept in rows, as board_blocks, board_sections and name_periods keep
// them: a write adds what it changed to them in one statement, inserting the
// rows it is the first to count, and deletes those it leaves empty.
import type { SqlSession } from './sql.js';

/** A column of a counted table's key, read from a row. */
export interface KeyColumn<Row> {
  name: string;
  type: 'text' | 'float8';
  of: (row: Row) => string | number;
}

export interface CountedTable<Row> {
  table: 'board_blocks' | 'board_sections' | 'name_periods';
  /** The key's columns, in the primary key's order. */
  key: KeyColumn<Row>[];
  /** Added to the stored ones; the first is the count a row is deleted at when it reaches 0. */
  counters: { name: string; of: (row: Row) => number }[];
}

/**
 * What adds rows to the counts of a table: each row's counters to the stored row of its key
 * (inserted where there is none). It returns the rows as they stand now (`Stored`: the key's
 * columns and the counters, by name), the emptied ones among them, which it deletes. A row that
 * adds nothing is not sent. The rows go in key order, so that two writes adding to the same
 * counts lock them in one order, and neither waits for the other in a circle.
 */
export function addingTo<Row, Stored extends object>({ table, key, counters }: CountedTable<Row>) {
  const columns = [...key, ...counters.map(({ name, of }) => ({ name, type: 'integer', of }))];
  const names = columns.map(({ name }) => name).join(', ');
  const keyNames = key.map(({ name }) => name).join(', ');
  const arrays = (list: { type: string }[]) => list.map(({ type }, index) => `$${index + 1}::${type}[]`).join(', ');
  const add = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays(columns)})
    ON CONFLICT (${keyNames}) DO UPDATE SET ${counters.map(({ name }) => `${name} = ${table}.${name} + excluded.${name}`).join(', ')}
    RETURNING ${names}`;
  const remove = `DELETE FROM ${table} WHERE (${keyNames}) IN (SELECT * FROM unnest(${arrays(key)}))`;
  const column = (row: Stored, name: string) => (row as Record<string, unknown>)[name];

  return async (session: SqlSession, rows: Row[]): Promise<Stored[]> => {
    const changed = rows
      .filter((row) => counters.some(({ of }) => of(row) !== 0))
      .map((row) => ({ row, key: key.map(({ of }) => of(row)) }))
      .sort((a, b) => compareKeys(a.key, b.key));
    if (changed.length === 0) return [];
    const stored = await session.query<Stored>({
      text: add,
      values: columns.map(({ of }) => changed.map(({ row }) => of(row))),
    });
    const emptied = stored.filter((row) => (column(row, counters[0]!.name) as number) <= 0);
    if (emptied.length > 0) {
      await session.query({ text: remove, values: key.map(({ name }) => emptied.map((row) => column(row, name))) });
    }
    return stored;
  };
}

/** Keys compared column by column: one order, the same in every process (not always the table's). */
function compareKeys(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
