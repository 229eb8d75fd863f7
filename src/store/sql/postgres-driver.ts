// PostgreSQL through postgres.js: a pool of connections, so requests from
// many members run side by side; several server processes may share one database.
import postgres from 'postgres';
import { TRANSACTION_MODES, type SqlDriver, type SqlSession } from './sql.js';

export interface PostgresDriverOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Connections in the pool. */
  max?: number;
}

export function postgresDriver({ url, max = 10 }: PostgresDriverOptions): SqlDriver {
  const client = postgres(url, {
    max,
    // A database that does not answer is reported, not waited on for ever.
    connect_timeout: 10,
    onnotice: () => undefined,
    // Our statements are few and fixed: prepared once per connection.
    prepare: true,
    // Each statement walks a few index entries in well under a millisecond, but the planner's
    // estimate for the recursive ones (the tail of a period board) passes jit_above_cost:
    // compiling them took 1.4 s a request at a million members.
    connection: { jit: 'off' },
  });
  const session = (tx: postgres.Sql | postgres.TransactionSql): SqlSession => ({
    query: async <Row>({ text, values }: { text: string; values: unknown[] }) =>
      (await tx.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as Row[],
  });
  return {
    // The modes go with BEGIN itself: a SET TRANSACTION after it would cost every request a round trip.
    transaction: async (mode, work) => (await client.begin(TRANSACTION_MODES[mode], (tx) => work(session(tx)))) as never,
    close: () => client.end({ timeout: 5 }),
  };
}
