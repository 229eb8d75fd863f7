// The server's store: where the data lives (the SQL store on PostgreSQL, or
// PGlite in a directory or in memory), checked and opened, and every failure
// to open it said in one line naming what was being opened.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Store } from '../store/index.js';
import { openSqlStore } from '../store/sql/index.js';
import type { StorageOptions } from './options.js';
import { reasonOf, StartupError } from './startup-error.js';

const DATABASE_URL_SHAPE = 'postgres://user:password@host:5432/database';

/** Opens where the data lives, or throws a StartupError saying what could not be opened and why. */
export async function openServerStore(storage: StorageOptions): Promise<Store> {
  const what = describeStorage(storage);
  try {
    await checkStorage(storage);
    return await openSqlStore(storage);
  } catch (error) {
    throw new StartupError(`cannot open ${what}: ${reasonOf(error)}`);
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

/** What can be known before opening: a URL PostgreSQL takes, a directory this process may write in. */
async function checkStorage(storage: StorageOptions): Promise<void> {
  if ('databaseUrl' in storage) {
    const url = parseDatabaseUrl(storage.databaseUrl);
    // Never the text itself: a malformed URL may still hold a password.
    if (url === null) throw new Error(`its URL is malformed: write it as ${DATABASE_URL_SHAPE}`);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
      throw new Error(`its URL must start with postgres:// or postgresql://, not ${url.protocol}//`);
    }
  }
  if ('dataDir' in storage) {
    // Written to, not just looked at: permissions say nothing of a read-only disk, nor to root.
    await mkdir(storage.dataDir, { recursive: true });
    const probe = join(storage.dataDir, `.questboard-write-check-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
  }
}

function parseDatabaseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
