// PGlite: PostgreSQL compiled to WebAssembly, in this process, kept in a
// directory (or in memory). The embedded default: durable with nothing else
// installed. It runs one statement at a time, so transactions queue.
import { PGlite } from '@electric-sql/pglite';
import { TRANSACTION_MODES, type SqlDriver } from './sql.js';

/** `dataDir` undefined: in memory, gone when the process ends. */
export async function pgliteDriver(dataDir?: string): Promise<SqlDriver> {
  return pgliteDriverOf(await PGlite.create(dataDir === undefined ? {} : { dataDir }));
}

/** The driver over a PGlite opened already (the tests' reference server opens copies of one database). */
export function pgliteDriverOf(db: PGlite): SqlDriver {
  return {
    // Every write strict, relaxed or not: the database lives in this process, so a crash of
    // the server is one of the database, and a relaxed write answered would be lost with it.
    transaction: (mode, work) =>
      db.transaction(async (tx) => {
        await tx.query(`SET TRANSACTION ${TRANSACTION_MODES[mode]}`);
        return work({ query: async ({ text, values }) => (await tx.query(text, values)).rows as never });
      }),
    // Outside a transaction (VACUUM is refused inside one); PGlite runs it once those before it end.
    maintain: async (statements) => {
      for (const text of statements) await db.exec(text);
    },
    close: () => db.close(),
  };
}
