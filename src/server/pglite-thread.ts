// The server's PGlite in a data directory, run in a worker thread of its own
// (pglite-worker.ts): this side is the SqlDriver the store uses, sending each
// transaction's statements to the thread and waiting for its answers, each
// wait bounded. A disk that stalls or fails is then an answer (507 or 503)
// and a log line, while health and the rest of the server go on answering.
import { statfs } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { DISK_FULL, STORAGE_FAILED, STORAGE_NOT_ANSWERING } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { TRANSACTION_MODES, type Query, type SqlDriver } from '../store/sql/sql.js';
import { PGLITE_WORKER, type Reply, type Request, type SentError, type Stopped, type WorkerData } from './pglite-worker.js';

/** How long a statement, or a transaction waiting for its turn, may wait for the thread before it is refused. */
export const STATEMENT_WAIT_MS = 30_000;
/** How long the thread may go without answering a statement before health says so. */
const HEALTH_WAIT_MS = 5_000;
/** How long closing waits for the thread before ending it. */
const CLOSE_WAIT_MS = 10_000;
/**
 * Below this, health says the disk is full: PostgreSQL's WAL grows by segments of 16 MiB,
 * and a write that needs a new one fails.
 */
const FREE_SPACE_NEEDED = 16 * 1024 * 1024;

/** The refusals of a data directory that cannot take what it is asked: one place for all of them. */
const STORAGE_REFUSALS = {
  diskFull: () => new ApiError(DISK_FULL),
  failed: () => new ApiError(STORAGE_FAILED),
  stalled: () => new ApiError(STORAGE_NOT_ANSWERING),
};

/** SQLSTATEs of a file the database could not read or write: a read-only or failing disk (EROFS is 42501). */
const FILE_ACCESS_FAILED = new Set(['42501', '58030', '58P01']);
const DISK_FULL_SQLSTATE = '53100';

export interface PgliteThreadOptions {
  /** Told once, when the data directory fails for good (the thread ended, or a file could not be read or written). */
  onFailure: (error: Error) => void;
}

/** Starts the thread and opens PGlite in `dataDir` there; rejects with PGlite's reason if it cannot. */
export async function pgliteThreadDriver(dataDir: string, { onFailure }: PgliteThreadOptions): Promise<SqlDriver> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { role: PGLITE_WORKER, dataDir } satisfies WorkerData,
  });
  /** Those waiting for the thread's answers, in the order asked: it answers in that order. */
  const waiting: ((reply: Reply) => void)[] = [];
  /** Since when the oldest unanswered request waits (health reads it). */
  let waitingSince = 0;
  let failure: Error | null = null;
  let closing = false;

  const fail = (error: Error) => {
    if (failure !== null) return;
    failure = error;
    if (!closing) onFailure(error);
    void worker.terminate();
    for (const answer of waiting.splice(0)) answer({ error: { message: error.message } });
  };
  worker.on('message', (reply: Reply | Stopped) => {
    if ('stopped' in reply) return fail(new Error(`the data directory ${dataDir} failed: ${reply.stopped}`));
    waiting.shift()?.(reply);
    waitingSince = waiting.length > 0 ? Date.now() : 0;
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`PGlite's thread ended (exit code ${code})`)));

  const ask = (request: Request | null): Promise<Reply> =>
    new Promise((resolve) => {
      if (failure !== null) return resolve({ error: { message: failure.message } });
      if (waiting.length === 0) waitingSince = Date.now();
      waiting.push(resolve);
      if (request !== null) worker.postMessage(request);
    });

  // The first answer says whether PGlite opened.
  const opened = await ask(null);
  if ('error' in opened) {
    closing = true;
    await worker.terminate();
    throw new Error(opened.error.message);
  }

  /** A statement's rows, or the refusal its failure is. */
  const run = async ({ text, values }: Query): Promise<unknown[]> => {
    if (failure !== null) throw STORAGE_REFUSALS.failed();
    const reply = await withinWait(ask({ text, values }));
    if ('rows' in reply) return reply.rows;
    if ('error' in reply) throw refusalOf(reply.error);
    throw new Error('PGlite answered a statement with no rows');
  };

  const refusalOf = (error: SentError): Error => {
    if (failure !== null) return STORAGE_REFUSALS.failed();
    if (error.code === DISK_FULL_SQLSTATE) return STORAGE_REFUSALS.diskFull();
    if (error.code !== undefined && FILE_ACCESS_FAILED.has(error.code)) {
      fail(new Error(`the data directory ${dataDir} failed: ${error.message}`));
      return STORAGE_REFUSALS.failed();
    }
    // PostgreSQL's own error, with its SQLSTATE: the store runs conflicts again by it.
    return Object.assign(new Error(error.message), error);
  };

  /** The turn under way last (a transaction's, or maintenance's): the next one begins once it has ended. */
  let last: Promise<void> = Promise.resolve();

  /** Waits for this turn, after the one before it; returns what ends it, which lets the next begin. */
  const turn = async (): Promise<() => void> => {
    const before = last;
    let ended!: () => void;
    last = new Promise((resolve) => (ended = resolve));
    try {
      await withinWait(before);
    } catch (error) {
      // Its turn may still come: it passes it on once the one before ends, not before.
      void before.then(ended);
      throw error;
    }
    return ended;
  };

  return {
    // Every write strict, relaxed or not: a crash of the server is one of its database, and a
    // relaxed write answered would be lost with it.
    async transaction(mode, work) {
      const ended = await turn();
      try {
        await run({ text: `BEGIN ${TRANSACTION_MODES[mode]}`, values: [] });
        const result = await work({ query: async (query) => (await run(query)) as never });
        await run({ text: 'COMMIT', values: [] });
        return result;
      } catch (error) {
        // Sent before the next transaction's BEGIN, which the thread then runs after it.
        if (failure === null) void ask({ text: 'ROLLBACK', values: [] });
        throw error;
      } finally {
        ended();
      }
    },
    // In its turn, as a transaction takes it, but outside one: VACUUM is refused inside one.
    async maintain(statements) {
      const ended = await turn();
      try {
        for (const text of statements) await run({ text, values: [] });
      } finally {
        ended();
      }
    },
    async ping() {
      if (failure !== null) throw STORAGE_REFUSALS.failed();
      if (waitingSince !== 0 && Date.now() - waitingSince > HEALTH_WAIT_MS) throw STORAGE_REFUSALS.stalled();
      const { bavail, bsize } = await statfs(dataDir);
      if (bavail * bsize < FREE_SPACE_NEEDED) throw STORAGE_REFUSALS.diskFull();
    },
    async close() {
      closing = true;
      if (failure !== null) return;
      await withinWait(last, CLOSE_WAIT_MS).catch(() => undefined);
      const reply = await withinWait(ask({ close: true }), CLOSE_WAIT_MS).catch(() => null);
      await worker.terminate();
      if (reply === null) throw new Error(`PGlite's thread did not close within ${CLOSE_WAIT_MS / 1000} s`);
      if ('error' in reply) throw new Error(reply.error.message);
    },
  };
}

/** What `promise` resolves to, or the refusal of a stalled directory if that takes longer than `ms`. */
async function withinWait<T>(promise: Promise<T>, ms = STATEMENT_WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(STORAGE_REFUSALS.stalled()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
