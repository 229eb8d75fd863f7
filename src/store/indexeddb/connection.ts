// The connection to the database, kept across requests, and the answers while
// another tab's Questboard holds it at another version: on its own, IndexedDB
// waits forever for an older one to let go and refuses a newer one with a bare
// VersionError.
import { openDB, type IDBPDatabase } from 'idb';
import { NEWER_VERSION_OPEN, OLDER_VERSION_OPEN } from '../../api/error-codes.js';
import { ApiError } from '../../api/errors.js';
import { DATABASE_VERSION, migrate } from './migrations.js';
import type { QuestboardSchema } from './schema.js';

/**
 * How long requests wait for an upgrade that an older version's connection in
 * another tab blocks, before they answer 503. The open stays pending meanwhile,
 * so the first request after that tab lets go is served.
 */
const BLOCKED_WAIT_MS = 3000;

export interface Connection {
  /** The open database, opened (or upgraded) on first use and again after another tab took it away. */
  get(): Promise<IDBPDatabase<QuestboardSchema>>;
  close(): void;
}

interface Opening {
  database: Promise<IDBPDatabase<QuestboardSchema>>;
  /**
   * For one request: settles BLOCKED_WAIT_MS after it came or after the open
   * was blocked, whichever is later; 503 if still blocked then, else as the open does.
   */
  afterWait(): Promise<IDBPDatabase<QuestboardSchema>>;
}

/** `onNewerVersion` is told each time the database turns out newer than this code. */
export function connection(name: string, onNewerVersion?: () => void): Connection {
  let opening: Opening | null = null;

  function open(): Opening {
    // An upgrade begins only once no other connection holds the database.
    let upgrading = false;
    let onBlocked!: () => void;
    const blocked = new Promise<void>((resolve) => (onBlocked = resolve));
    const database = openDB<QuestboardSchema>(name, DATABASE_VERSION, {
      upgrade: (db, oldVersion, _newVersion, tx) => {
        upgrading = true;
        migrate(db, oldVersion, tx);
      },
      blocked: () => onBlocked(),
      // Another tab or a test wants to upgrade or delete the database: let go
      // of it and reconnect on the next request.
      blocking: (_current, _next, event) => {
        (event.target as IDBDatabase).close();
        opening = null;
      },
      terminated: () => {
        opening = null;
      },
    }).catch((error: unknown) => {
      opening = null;
      if (!(error instanceof DOMException && error.name === 'VersionError')) throw error;
      onNewerVersion?.();
      throw new ApiError(NEWER_VERSION_OPEN);
    });
    return {
      database,
      afterWait: () =>
        blocked
          .then(() => new Promise((resolve) => setTimeout(resolve, BLOCKED_WAIT_MS)))
          .then(() => (upgrading ? database : Promise.reject(new ApiError(OLDER_VERSION_OPEN)))),
    };
  }

  return {
    get() {
      const current = (opening ??= open());
      return Promise.race([current.database, current.afterWait()]);
    },
    close() {
      void opening?.database.then(
        (db) => db.close(),
        () => undefined,
      );
      opening = null;
    },
  };
}
