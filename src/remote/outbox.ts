import type { QueuedWrite, RemoteDatabase } from './remote-database.js';

export async function enqueueWrite(db: RemoteDatabase, write: Omit<QueuedWrite, 'seq'>): Promise<void> {
  await db.add('outbox', write);
}

/** Every queued write, oldest first. */
export function queuedWrites(db: RemoteDatabase): Promise<QueuedWrite[]> {
  return db.getAll('outbox');
}

export async function removeWrite(db: RemoteDatabase, seq: number): Promise<void> {
  await db.delete('outbox', seq);
}
