// Opening the SQL store: a driver for the engine asked for, the schema brought
// up to date, and one SQL transaction per request. A write that conflicts
// with a concurrent one (a serialization failure, a deadlock, a row inserted
// first elsewhere) is run again, a few times, before the request is refused.
import { DATABASE_BUSY, DATABASE_UNAVAILABLE } from '../../api/error-codes.js';
import { ApiError } from '../../api/errors.js';
import { StaleReadAhead, type Store } from '../port.js';
import { SPLIT_DUE } from './board-moves.js';
import { migrate, MIGRATIONS } from './migrations.js';
import { pgliteDriver } from './pglite-driver.js';
import { postgresDriver } from './postgres-driver.js';
import {
  DatabaseUnavailable,
  errorCode,
  IN_FAILED_TRANSACTION,
  isConnectionFailure,
  textSafe,
  type Durability,
  type Query,
  type SqlDriver,
  type SqlSession,
  type TransactionMode,
} from './sql.js';
import { SqlTransaction } from './transaction.js';
import { webhookOutbox, type WebhookOutbox } from './webhook-outbox.js';

export type SqlStoreOptions = (
  | {
      databaseUrl: string;
      /** Connections in the pool (DEFAULT_CONNECTIONS unless given). */
      connections?: number;
    }
  /** PGlite kept in this directory. */
  | { dataDir: string }
  /** PGlite in memory: everything is gone when the process ends. */
  | { memory: true }
  | { driver: SqlDriver }
) & {
  /** A schema of its own in the database (tests give each store one); created when missing. */
  schema?: string;
  /**
   * Whether each write sends the change notices announced to it (Transaction.announce) by
   * NOTIFY, with its commit (change-notices.ts): for server processes sharing a PostgreSQL
   * database, each LISTENing. Otherwise writes have no announce, and their host publishes.
   */
  announceChanges?: boolean;
};

/** SQLSTATEs after which the same work may succeed when run again. */
const RETRYABLE = new Set(['40001', '40P01', '23505', SPLIT_DUE]);
const ATTEMPTS = 8;
const mayRunAgain = (error: unknown, code: string) => RETRYABLE.has(code) || error instanceof StaleReadAhead;
/** The health check's deadline on each statement: a frozen database is told within it (docs/server.md, Deadlines). */
const PING_DEADLINE_MS = 1500;

/** The SQL store, with the outbox of its webhook deliveries, which the server delivers. */
export type SqlStore = Store & { webhookOutbox: WebhookOutbox };

export async function openSqlStore(options: SqlStoreOptions): Promise<SqlStore> {
  const base =
    'driver' in options
      ? options.driver
      : 'databaseUrl' in options
        ? postgresDriver({ url: options.databaseUrl, max: options.connections })
        : await pgliteDriver('dataDir' in options ? options.dataDir : undefined);
  const quoted = options.schema === undefined ? undefined : quoteIdentifier(options.schema);
  const driver = quoted === undefined ? base : inSchema(base, quoted);
  let foundVersion: number;
  try {
    foundVersion = await migrate(driver);
  } catch (error) {
    await base.close().catch(() => undefined);
    throw error;
  }

  // Maintenance runs outside any transaction, so not in the schema a transaction sets: it names the tables in it.
  const inStore = (table: string) => (quoted === undefined ? table : `${quoted}.${table}`);
  const keeper = base.maintain ? statisticsKeeper(driver, base.maintain, inStore) : undefined;
  // An upgrade fills or rewrites tables (version 7 updates most members): their statistics and
  // visibility renewed at once, not once a thousand rows more are written.
  if (foundVersion > 0 && foundVersion < MIGRATIONS.length) keeper?.maintainNow();
  const outbox = webhookOutbox(driver, textSafe);

  async function run<T>(
    mode: TransactionMode,
    work: (tx: SqlTransaction) => Promise<T>,
    durability?: Durability,
    deadlineMs?: number,
  ): Promise<T> {
    // Run again after SPLIT_DUE, a write reads where its moves fall first, and cuts (board-moves.ts).
    let readsBoardsFirst = false;
    for (let attempt = 1; ; attempt++) {
      /** The attempt's session, which knows its first failed statement. */
      let attemptSession: ReturnType<typeof endsWithWork> | undefined;
      try {
        let rows = 0;
        let recordedDeliveries = false;
        const result = await driver.transaction(
          mode,
          async (session) => {
            const ending = endsWithWork(session);
            attemptSession = ending;
            try {
              const tx = new SqlTransaction(textSafe(ending), mode, {
                announces: mode === 'write' && options.announceChanges,
                readsBoardsFirst,
              });
              const result = await work(tx);
              if (mode === 'write') await tx.flush();
              rows = tx.rowsWritten;
              recordedDeliveries = tx.recordedDeliveries;
              return result;
            } finally {
              ending.end();
            }
          },
          durability,
          deadlineMs,
        );
        if (rows > 0) keeper?.wrote(rows);
        if (recordedDeliveries) outbox.recorded();
        return result;
      } catch (thrown) {
        // A write's statements go out together (transaction.ts), and those behind one that failed
        // are refused: whichever refusal the work met first, the first failure is the cause (a
        // conflict seen as a refusal behind it was answered 500, not run again).
        const error = errorCode(thrown) === IN_FAILED_TRANSACTION ? (attemptSession?.firstFailure ?? thrown) : thrown;
        const code = errorCode(error);
        if (mayRunAgain(error, code) && attempt < ATTEMPTS) {
          // Nothing conflicted: run again at once, reading the boards first.
          if (code === SPLIT_DUE) readsBoardsFirst = true;
          // A short random wait, so that two conflicting requests do not meet again.
          else await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
          continue;
        }
        throw asApiError(error, code);
      }
    }
  }

  return {
    webhookOutbox: outbox.outbox,
    read: (work) => run('read', work),
    // The port's default durability is IndexedDB's: answered once committed (sql.ts, Durability).
    write: (work, options) => run('write', work, options?.durability === 'strict' ? 'strict' : 'relaxed'),
    ping: async (begun) => {
      await base.ping?.();
      await run(
        'read',
        (tx) => {
          begun?.();
          return tx.hasApps();
        },
        undefined,
        PING_DEADLINE_MS,
      );
    },
    close: () => {
      keeper?.stop();
      return base.close();
    },
  };
}

/**
 * The tables that grow with an app's members and their writes (migrations.ts); the first
 * five are read by index alone (counts and walks in boards.ts, a season's counts and skips in
 * transaction.ts), which skips the table only where VACUUM has marked its pages all visible.
 * Left out, season_points was never vacuumed nor analyzed after the server benchmark's import:
 * every member a season board counted was visited in the table too, and planned for as one row.
 */
const VACUUMED_TABLES = ['users', 'board_blocks', 'board_sections', 'season_points', 'season_blocks', 'season_sections'];
const ANALYZED_TABLES = [
  'name_periods',
  'progress',
  'member_challenges',
  'endorsements',
  'logs',
  'idempotency',
  'rate_counters',
  'badge_awards',
];
/** Rows written before the first maintenance, and at least between two. */
const MAINTENANCE_FLOOR = 1000;
/** Writes that pause this long have the rows written since the last maintenance maintained. */
const MAINTENANCE_PAUSE_MS = 1000;

/**
 * Keeps the tables' statistics and visibility current where the driver can (SqlDriver.maintain),
 * as autovacuum does where it runs; PGlite runs none, and without statistics plans its tables as
 * a few rows each. A kept plan was made for the tables
 * as they were: made during an import's first chunk into an empty database, it went on reading
 * a million members as it had read none (a member read by a scan of them all: when plans were
 * first kept, the mixed load of the server benchmark at a million members fell from 525 to 155
 * requests a second). So once this process has written as many rows as the tables held at the
 * last time (MAINTENANCE_FLOOR at least), it analyzes them again: the planner learns their
 * sizes, and every plan made before is made again. And it vacuums those read by index alone:
 * a count over a block's members in the index visited each of them in the table too. No
 * request waits for it; one that fails is tried again at the next growth.
 *
 * Growth alone left up to half the rows of a bulk import to wait for as many again: after
 * seeding a million members, 475,000 of them had not been vacuumed, and the weekly tail and the
 * page around a member took 1.26 and 1.16 times as long as once they were. So writes that pause
 * (MAINTENANCE_PAUSE_MS) have what they wrote since the last time maintained too.
 */
function statisticsKeeper(
  driver: SqlDriver,
  maintain: (statements: string[]) => Promise<void>,
  inStore: (table: string) => string,
) {
  const [vacuumed, analyzed] = [VACUUMED_TABLES.map(inStore), ANALYZED_TABLES.map(inStore)];
  let written = 0;
  let rowsAtMaintenance = 0;
  let maintaining = false;
  let pause: ReturnType<typeof setTimeout> | undefined;
  /** After a pause, what was written since the last maintenance, if anything worth it. */
  const maintainAfterPause = () => {
    clearTimeout(pause);
    if (written < MAINTENANCE_FLOOR) return;
    pause = setTimeout(() => {
      if (!maintaining) run();
    }, MAINTENANCE_PAUSE_MS);
    // A pause while the process ends is no reason to stay.
    pause.unref?.();
  };
  const run = () => {
    clearTimeout(pause);
    maintaining = true;
    written = 0;
    maintain([`VACUUM (ANALYZE) ${vacuumed.join(', ')}`, `ANALYZE ${analyzed.join(', ')}`])
      .then(() =>
        driver.transaction('read', (session) =>
          session.query<{ rows: number }>({
            text: 'SELECT sum(reltuples)::float8 AS rows FROM pg_class WHERE oid = ANY($1::regclass[])',
            values: [[...vacuumed, ...analyzed]],
          }),
        ),
      )
      .then(([counted]) => {
        rowsAtMaintenance = counted?.rows ?? 0;
      })
      .catch(() => undefined)
      .finally(() => {
        maintaining = false;
        // Rows written while it ran wait for the next pause.
        maintainAfterPause();
      });
  };
  return {
    wrote(rows: number) {
      written += rows;
      if (maintaining) return;
      if (written >= Math.max(MAINTENANCE_FLOOR, rowsAtMaintenance)) run();
      else maintainAfterPause();
    },
    maintainNow() {
      if (!maintaining) run();
    },
    stop: () => clearTimeout(pause),
  };
}

/**
 * The session of one transaction's work, refusing statements once the work has settled.
 * Statements run side by side (Promise.all); if one fails and the work throws while another
 * is still on its way to its next statement, that statement must not reach the connection
 * after the ROLLBACK, where it would run, and commit, on its own.
 */
function endsWithWork(session: SqlSession): SqlSession & { end(): void; readonly firstFailure: unknown } {
  let open = true;
  let firstFailure: unknown;
  return {
    query: <Row>(query: Query) => {
      if (!open) return Promise.reject(new Error('a statement after its transaction ended'));
      const answered = session.query<Row>(query);
      // Noted as it fails, before the work hears of it: statements fail in the order sent.
      answered.catch((error: unknown) => {
        firstFailure ??= error;
      });
      return answered;
    },
    commit: () => {
      if (open) session.commit?.();
    },
    end: () => {
      open = false;
    },
    get firstFailure() {
      return firstFailure;
    },
  };
}

/** What the caller is told when the database, not the request, failed. */
function asApiError(error: unknown, code: string): unknown {
  if (error instanceof ApiError) return error;
  if (mayRunAgain(error, code)) return new ApiError(DATABASE_BUSY);
  if (error instanceof DatabaseUnavailable) {
    const since = error.since ? ` since ${error.since.toISOString()} (${error.reason})` : ` (${error.reason})`;
    return new ApiError(DATABASE_UNAVAILABLE, { since, then: 'try again shortly' });
  }
  if (isConnectionFailure(error)) return new ApiError(DATABASE_UNAVAILABLE, { since: '', then: 'try again shortly' });
  return error;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every transaction runs in the schema (search_path; `quoted`, an identifier), which the first one creates. */
function inSchema(driver: SqlDriver, quoted: string): SqlDriver {
  let created = false;
  const enter = async (session: SqlSession) => {
    if (!created) await session.query({ text: `CREATE SCHEMA IF NOT EXISTS ${quoted}`, values: [] });
    created = true;
    await session.query({ text: `SET LOCAL search_path TO ${quoted}`, values: [] });
  };
  return {
    transaction: (mode: TransactionMode, work, durability, deadlineMs) =>
      driver.transaction(
        mode,
        async (session) => {
          await enter(session);
          return work(session);
        },
        durability,
        deadlineMs,
      ),
    close: () => driver.close(),
  };
}
