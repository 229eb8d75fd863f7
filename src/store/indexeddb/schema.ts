// The database layout: its stores, their keys and indexes, as the current version has them.
// How each version came to be is migrations.ts.
import type { DBSchema, IDBPTransaction, StoreNames } from 'idb';
import type { RecordKeys, RecordKind, Records } from '../port.js';
import type { AuditRecord, LogRecord, TransferRecord } from '../records.js';
import type { RowsRecord, RunKey, RunsRecord } from './board-records.js';

export const DATABASE_NAME = 'questboard';

/** The store of one kind of the port's records, under the key that identifies it (port.ts). */
type RecordStore<K extends RecordKind> = { key: RecordKeys[K]; value: Records[K] };

export interface QuestboardSchema extends DBSchema {
  meta: { key: string; value: unknown };
  apps: RecordStore<'apps'>;
  api_keys: RecordStore<'api_keys'> & { indexes: { by_app: string } };
  users: RecordStore<'users'>;
  challenges: RecordStore<'challenges'> & { indexes: { by_app: string } };
  tasks: RecordStore<'tasks'> & { indexes: { by_app: string } };
  progress: RecordStore<'progress'> & { indexes: { by_app: string } };
  member_challenges: RecordStore<'member_challenges'> & { indexes: { by_app: string } };
  endorsements: RecordStore<'endorsements'>;
  logs: { key: number; value: LogRecord; indexes: { by_app: string } };
  idempotency: RecordStore<'idempotency'> & { indexes: { by_created: number } };
  badge_awards: RecordStore<'badge_awards'>;
  audit: { key: [string, number, string]; value: AuditRecord };
  transfers: { key: [string, number, string]; value: TransferRecord };
  submissions: RecordStore<'submissions'> & {
    indexes: {
      by_app: [string, number, string];
      by_status: [string, string, number, string];
      by_member: [string, string, number, string];
    };
  };
  attempts: RecordStore<'attempts'> & { indexes: { by_app: string } };
  /** Each season's board lies in board_runs and board_rows with the others' (season-boards.ts). */
  season_points: RecordStore<'season_points'>;
  board_runs: { key: RunKey; value: RunsRecord };
  board_rows: { key: RunKey; value: RowsRecord };
}

export type StoreName = StoreNames<QuestboardSchema>;

export const ALL_STORES: StoreName[] = [
  'meta',
  'apps',
  'api_keys',
  'users',
  'challenges',
  'tasks',
  'progress',
  'member_challenges',
  'endorsements',
  'logs',
  'idempotency',
  'badge_awards',
  'audit',
  'transfers',
  'submissions',
  'attempts',
  'season_points',
  'board_runs',
  'board_rows',
];

// Typed as readwrite so writes type-check; IndexedDB itself refuses them in a read.
export type RawTransaction = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite'>;
