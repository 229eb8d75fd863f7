// The database layout and its migrations. Each version is one step from the
// previous, so an upgrade only does the work that is new.
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type {
  ApiKeyRecord,
  AppRecord,
  BoardCountRecord,
  SlotRecord,
  ChallengeRecord,
  EndorsementRecord,
  IdempotencyRecord,
  LogRecord,
  MemberChallengeRecord,
  ProgressRecord,
  TaskRecord,
  UserRecord,
} from './records.js';

import { rebuildPositions } from './board-positions.js';

export const DATABASE_NAME = 'questboard';
export const DATABASE_VERSION = 3;

export interface QuestboardSchema extends DBSchema {
  meta: { key: string; value: unknown };
  apps: { key: string; value: AppRecord };
  api_keys: { key: string; value: ApiKeyRecord; indexes: { by_app: string } };
  users: {
    key: [string, string];
    value: UserRecord;
    indexes: {
      board_score: IDBValidKey[];
      board_xp: IDBValidKey[];
      board_weekly: IDBValidKey[];
      board_monthly: IDBValidKey[];
      by_week_name: [string, string, string];
      by_month_name: [string, string, string];
    };
  };
  challenges: { key: string; value: ChallengeRecord; indexes: { by_app: string } };
  tasks: { key: string; value: TaskRecord; indexes: { by_app: string } };
  progress: { key: [string, string]; value: ProgressRecord; indexes: { by_app: string } };
  member_challenges: { key: [string, string]; value: MemberChallengeRecord; indexes: { by_app: string } };
  endorsements: { key: [string, string, string, string]; value: EndorsementRecord };
  logs: { key: number; value: LogRecord; indexes: { by_app: string } };
  idempotency: { key: [string, string]; value: IdempotencyRecord };
  board_counts: { key: IDBValidKey[]; value: BoardCountRecord };
  board_slots: { key: IDBValidKey[]; value: SlotRecord };
}

export type StoreName = StoreNames<QuestboardSchema>;

type UpgradeTransaction = IDBPTransaction<QuestboardSchema, StoreName[], 'versionchange'>;
type Migration = (db: IDBPDatabase<QuestboardSchema>, tx: UpgradeTransaction) => void;

const MIGRATIONS: Migration[] = [
  // Version 1: everything the /v1 API needs.
  (db) => {
    db.createObjectStore('meta');
    db.createObjectStore('apps', { keyPath: 'app_id' });
    db.createObjectStore('api_keys', { keyPath: 'key' }).createIndex('by_app', 'app_id');
    const users = db.createObjectStore('users', { keyPath: ['app_id', 'account_name'] });
    for (const board of ['board_score', 'board_xp', 'board_weekly', 'board_monthly'] as const) {
      users.createIndex(board, board);
    }
    db.createObjectStore('challenges', { keyPath: 'challenge_id' }).createIndex('by_app', 'app_id');
    db.createObjectStore('tasks', { keyPath: 'task_id' }).createIndex('by_app', 'app_id');
    db.createObjectStore('progress', { keyPath: ['task_id', 'account_name'] }).createIndex('by_app', 'app_id');
    db.createObjectStore('member_challenges', { keyPath: ['challenge_id', 'account_name'] }).createIndex(
      'by_app',
      'app_id',
    );
    db.createObjectStore('endorsements', { keyPath: ['app_id', 'from_account', 'to_account', 'endorsement_id'] });
    db.createObjectStore('logs', { keyPath: 'seq', autoIncrement: true }).createIndex('by_app', 'app_id');
    db.createObjectStore('idempotency', { keyPath: ['api_key', 'idempotency_key'] });
  },
  // Version 2: board counts and slots, so that offsets and ranks need no walk over members.
  (db, tx) => {
    db.createObjectStore('board_counts', { keyPath: 'key' });
    db.createObjectStore('board_slots', { keyPath: 'key' });
    void countExistingApps(tx);
  },
  // Version 3: members by name within a week or month, so that the members a
  // period board lists after its ranked ones are counted, not walked.
  (_db, tx) => {
    const users = tx.objectStore('users');
    users.createIndex('by_week_name', ['app_id', 'week', 'account_name']);
    users.createIndex('by_month_name', ['app_id', 'month', 'account_name']);
    void countExistingApps(tx);
  },
];

async function countExistingApps(tx: UpgradeTransaction): Promise<void> {
  for (const app_id of await tx.objectStore('apps').getAllKeys()) await rebuildPositions(tx, app_id);
}

export function migrate(db: IDBPDatabase<QuestboardSchema>, oldVersion: number, tx: UpgradeTransaction): void {
  for (let version = oldVersion; version < DATABASE_VERSION; version++) MIGRATIONS[version]!(db, tx);
}
