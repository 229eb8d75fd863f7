// A transaction over every store. It caches what it reads and writes each
// changed record once when the work is done, so a replay of many events on the
// same member costs one put, not one per event; and it moves the board rows of
// exactly the members it wrote.
import type { IDBPTransaction, StoreKey, StoreValue } from 'idb';
import { moveRows, type RowChange } from './board-positions.js';
import { isShown, placements, placementText, rowOf, type Placement } from './placements.js';
import type { UserRecord } from './records.js';
import type { QuestboardSchema, StoreName } from './schema.js';

/** The stores `put` writes: meta's keys are out of line (getMeta, putMeta), logs are appended. */
type PutStore = Exclude<StoreName, 'meta' | 'logs'>;

const PRIMARY_KEY: { [N in PutStore]: (value: StoreValue<QuestboardSchema, N>) => StoreKey<QuestboardSchema, N> } = {
  apps: (app) => app.app_id,
  api_keys: (key) => key.key,
  users: (user) => [user.app_id, user.account_name],
  challenges: (challenge) => challenge.challenge_id,
  tasks: (task) => task.task_id,
  progress: (progress) => [progress.task_id, progress.account_name],
  member_challenges: (record) => [record.challenge_id, record.account_name],
  endorsements: (e) => [e.app_id, e.from_account, e.to_account, e.endorsement_id],
  idempotency: (record) => [record.api_key, record.idempotency_key],
  board_counts: (record) => record.key,
  board_runs: (record) => record.key,
  board_rows: (record) => record.key,
};

export const ALL_STORES: StoreName[] = [...(Object.keys(PRIMARY_KEY) as PutStore[]), 'meta', 'logs'];

// Typed as readwrite so writes type-check; IndexedDB itself refuses them in a read.
export type RawTransaction = IDBPTransaction<QuestboardSchema, StoreName[], 'readwrite'>;

export class Transaction {
  private readonly cache = new Map<string, unknown>();
  private readonly dirty = new Map<string, [StoreName, unknown]>();
  /** Where each member stood on the boards when first read, and as what row, to keep the boards right. */
  private readonly boardsAtRead = new Map<string, OnBoards>();

  constructor(readonly raw: RawTransaction) {}

  async get<N extends StoreName>(
    store: N,
    key: StoreKey<QuestboardSchema, N>,
  ): Promise<StoreValue<QuestboardSchema, N> | undefined> {
    const cacheKey = `${store} ${JSON.stringify(key)}`;
    if (this.cache.has(cacheKey)) return this.cache.get(cacheKey) as StoreValue<QuestboardSchema, N> | undefined;
    const value = await this.raw.objectStore(store).get(key);
    this.cache.set(cacheKey, value);
    if (store === 'users') {
      const user = value as UserRecord | undefined;
      this.boardsAtRead.set(cacheKey, user ? onBoards(user) : NOT_ON_BOARDS);
    }
    return value;
  }

  /** Records the value; it is written when the transaction's work is done. */
  put<N extends PutStore>(store: N, value: StoreValue<QuestboardSchema, N>): void {
    const cacheKey = `${store} ${JSON.stringify(PRIMARY_KEY[store](value))}`;
    this.cache.set(cacheKey, value);
    this.dirty.set(cacheKey, [store, value]);
    // A member put without a read is new: on no board yet.
    if (store === 'users' && !this.boardsAtRead.has(cacheKey)) this.boardsAtRead.set(cacheKey, NOT_ON_BOARDS);
  }

  /** Drops what was read (not what waits to be written), after deleting behind the cache. */
  forgetReads(): void {
    for (const key of this.cache.keys()) {
      if (!this.dirty.has(key)) {
        this.cache.delete(key);
        this.boardsAtRead.delete(key);
      }
    }
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return (await this.raw.objectStore('meta').get(key)) as T | undefined;
  }

  async putMeta(key: string, value: unknown): Promise<void> {
    await this.raw.objectStore('meta').put(value, key);
  }

  async append(log: StoreValue<QuestboardSchema, 'logs'>): Promise<void> {
    await this.raw.objectStore('logs').add(log);
  }

  async flush(): Promise<void> {
    const changes: RowChange[] = [];
    for (const [cacheKey, [store, value]] of this.dirty) {
      if (store !== 'users') continue;
      const user = value as UserRecord;
      const before = this.boardsAtRead.get(cacheKey) ?? NOT_ON_BOARDS;
      const after = onBoards(user);
      const row = rowOf(user);
      const beforeTexts = new Set(before.placements.map(placementText));
      const afterTexts = new Set(after.placements.map(placementText));
      for (const placement of before.placements) {
        if (!afterTexts.has(placementText(placement))) changes.push({ placement, row: null, delta: -1 });
      }
      for (const placement of after.placements) {
        if (!beforeTexts.has(placementText(placement))) changes.push({ placement, row, delta: 1 });
        // A row shows more than its place (counts, score, XP): where it is shown, it follows every change.
        else if (after.row !== before.row && isShown(placement)) changes.push({ placement, row, delta: 0 });
      }
    }
    const writes = [...this.dirty.values()].map(([store, value]) => this.raw.objectStore(store).put(value as never));
    this.dirty.clear();
    await Promise.all(writes);
    // Only the rows of the members written move, however many: a merge import's chunk costs what it brings.
    await moveRows(this.raw, changes);
  }
}

interface OnBoards {
  placements: Placement[];
  /** The member's row as JSON text, to tell whether it changed. */
  row: string;
}

const NOT_ON_BOARDS: OnBoards = { placements: [], row: '' };
const onBoards = (user: UserRecord): OnBoards => ({ placements: placements(user), row: JSON.stringify(rowOf(user)) });
