// The thread that owns the server's PGlite (pglite-thread.ts starts it): its
// statements run here, so a disk that stalls or fails stalls this thread,
// never the server's event loop. It also makes PGlite durable: as shipped it
// runs with fsync off, and under Node its file system cannot sync at all.
import { fsyncSync } from 'node:fs';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** workerData.role of this thread: the server's bundle is its module, and only this role serves. */
export const PGLITE_WORKER = 'questboard-pglite';

export interface WorkerData {
  role: typeof PGLITE_WORKER;
  dataDir: string;
}

/** To the worker: a statement, or the end (close). One at a time: the next is sent once this one is answered. */
export type Request = { text: string; values: unknown[] } | { close: true };

/** The error of a statement, as it can cross threads: its message and PostgreSQL's fields. */
export interface SentError {
  message: string;
  code?: string;
  severity?: string;
  detail?: string;
}

/** From the worker: opened, a statement's rows, closed, or what failed. */
export type Reply = { opened: true } | { rows: unknown[] } | { closed: true } | { error: SentError };

/**
 * From the worker, unasked: PostgreSQL stopped (PANIC, then abort). Its statement may be
 * answered with an error, or never; no statement after it is.
 */
export interface Stopped {
  stopped: string;
}

/** What PGlite writes on stderr when PostgreSQL stops: "PANIC:  could not write to log file …: Read-only file system". */
const STOPPING = /\bPANIC:\s+(.*)|^Aborted\(/;

/**
 * PGlite's own start parameters, less `-F` (fsync off), and with its WAL synced by fsync():
 * PostgreSQL's default on Linux, fdatasync(), is a no-op in Emscripten (measured: 0 syscalls
 * for 200 commits), where fsync() reaches the file system's stream (SyncingNodeFS).
 */
const START_PARAMS = [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'];

/**
 * Emscripten's NODEFS with the fsync it lacks (its streams have none, so every fsync of
 * PostgreSQL's, the WAL at each commit included, did nothing): an fsync of the real file.
 */
class SyncingNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const { emscriptenOpts } = await super.init(...args);
    const syncStreams = (module: { NODEFS: { stream_ops: Record<string, unknown> } }) => {
      module.NODEFS.stream_ops.fsync = (stream: { nfd: number }) => {
        fsyncSync(stream.nfd);
        return 0;
      };
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), syncStreams] } };
  }
}

const sent = (error: unknown): SentError => {
  const { message, code, severity, detail } = error as Partial<SentError>;
  return { message: String(message ?? error), code, severity, detail };
};

async function serve(port: MessagePort, { dataDir }: WorkerData): Promise<void> {
  let db: PGlite;
  try {
    db = await PGlite.create({
      fs: new SyncingNodeFS(dataDir),
      startParams: START_PARAMS,
      onStderr: (text) => {
        const stopping = STOPPING.exec(text);
        if (stopping !== null) port.postMessage({ stopped: stopping[1] ?? text } satisfies Stopped);
        return false;
      },
    });
  } catch (error) {
    port.postMessage({ error: sent(error) } satisfies Reply);
    return;
  }
  port.on('message', (request: Request) => {
    const answered =
      'close' in request
        ? db.close().then((): Reply => ({ closed: true }))
        : db.query(request.text, request.values).then(({ rows }): Reply => ({ rows }));
    void answered
      .catch((error: unknown): Reply => ({ error: sent(error) }))
      .then((reply) => {
        port.postMessage(reply);
        if ('closed' in reply) port.close();
      });
  });
  port.postMessage({ opened: true } satisfies Reply);
}

if (!isMainThread && parentPort !== null && (workerData as Partial<WorkerData> | null)?.role === PGLITE_WORKER) {
  void serve(parentPort, workerData as WorkerData);
}
