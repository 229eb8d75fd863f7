// The PostgreSQL driver's connections: every wait on them has a deadline, and
// the pool knows when the database cannot be reached. Each connection is a
// postgres.js client of its own (max: 1): one whose reservation or statement
// outlived its deadline, or whose connection failed, is destroyed, never handed
// out again, and a new one takes its place. postgres.js's own pool can leave a
// reservation waiting for ever (porsager/postgres#1195: a queued reserve() is
// dropped when the connection it waits for closes), and a request with it.
import type postgres from 'postgres';
import { DatabaseUnavailable, errorCode, isConnectionFailure } from './sql.js';

export interface PostgresDeadlines {
  /** A connection reserved: waiting for a free one, and connecting it. */
  reserveMs: number;
  /** Each statement answered, COMMIT and ROLLBACK included, unless the transaction gives its own. */
  statementMs: number;
  /** A probe of the database (a new connection and SELECT 1) answered. */
  probeMs: number;
  /** Between two probes of a database known unreachable. */
  probeIntervalMs: number;
}

/** docs/server.md (Deadlines) says why each. */
export const DEFAULT_DEADLINES: PostgresDeadlines = {
  reserveMs: 5_000,
  statementMs: 10_000,
  probeMs: 1_500,
  probeIntervalMs: 1_000,
};

/** A connection reserved for one transaction. */
export interface Lease {
  connection: postgres.ReservedSql;
  /**
   * The statement's answer, or DatabaseUnavailable once `deadlineMs` have passed or the
   * connection failed: the connection is then destroyed at end().
   */
  answer<T>(statement: Promise<T>, deadlineMs?: number): Promise<T>;
  /** Whether a wait on the connection failed: nothing more is sent on it. */
  readonly broken: boolean;
  /** Gives the connection back, or destroys it when broken. */
  end(): void;
}

export interface ConnectionPool {
  /** A connection of its own, or DatabaseUnavailable at once while the database is known unreachable. */
  lease(): Promise<Lease>;
  close(): Promise<void>;
}

interface Waiter {
  give(client: postgres.Sql): void;
  refuse(error: Error): void;
}

/**
 * At most `max` connections, each `open()`ed when first needed. Once a connection fails or a
 * wait passes its deadline, a probe asks the database on a connection of its own; while it
 * does not answer, every lease is refused at once (the server answers 503 without waiting) and
 * the probe asks again every probeIntervalMs, until it answers.
 */
export function connectionPool(
  open: (options: { connect_timeout: number }) => postgres.Sql,
  max: number,
  deadlines: PostgresDeadlines,
): ConnectionPool {
  survivePostgresJsTypeFetch();
  const { reserveMs, statementMs, probeMs, probeIntervalMs } = deadlines;
  const connectTimeout = Math.ceil(reserveMs / 1000);
  const live = new Set<postgres.Sql>();
  const idle: postgres.Sql[] = [];
  const waiting: Waiter[] = [];
  let down: { reason: string; since: Date } | null = null;
  let probing = false;
  let closed = false;
  /** Reservations under way: close() lets each finish before it ends the clients (lease()). */
  const reserving = new Set<Promise<unknown>>();
  let nextProbe: ReturnType<typeof setTimeout> | undefined;

  const openClient = () => {
    const client = open({ connect_timeout: connectTimeout });
    live.add(client);
    return client;
  };
  /** A free client, a new one while fewer than `max` live, or the next one given back within the deadline. */
  const take = (deadlineMs: number): Promise<postgres.Sql> => {
    const client = idle.pop();
    if (client !== undefined) return Promise.resolve(client);
    if (live.size < max) return Promise.resolve(openClient());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        give: (client) => {
          clearTimeout(timer);
          resolve(client);
        },
        refuse: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(failed(new DatabaseUnavailable(`no connection free within ${reserveMs} ms`)));
      }, deadlineMs);
      waiting.push(waiter);
    });
  };
  const giveBack = (client: postgres.Sql) => {
    const waiter = waiting.shift();
    if (waiter) waiter.give(client);
    else idle.push(client);
  };
  /** Ends the client without waiting for its connection, and lets a waiter have a new one. */
  const destroy = (client: postgres.Sql) => {
    live.delete(client);
    client.end({ timeout: 0 }).catch(() => undefined);
    const waiter = waiting.shift();
    if (waiter) waiter.give(openClient());
  };

  /** A client and its reserved connection, within reserveMs; none once the pool is closed. */
  const reserve = async () => {
    const started = performance.now();
    const client = await take(reserveMs);
    if (closed) throw new Error('the database driver is closed');
    let connection: postgres.ReservedSql;
    try {
      connection = await within(client.reserve(), Math.max(0, reserveMs - (performance.now() - started)), reserveMs);
    } catch (error) {
      destroy(client);
      throw failed(error);
    }
    if (closed) {
      connection.release();
      throw new Error('the database driver is closed');
    }
    return { client, connection };
  };

  /** Starts probing, unless a probe is under way: the failure may be this connection's alone. */
  function failed(error: unknown): DatabaseUnavailable {
    const unavailable = error instanceof DatabaseUnavailable ? error : new DatabaseUnavailable(reasonOf(error));
    if (!probing && !closed) {
      probing = true;
      void probe();
    }
    return unavailable;
  }

  async function probe(): Promise<void> {
    const failure = await probeOnce();
    if (closed) return;
    if (failure === null) {
      down = null;
      probing = false;
      return;
    }
    down = { reason: failure, since: down?.since ?? new Date() };
    // Known down: those waiting for a connection are answered now, not at their deadline.
    for (const waiter of waiting.splice(0)) waiter.refuse(new DatabaseUnavailable(down.reason, down.since));
    nextProbe = setTimeout(() => void probe(), probeIntervalMs);
    // Probing is no reason for the process to stay.
    nextProbe.unref?.();
  }

  /** null once the database answers on a new connection, else why not. */
  async function probeOnce(): Promise<string | null> {
    const client = open({ connect_timeout: Math.ceil(probeMs / 1000) });
    try {
      await within(client.unsafe('SELECT 1').execute(), probeMs);
      return null;
    } catch (error) {
      return reasonOf(error);
    } finally {
      client.end({ timeout: 0 }).catch(() => undefined);
    }
  }

  return {
    async lease() {
      if (closed) throw new Error('the database driver is closed');
      if (down !== null) throw new DatabaseUnavailable(down.reason, down.since);
      // A client ended while it connects is not ended: postgres.js goes on connecting it, and it
      // stays open after close() (seen as the database's drop failing its type fetch, an
      // unhandled rejection). So close() waits for the reservations under way, then ends them all.
      const reservation = reserve();
      reserving.add(reservation);
      let client: postgres.Sql, connection: postgres.ReservedSql;
      try {
        ({ client, connection } = await reservation);
      } finally {
        reserving.delete(reservation);
      }
      let broken = false;
      return {
        connection,
        async answer<T>(statement: Promise<T>, deadlineMs = statementMs) {
          try {
            return await within(statement, deadlineMs);
          } catch (error) {
            if (!isConnectionFailure(error)) throw error;
            broken = true;
            throw failed(error);
          }
        },
        get broken() {
          return broken;
        },
        end() {
          if (broken) destroy(client);
          else {
            connection.release();
            giveBack(client);
          }
        },
      };
    },
    async close() {
      closed = true;
      clearTimeout(nextProbe);
      for (const waiter of waiting.splice(0)) waiter.refuse(new Error('the database driver is closed'));
      await Promise.allSettled(reserving);
      await Promise.all([...live].map((client) => client.end({ timeout: 5 })));
    },
  };
}

/**
 * The promise's outcome, or DatabaseUnavailable once `deadlineMs` have passed; `saidMs` is the
 * deadline the reason names (a reservation's whole, of which this wait may be the rest).
 * The promise itself is abandoned then: its connection is destroyed by whoever holds it.
 */
export function within<T>(promise: Promise<T>, deadlineMs: number, saidMs = deadlineMs): Promise<T> {
  promise.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailable(`no answer within ${saidMs} ms`)), deadlineMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Why the database could not be reached, in words that name no host (health is public). */
function reasonOf(error: unknown): string {
  if (error instanceof DatabaseUnavailable) return error.reason;
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return 'it refuses connections';
  if (code === 'ENOENT') return 'its socket file is missing';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name does not resolve';
  if (code === 'CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'connecting to it timed out';
  if (code === '57P01' || code === '57P02') return 'it is shutting down';
  if (code === '57P03') return 'it is starting up or shutting down';
  if (isConnectionFailure(error)) return 'it closed the connection';
  return `it failed (${code || (error as Error | null)?.message || 'no reason given'})`;
}

let surviving = false;

/**
 * postgres.js fetches the array types on each new connection in a promise no one awaits
 * (fetchArrayTypes in its connection.js): a connection lost or destroyed while that query is out
 * rejects it unhandled, and Node ends the process. Seen when a frozen database held a new
 * connection past its reservation's deadline. Those rejections, a connection's failure and
 * nothing else, are let go; any other stays fatal as by default.
 */
function survivePostgresJsTypeFetch(): void {
  if (surviving) return;
  surviving = true;
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionFailure(reason)) throw reason;
  });
}
