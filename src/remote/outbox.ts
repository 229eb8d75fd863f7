import type { QueuedWrite, RemoteDatabase } from './remote-database.js';

/** Writes past this many are dropped oldest first: a member who stays offline should not fill the disk. */
export const MAX_QUEUED_WRITES = 100;

/**
 * A write the remote answered with a 5xx on this many replays is dropped: it may be the write that
 * breaks the remote, and it holds back every write queued after it.
 */
export const MAX_FAILED_REPLAYS = 10;

/**
 * A write still queued this long after it was made is dropped: the remote has not answered for a week,
 * or the member whose key it needs has not come back.
 */
export const MAX_QUEUED_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** Queues the write; returns the writes dropped to make room for it, oldest first. */
export async function enqueueWrite(
  db: RemoteDatabase,
  write: Omit<QueuedWrite, 'seq' | 'failed_replays'>,
): Promise<QueuedWrite[]> {
  const tx = db.transaction('outbox', 'readwrite');
  await tx.store.add({ ...write, failed_replays: 0 });
  const dropped: QueuedWrite[] = [];
  let excess = (await tx.store.count()) - MAX_QUEUED_WRITES;
  for (let cursor = await tx.store.openCursor(); cursor && excess > 0; cursor = await cursor.continue()) {
    dropped.push(cursor.value);
    await cursor.delete();
    excess -= 1;
  }
  await tx.done;
  return dropped;
}

/** Every queued write, oldest first. */
export function queuedWrites(db: RemoteDatabase): Promise<QueuedWrite[]> {
  return db.getAll('outbox');
}

export async function removeWrite(db: RemoteDatabase, seq: number): Promise<void> {
  await db.delete('outbox', seq);
}

/** Counts a replay the remote failed with a 5xx; true when that was the write's last, and it is removed. */
export async function countFailedReplay(db: RemoteDatabase, seq: number): Promise<boolean> {
  const tx = db.transaction('outbox', 'readwrite');
  // Read again in this transaction: another page or the worker may have delivered it meanwhile.
  const write = await tx.store.get(seq);
  let usedUp = false;
  if (write !== undefined) {
    write.failed_replays += 1;
    usedUp = write.failed_replays >= MAX_FAILED_REPLAYS;
    await (usedUp ? tx.store.delete(seq) : tx.store.put(write));
  }
  await tx.done;
  return usedUp;
}
