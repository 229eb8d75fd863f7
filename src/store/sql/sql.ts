// SQL as tagged templates, as postgres.js writes it: values become numbered
// parameters, never text in the statement. The one driver interface both
// engines (PostgreSQL through postgres.js, PGlite in this process) implement.

export interface Query {
  text: string;
  values: unknown[];
}

/** A fragment spliced into a statement as it is, for names this code chose (tables, columns), never input. */
export class Identifier {
  constructor(readonly text: string) {}
}

/** A statement, or a fragment of one: a Query among the values is spliced in with its own values. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Query {
  return new Fragment(strings, values);
}

/**
 * Kept as written and numbered once, when its text is first read. Fragments nest several deep
 * (a period board's tail is some 5 KB of them), and renumbering each one's parameters as it was
 * spliced rewrote the text at every level: a weekly tail's request took 0.97× as long without.
 */
class Fragment implements Query {
  private flat: Query | undefined;

  constructor(
    private readonly strings: readonly string[],
    private readonly parts: readonly unknown[],
  ) {}

  get text(): string {
    return this.flattened().text;
  }

  get values(): unknown[] {
    return this.flattened().values;
  }

  private flattened(): Query {
    if (this.flat === undefined) {
      const text: string[] = [];
      const values: unknown[] = [];
      this.write(text, values, new Map());
      this.flat = { text: text.join(''), values };
    }
    return this.flat;
  }

  /**
   * Appends its text to `text`, its values to `values`, numbered after those there. A text
   * cast alike where it recurs (`${app_id}::text`) is one parameter, numbered once (`numbered`,
   * by parameterKey): a period page and its tail named their app, board and period 50 times
   * between them, and a request's statements outgrew what postgres.js sends in one write
   * (1 KB), a system call more for the read.
   */
  private write(text: string[], values: unknown[], numbered: Map<string, number>): void {
    text.push(this.strings[0]!);
    this.parts.forEach((part, index) => {
      const after = this.strings[index + 1]!;
      if (part instanceof Identifier) text.push(part.text);
      else if (part instanceof Fragment) part.write(text, values, numbered);
      else {
        const key = parameterKey(part, after);
        let number = key === null ? undefined : numbered.get(key);
        if (number === undefined) {
          number = values.push(part);
          if (key !== null) numbered.set(key, number);
        }
        text.push(`$${number}`);
      }
      text.push(after);
    });
  }
}

/** A cast to a type of one value (`::text`, not `::text[]`). */
const CAST = /^::([a-z0-9_]+)(?![a-z0-9_[])/;

/**
 * What makes two parameters one: the same text under the same cast (the cast fixes the
 * parameter's type, which PostgreSQL deduces once for all its uses). Only text, the names of
 * an app, a board, a period: numbers equal by chance (an offset and a limit of 100) would make
 * another statement of the same one, prepared and planned again. null where it stands alone.
 */
function parameterKey(value: unknown, after: string): string | null {
  const cast = CAST.exec(after)?.[1];
  return typeof value === 'string' && cast !== undefined ? `${cast} ${value}` : null;
}

/** One open transaction: statements run one after the other. */
export interface SqlSession {
  query<Row = Record<string, unknown>>(query: Query): Promise<Row[]>;
  /**
   * Where present (PostgreSQL's, in a write): sends COMMIT behind every statement sent so far,
   * without waiting for their answers; the work sends nothing after it, and the transaction
   * waits for the COMMIT as for its own. A write's flush calls it with its last statements
   * (transaction.ts), a round trip less while the write holds its rows. A statement before it
   * that fails aborts the transaction, and the COMMIT then rolls it back.
   */
  commit?(): void;
}

export type TransactionMode = 'read' | 'write';

/**
 * When a write is answered (the port's durability): 'strict' once its COMMIT is on disk;
 * 'relaxed' once committed, its log reaching the disk a moment later (synchronous_commit off),
 * as IndexedDB's default durability does in a browser. On PostgreSQL, a crash of the database
 * or its machine may lose the last moment's relaxed writes, each whole, never part of one; a
 * crash of this process loses nothing answered, and every connection sees a write once it is
 * answered. PGlite, inside this process, keeps every write strict (pglite-driver.ts).
 */
export type Durability = 'strict' | 'relaxed';

/**
 * The connections a PostgreSQL driver keeps (postgres-driver.ts) unless told otherwise: few. A
 * server process is one thread, which a few transactions in flight keep busy; identical reads
 * that arrive while one waits for a connection are answered once (src/server/shared-reads.ts); and
 * each connection more is one more backend for the database's cores to switch between. On a
 * 2-core machine serving a million members, 4 connections served 40% more reads a second than
 * 10, and 20 a third fewer (docs/performance.md). A database with cores to spare may take more
 * (the server's --database-connections).
 */
export const DEFAULT_CONNECTIONS = 4;

/**
 * The SQLSTATE of a statement sent behind one that failed in the same transaction, and of a
 * COMMIT that rolled back for it (postgres-driver.ts): never the cause of the failure.
 */
export const IN_FAILED_TRANSACTION = '25P02';

/** Sent after BEGIN in a relaxed write: its COMMIT does not wait for the disk. */
export const RELAXED_COMMIT = 'SET LOCAL synchronous_commit TO off';

/**
 * Errors of a database that cannot be reached, from either driver (ENOENT: no socket file, a
 * stopped server's; 57P01–57P03: shutting down or starting up).
 */
const UNREACHABLE =
  /ECONNREFUSED|ECONNRESET|ENOENT|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|EPIPE|CONNECT_TIMEOUT|CONNECTION_(CLOSED|ENDED|DESTROYED)|57P0[1-3]/;

/** An error's code (a SQLSTATE, a driver's or Node's), or '' where it has none. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** Whether the error is the database's connection failing, not a statement's own. */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true;
  return UNREACHABLE.test(errorCode(error)) || UNREACHABLE.test(String((error as Error | null)?.message));
}

/**
 * The database does not answer, said without its address (health is public): thrown at once
 * while the driver knows it unreachable, and by a wait that passed its deadline.
 */
export class DatabaseUnavailable extends Error {
  constructor(
    /** Why, for the answer: "it refuses connections", "no answer within 5000 ms". */
    readonly reason: string,
    /** Since when it has been known unreachable, if it is. */
    readonly since?: Date,
  ) {
    super(`the database does not answer: ${reason}`);
  }
}

export interface SqlDriver {
  /**
   * Runs the work in one transaction: reads at REPEATABLE READ, so a request
   * sees one snapshot; writes at READ COMMITTED, with the rows they read locked
   * (SqlTransaction). Commits if the work returns, rolls back if it throws. A write is
   * strict unless asked to be relaxed. Where the driver bounds its waits (PostgreSQL's), each
   * statement is answered within `deadlineMs` (the driver's own deadline unless given) or the
   * transaction fails with DatabaseUnavailable.
   */
  transaction<T>(
    mode: TransactionMode,
    work: (session: SqlSession) => Promise<T>,
    durability?: Durability,
    deadlineMs?: number,
  ): Promise<T>;
  /**
   * Runs statements refused inside a transaction (VACUUM) one after the other: on PostgreSQL on
   * one connection beside the pool, on PGlite in its turn. The store keeps the tables' statistics
   * and visibility current with it as they grow (open-store.ts): on PostgreSQL, where each
   * statement is planned once on its connection and the plan kept, so that no plan made for
   * small tables goes on reading large ones; on PGlite, which runs no autovacuum, so that the
   * planner knows the tables at all (without statistics it planned a season of 100,000 members as
   * four rows, and sorted them all for its first page: 48 ms, against 4 by its index).
   */
  maintain?(statements: string[]): Promise<void>;
  /**
   * Present where the driver knows more of its storage than a statement shows (PGlite in a
   * data directory, src/server/pglite-thread.ts): rejects while it could not take a write (a full
   * disk, a failed or stalled directory). The store's ping, health's, calls it first.
   */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/** The transaction modes of BEGIN (or SET TRANSACTION) for each kind of transaction. */
export const TRANSACTION_MODES: Record<TransactionMode, string> = {
  read: 'ISOLATION LEVEL REPEATABLE READ, READ ONLY',
  write: 'ISOLATION LEVEL READ COMMITTED',
};

/**
 * PostgreSQL text cannot hold U+0000, which the API takes in ids. Strings go
 * in with U+0000 and U+0001 escaped behind U+0001, a code that keeps equality
 * and order (COLLATE "C"), and come out unescaped. Records travel as JSON
 * text, which escapes both already.
 */
// oxlint-disable-next-line no-control-regex -- the control characters are the point
const escapeText = (text: string) => text.replace(/[\0\x01]/g, (c) => (c === '\0' ? '\x01\x01' : '\x01\x02'));
// oxlint-disable-next-line no-control-regex -- as above
const unescapeText = (text: string) => text.replace(/\x01([\x01\x02])/g, (_, c: string) => (c === '\x01' ? '\0' : '\x01'));

const escapeValue = (value: unknown): unknown =>
  typeof value === 'string' ? escapeText(value) : Array.isArray(value) ? value.map(escapeValue) : value;

export function textSafe(session: SqlSession): SqlSession {
  return {
    commit: () => session.commit?.(),
    async query<Row>({ text, values }: Query) {
      const rows = await session.query<Record<string, unknown>>({ text, values: values.map(escapeValue) });
      // for…in, not Object.entries: a page's hundred rows made an array per row and per column,
      // 6% of a leaderboard read's time in the server.
      for (const row of rows) {
        for (const column in row) {
          const value = row[column];
          if (typeof value === 'string' && value.includes('\x01')) row[column] = unescapeText(value);
        }
      }
      return rows as Row[];
    },
  };
}
