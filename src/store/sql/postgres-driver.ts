// PostgreSQL through postgres.js: a pool of connections, so requests from
// many members run side by side; several server processes may share one database.
import postgres from 'postgres';
import { connectionPool, DEFAULT_DEADLINES, within, type PostgresDeadlines } from './postgres-pool.js';
import {
  DEFAULT_CONNECTIONS,
  IN_FAILED_TRANSACTION,
  RELAXED_COMMIT,
  TRANSACTION_MODES,
  type Query,
  type SqlDriver,
  type SqlSession,
} from './sql.js';

export interface PostgresDriverOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Connections in the pool (DEFAULT_CONNECTIONS). */
  max?: number;
  /** Deadlines of its waits, each DEFAULT_DEADLINES' unless given. */
  deadlines?: Partial<PostgresDeadlines>;
}

/** A VACUUM of a million members takes seconds; one still running after this is a database that stopped answering. */
const MAINTENANCE_DEADLINE_MS = 30 * 60_000;

/**
 * The URL and options postgres.js takes for a database URL as libpq reads it, where postgres.js
 * reads it otherwise: the `host` and `port` parameters, which it would send on to the server as
 * settings (postgresql:///questboard?host=/var/run/postgresql), and a host written
 * percent-encoded (postgresql://%2Fvar%2Frun%2Fpostgresql/questboard), which it would look up
 * as a name. A host that is a path is a Unix socket's directory: how Debian's PostgreSQL lets a
 * local user in without a password (peer authentication).
 */
function connectionOf(url: string): { url: string; host?: string; port?: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // postgres.js says what is wrong with it.
    return { url };
  }
  const hostname = decodeURIComponent(parsed.hostname);
  const host = parsed.searchParams.get('host') ?? (hostname.startsWith('/') ? hostname : null);
  const port = parsed.searchParams.get('port');
  if (host === null && port === null) return { url };
  parsed.searchParams.delete('host');
  parsed.searchParams.delete('port');
  if (hostname.startsWith('/')) parsed.hostname = 'localhost';
  return { url: parsed.href, ...(host !== null && { host }), ...(port !== null && { port: Number(port) }) };
}

/**
 * postgres.js's client for a database URL (connectionOf) with these options, and with what every
 * client of the server has: a database that does not answer is reported after 10 s, not waited
 * on for ever, and the database's notices are not printed.
 */
export function postgresClient(url: string, options: postgres.Options<Record<string, postgres.PostgresType>>) {
  const { url: target, ...where } = connectionOf(url);
  return postgres(target, { connect_timeout: 10, onnotice: () => undefined, ...options, ...where });
}

export function postgresDriver({ url, max = DEFAULT_CONNECTIONS, deadlines }: PostgresDriverOptions): SqlDriver {
  const connectionOptions = {
    // The pool keeps one client a connection (postgres-pool.ts).
    max: 1,
    // Our statements are few and fixed: prepared once per connection.
    prepare: true,
    connection: {
      // Each statement walks a few index entries in well under a millisecond, but a generic plan's
      // estimate may pass jit_above_cost: that of the recursive search a period board's tail once
      // was did, and compiling it took 1.4 s a request at a million members.
      jit: 'off',
      // Planned once per connection, not at every run: PostgreSQL kept planning the statements
      // that read records by key, since a plan for one key looks cheaper than one for any number,
      // and planning took most of their time (0.1 ms of a key's read). The plans are made again
      // as the tables grow (SqlDriver.maintain).
      plan_cache_mode: 'force_generic_plan',
    },
  };
  const pool = connectionPool((options) => postgresClient(url, { ...connectionOptions, ...options }), max, {
    ...DEFAULT_DEADLINES,
    ...deadlines,
  });
  /**
   * Maintenance's connection, beside the pool, opened when first needed and let go after a
   * minute unused: a VACUUM of a million members takes seconds, and the requests' few
   * connections (DEFAULT_CONNECTIONS) cannot spare one for that long.
   */
  let maintenance: postgres.Sql | undefined;
  const statement = <Row>(connection: postgres.ReservedSql, { text, values }: Query) =>
    connection.unsafe<Row[]>(text, values as postgres.ParameterOrJSON<never>[], { prepare: true });
  return {
    /**
     * A transaction on a connection of its own, its round trips cut to the statements' own:
     * - BEGIN (with its modes: a SET TRANSACTION after it would cost a round trip) goes out
     *   with the first statements, as postgres.js pipelines a reserved connection's statements
     *   and PostgreSQL runs them in the order sent. In a write, the statements of the work's
     *   first turn go with it in one socket write (postgres.js sends what a turn wrote at its
     *   end), later ones wait for BEGIN's answer, so that if it failed nothing more runs outside
     *   the transaction: BEGIN of fixed text fails only with its connection, and then so does
     *   every statement sent behind it. That turn is a write's key, its app's lock and what
     *   the server reads ahead (server/read-ahead.ts): one round trip, where each statement
     *   after it made the app's other writes wait one more. A read's statements never wait:
     *   they write nothing, and the reads a request starts together travel in one round trip.
     * - A read's COMMIT is sent, not waited for: it ends a snapshot and writes nothing, and the
     *   connection's next transaction queues behind it. A write waits: its answer is the
     *   write's durability (a relaxed write's, once committed; its setting travels with BEGIN).
     *   A write's COMMIT goes out with its last statements where the work says they are
     *   (SqlSession.commit), each queued behind BEGIN's answer as they are.
     */
    transaction: async (mode, work, durability, deadlineMs) => {
      const lease = await pool.lease();
      const { connection } = lease;
      /** Every statement's answer is waited for within its deadline (postgres-pool.ts). */
      const answered = <T>(statement: Promise<T>) => lease.answer(statement, deadlineMs);
      const statements = [`BEGIN ${TRANSACTION_MODES[mode]}`];
      if (mode === 'write' && durability === 'relaxed') statements.push(RELAXED_COMMIT);
      const begun = Promise.all(statements.map((text) => answered(connection.unsafe(text).execute())));
      begun.catch(() => undefined);
      // Set before COMMIT or ROLLBACK is sent: a statement still on its way must not follow them
      // and run on its own. Checked and sent in one step (execute()), so the order is fixed.
      let ended = false;
      let committed: Promise<{ command: string }> | undefined;
      const commit = () => {
        ended = true;
        committed = answered(connection.unsafe('COMMIT').execute());
        committed.catch(() => undefined);
      };
      const send = <Row>(query: Query) =>
        ended
          ? Promise.reject(new Error('a statement after its transaction ended'))
          : answered(statement<Row>(connection, query).execute());
      // Past a write's first turn, its statements wait for BEGIN's answer; a read's never do, so
      // a read sets no timer.
      let behindBegin = false;
      if (mode === 'write') {
        setImmediate(() => {
          behindBegin = true;
        });
      }
      const session: SqlSession = {
        query: async <Row>(query: Query) => {
          if (behindBegin) await begun;
          return send<Row>(query);
        },
        commit: () => {
          if (mode === 'write' && !ended) {
            void begun.then(
              () => {
                if (!ended) commit();
              },
              () => undefined,
            );
          }
        },
      };
      try {
        const result = await work(session);
        await begun;
        if (!ended) commit();
        if (mode === 'read') return result;
        // A statement sent before a COMMIT that failed has rolled the transaction back: PostgreSQL
        // then answers the COMMIT with ROLLBACK, not with an error.
        if ((await committed!).command === 'ROLLBACK') {
          const rolledBack = new Error('the write was rolled back: a statement of it failed');
          throw Object.assign(rolledBack, { code: IN_FAILED_TRANSACTION });
        }
        return result;
      } catch (error) {
        ended = true;
        // A broken connection is destroyed instead, which rolls back.
        if (!lease.broken) await answered(connection.unsafe('ROLLBACK').execute()).catch(() => undefined);
        throw error;
      } finally {
        lease.end();
      }
    },
    maintain: async (statements) => {
      const client = (maintenance ??= postgresClient(url, { max: 1, idle_timeout: 60 }));
      try {
        for (const text of statements) await within(client.unsafe(text).execute(), MAINTENANCE_DEADLINE_MS);
      } catch (error) {
        // Whatever failed, the next maintenance starts on a new connection.
        if (maintenance === client) maintenance = undefined;
        client.end({ timeout: 0 }).catch(() => undefined);
        throw error;
      }
    },
    close: async () => {
      await Promise.all([pool.close(), maintenance?.end({ timeout: 5 })]);
    },
  };
}
