// The database layout: its stores, their keys and indexes, as the current version has them.
// How each version came to be is migrations.ts.
import type { DBSchema, IDBPTransaction, StoreNames } from 'idb';
import type {
  ApiKeyRecord,
  AppRecord,
  GroupKey,
  ChallengeRecord,
  EndorsementRecord,
  IdempotencyRecord,
  LogRecord,
  MemberChallengeRecord,
  ProgressRecord,
  TaskRecord,
  UserRecord,
} from '../records.js';
import type { BoardCountRecord, RowsRecord, RunKey, RunsRecord } from './board-records.js';

export const DATABASE_NAME = 'questboard';

export interface QuestboardSchema extends DBSchema {
  meta: { key: string; value: unknown };
  apps: { key: string; value: AppRecord };
  api_keys: { key: string; value: ApiKeyRecord; indexes: { by_app: string } };
  users: {
    key: [string, string];
    value: UserRecord;
  };
  challenges: { key: string; value: ChallengeRecord; indexes: { by_app: string } };
  tasks: { key: string; value: TaskRecord; indexes: { by_app: string } };
  progress: { key: [string, string]; value: ProgressRecord; indexes: { by_app: string } };
  member_challenges: { key: [string, string]; value: MemberChallengeRecord; indexes: { by_app: string } };
  endorsements: { key: [string, string, string, string]; value: EndorsementRecord };
  logs: { key: number; value: LogRecord; indexes: { by_app: string } };
  idempotency: { key: [string, string]; value: IdempotencyRecord; indexes: { by_created: number } };
  board_counts: { key: GroupKey; value: BoardCountRecord };
  board_runs: { key: GroupKey; value: RunsRecord };
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
  'board_counts',
  'board_runs',
  'board_rows',
];

// Typed as readwrite so writes type-check; IndexedDB itself refuses them in a read.
export type RawTransaction = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite'>;
