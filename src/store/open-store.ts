// Opening the store: a connection kept across requests, and one IndexedDB
// transaction per request, committed whole or not at all.
import { connection } from './connection.js';
import { DATABASE_NAME } from './schema.js';
import { ALL_STORES, Transaction, type RawTransaction } from './transaction.js';

export interface Store {
  read<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs the work in one readwrite transaction: all of it commits, or none. */
  write<T>(work: (tx: Transaction) => Promise<T>, options?: { durability?: 'strict' | 'default' }): Promise<T>;
  close(): void;
}

export interface StoreOptions {
  /** The database name; tests use their own. */
  name?: string;
  /** Told when the database on disk is newer than this code: a newer Questboard opened it in another tab. */
  onNewerVersion?: () => void;
}

/** Opens the Questboard database of this origin on first use. */
export function openStore({ name = DATABASE_NAME, onNewerVersion }: StoreOptions = {}): Store {
  const database = connection(name, onNewerVersion);

  async function run<T>(
    mode: IDBTransactionMode,
    work: (tx: Transaction) => Promise<T>,
    durability: 'strict' | 'default' = 'default',
  ): Promise<T> {
    const db = await database.get();
    const raw = db.transaction(ALL_STORES, mode, { durability }) as unknown as RawTransaction;
    const tx = new Transaction(raw);
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
    close: () => database.close(),
  };
}
