import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** The remote setting, kept so a restarted worker still knows where to go. */
export interface RemoteSettings {
  /** Base URL of the remote server, without a trailing slash; null serves everything locally. */
  remote: string | null;
  timeout_ms: number;
}

/** The last good answer to one GET, for when the remote cannot be reached. */
export interface CachedAnswer {
  /** Hash of the caller's Authorization, a space, and the remote URL asked. */
  key: string;
  status: number;
  content_type: string | null;
  body: string;
  /** Epoch ms when the remote gave this answer. */
  stored_at: number;
}

/** A member token as a queued write keeps it: AES-GCM ciphertext (sealed-token.ts). */
export interface SealedToken {
  iv: Uint8Array;
  data: ArrayBuffer;
}

/** A write made while the remote was unreachable, waiting to be replayed. */
export interface QueuedWrite {
  /** Order of arrival; assigned by IndexedDB. */
  seq?: number;
  operation: string;
  url: string;
  content_type: string | null;
  body: string;
  /** Hash of the caller's Authorization: the key itself is only ever kept in memory. */
  key_hash: string;
  /** The member token it was made with, sealed; absent for a write made without one. */
  member_token?: SealedToken;
  /** Sent with every attempt, so a replay after a lost answer is not applied twice. */
  idempotency_key: string;
  /** Epoch ms. */
  queued_at: number;
  /** Replays the remote answered with a 5xx, bounded by MAX_FAILED_REPLAYS. */
  failed_replays: number;
}

interface RemoteSchema extends DBSchema {
  settings: { key: 'remote'; value: RemoteSettings };
  answers: { key: string; value: CachedAnswer; indexes: { by_stored_at: number } };
  outbox: { key: number; value: QueuedWrite };
  /** The key that seals the outbox's member tokens, made once (sealed-token.ts). */
  keys: { key: string; value: CryptoKey };
}

export type RemoteDatabase = IDBPDatabase<RemoteSchema>;

export const DEFAULT_REMOTE_DATABASE = 'questboard-remote';

/** `onClosed` runs when the connection is gone (another context deletes or upgrades the database), so the caller reopens. */
export function openRemoteDatabase(name: string, onClosed: () => void): Promise<RemoteDatabase> {
  const database = openDB<RemoteSchema>(name, 2, {
    blocking() {
      void database.then((db) => db.close());
      onClosed();
    },
    terminated: onClosed,
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('settings');
        db.createObjectStore('answers', { keyPath: 'key' }).createIndex('by_stored_at', 'stored_at');
        db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      }
      if (oldVersion < 2) db.createObjectStore('keys');
    },
  });
  return database;
}
