// Opening the IndexedDB store: a connection kept across requests, and one
// IndexedDB transaction per request, committed whole or not at all.
import { connection } from './connection.js';
import { ALL_STORES, DATABASE_NAME, type RawTransaction } from './schema.js';
import { IndexedDbTransaction } from './transaction.js';
import type { Store } from '../port.js';

export interface IndexedDbStoreOptions {
  /** The database name; tests use their own. */
  name?: string;
  /** Told when the database on disk is newer than this code: a newer Questboard opened it in another tab. */
  onNewerVersion?: () => void;
}

/** Opens the Questboard database of this origin on first use. */
export function openIndexedDbStore({ name = DATABASE_NAME, onNewerVersion }: IndexedDbStoreOptions = {}): Store {
  const database = connection(name, onNewerVersion);

  async function run<T>(
    mode: IDBTransactionMode,
    work: (tx: IndexedDbTransaction) => Promise<T>,
    durability: 'strict' | 'default' = 'default',
  ): Promise<T> {
    const db = await database.get();
    const raw = db.transaction(ALL_STORES, mode, { durability }) as unknown as RawTransaction;
    const tx = new IndexedDbTransaction(raw);
    try {
      const result = await work(tx);
      if (mode === 'readwrite') await tx.flush();
      await raw.done;
      return result;
    } catch (error) {
      // Nothing of a failed write may stay: abort unless IndexedDB already did.
      try {
        raw.abort();
      } catch {
        // already finished or aborted
      }
      raw.done.catch(() => undefined);
      throw error;
    }
  }

  return {
    read: (work) => run('readonly', work),
    write: (work, options) => run('readwrite', work, options?.durability),
    // The database is opened by the first request and answers while this page or worker lives.
    ping: async () => {
      await database.get();
    },
    close: async () => database.close(),
  };
}
