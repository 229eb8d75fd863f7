// Everything one app owns, for export and for import's replace mode.
import type { Transaction } from './index.js';
import { prefixRange } from './key-ranges.js';
import type {
  ApiKeyRecord,
  ChallengeRecord,
  EndorsementRecord,
  LogRecord,
  TaskRecord,
  UserRecord,
} from './records.js';

export interface AppData {
  api_keys: ApiKeyRecord[];
  users: UserRecord[];
  challenges: ChallengeRecord[];
  tasks: TaskRecord[];
  logs: LogRecord[];
  endorsements: EndorsementRecord[];
}

const appPrefix = (app_id: string) => prefixRange([app_id]);

export async function readAppData(tx: Transaction, app_id: string): Promise<AppData> {
  const store = tx.raw.objectStore.bind(tx.raw);
  const [api_keys, users, challenges, tasks, logs, endorsements] = await Promise.all([
    store('api_keys').index('by_app').getAll(app_id),
    store('users').getAll(appPrefix(app_id)),
    store('challenges').index('by_app').getAll(app_id),
    store('tasks').index('by_app').getAll(app_id),
    store('logs').index('by_app').getAll(app_id),
    store('endorsements').getAll(appPrefix(app_id)),
  ]);
  return { api_keys, users, challenges, tasks, logs, endorsements };
}

/** Deletes the app and everything it owns (import's replace mode). */
export async function deleteAppData(tx: Transaction, app_id: string): Promise<void> {
  tx.forgetReads();
  const byApp = ['api_keys', 'challenges', 'tasks', 'progress', 'member_challenges', 'logs'] as const;
  await Promise.all([
    tx.raw.objectStore('apps').delete(app_id),
    tx.raw.objectStore('users').delete(appPrefix(app_id)),
    tx.raw.objectStore('endorsements').delete(appPrefix(app_id)),
    tx.raw.objectStore('board_counts').delete(appPrefix(app_id)),
    tx.raw.objectStore('board_runs').delete(appPrefix(app_id)),
    tx.raw.objectStore('board_rows').delete(appPrefix(app_id)),
    ...byApp.map(async (name) => {
      let cursor = await tx.raw.objectStore(name).index('by_app').openKeyCursor(app_id);
      const deletions: Promise<void>[] = [];
      while (cursor) {
        deletions.push(tx.raw.objectStore(name).delete(cursor.primaryKey as never));
        cursor = await cursor.continue();
      }
      await Promise.all(deletions);
    }),
  ]);
}
