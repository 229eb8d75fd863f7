// The server's store: where the data lives (the SQL store on PostgreSQL, or
// PGlite in a directory or in memory), checked and opened, and every failure
// to open it said in one line naming what was being opened.
import { access, link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { openSqlStore, type SqlStore, type SqlStoreOptions } from '../store/sql/index.js';
import { pgliteThreadDriver } from './pglite-thread.js';
import type { StorageOptions } from './options.js';
import { reasonOf, StartupError } from './startup-error.js';

const DATABASE_URL_SHAPE = 'postgres://user:password@host:5432/database';

/**
 * Whether the store is one that several server processes may share (PostgreSQL): each write then
 * announces its changes to every process (openSqlStore's announceChanges), which each hears
 * through its feed (postgres-change-feed.ts). Otherwise one process's feed is in the process.
 */
export const sharesChanges = (storage: StorageOptions): storage is Extract<StorageOptions, { databaseUrl: string }> =>
  'databaseUrl' in storage;

/**
 * Whether opening the store creates its database: a data directory that holds none yet (PGlite's
 * first start runs initdb, which takes up to a minute on a busy machine).
 */
export async function createsDatabase(storage: StorageOptions): Promise<boolean> {
  if (!('dataDir' in storage)) return false;
  return access(join(storage.dataDir, 'PG_VERSION')).then(
    () => false,
    () => true,
  );
}

/**
 * Opens where the data lives, or throws a StartupError saying what could not be opened and why.
 * A data directory's PGlite runs in a thread of its own (pglite-thread.ts); `onStorageFailure`
 * hears when that directory fails for good (read-only, failing), after which every request is
 * refused.
 */
export async function openServerStore(
  storage: StorageOptions,
  onStorageFailure: (error: Error) => void = (error) => process.stderr.write(`questboard-server: ${error.message}\n`),
): Promise<SqlStore> {
  const what = describeStorage(storage);
  let unlock = async () => {};
  try {
    await checkStorage(storage);
    let options: SqlStoreOptions = storage;
    if ('dataDir' in storage) {
      unlock = await lockDataDir(storage.dataDir);
      options = { driver: await pgliteThreadDriver(storage.dataDir, { onFailure: onStorageFailure }) };
    }
    const store = await openSqlStore({ ...options, announceChanges: sharesChanges(storage) });
    return { ...store, close: () => store.close().finally(unlock) };
  } catch (error) {
    await unlock();
    throw new StartupError(`cannot open ${what}: ${reasonOf(error)}`);
  }
}

/**
 * The file a server keeps in its data directory while it runs, holding its process id. PGlite
 * takes no lock of its own, and two processes writing one directory corrupt its indexes (seen:
 * "heap tid from index tuple points to heap-only tuple").
 */
export const DATA_DIR_LOCK = 'questboard-server.pid';
/** The locks this process holds, by path. */
const lockedHere = new Set<string>();

/**
 * Takes the data directory for this process (made if missing), or throws when a running process
 * holds it. A lock whose process has ended (killed, or the machine stopped) is taken over.
 * Resolves to what lets the directory go.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = resolve(dataDir, DATA_DIR_LOCK);
  if (lockedHere.has(path)) throw new Error('this process is using it already');
  const holderOf = async () => Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  await mkdir(dataDir, { recursive: true });
  // Written whole beside it, then linked into place: the lock is never seen without its id. The
  // write is also the check that this process may write there: permissions say nothing of a
  // read-only disk, nor to root.
  const written = `${path}.${process.pid}`;
  await writeFile(written, `${process.pid}\n`);
  for (;;) {
    try {
      await link(written, path);
      await rm(written);
      lockedHere.add(path);
      return async () => {
        lockedHere.delete(path);
        await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        await rm(written, { force: true });
        throw error;
      }
    }
    const holder = await holderOf();
    // Our own id, yet not locked here: left behind by a server restarted with the same id (in a container).
    if (Number.isInteger(holder) && holder !== process.pid && isRunning(holder)) {
      await rm(written, { force: true });
      throw new Error(
        `another server (process ${holder}) is using it: stop that one, or give this one a --data-dir of its own ` +
          `(if no such server runs, remove ${path})`,
      );
    }
    // Read again just before: a server starting beside this one may have taken it over since.
    if (Object.is(await holderOf(), holder)) await rm(path, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Where the data lives, for messages: a database URL without its password or its parameters (which may hold one). */
export function describeStorage(storage: StorageOptions): string {
  if ('memory' in storage) return 'the in-memory store';
  if ('dataDir' in storage) return `the data directory ${resolve(storage.dataDir)}`;
  const url = parseDatabaseUrl(storage.databaseUrl);
  if (url === null) return 'the database';
  if (url.password !== '') url.password = '***';
  url.search = '';
  return `the database ${url.href}`;
}

/** What can be known of a database URL before opening: one PostgreSQL takes. */
async function checkStorage(storage: StorageOptions): Promise<void> {
  if ('databaseUrl' in storage) {
    const url = parseDatabaseUrl(storage.databaseUrl);
    // Never the text itself: a malformed URL may still hold a password.
    if (url === null) throw new Error(`its URL is malformed: write it as ${DATABASE_URL_SHAPE}`);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
      throw new Error(`its URL must start with postgres:// or postgresql://, not ${url.protocol}//`);
    }
  }
}

function parseDatabaseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
