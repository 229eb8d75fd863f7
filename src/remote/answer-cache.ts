import type { CachedAnswer, RemoteDatabase } from './remote-database.js';

/** Hex SHA-256 of the caller's Authorization value: tells callers apart without keeping their key. */
export async function hashAuthorization(authorization: string | null): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(authorization ?? ''));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const cacheKey = (keyHash: string, remoteUrl: string) => `${keyHash} ${remoteUrl}`;

/** Kept answers past this many are dropped oldest first: every page of every leaderboard a member browsed adds one. */
export const MAX_KEPT_ANSWERS = 500;

export async function keepAnswer(
  db: RemoteDatabase,
  keyHash: string,
  remoteUrl: string,
  answer: { status: number; contentType: string | null; body: string },
  storedAt: number,
): Promise<void> {
  const tx = db.transaction('answers', 'readwrite');
  await tx.store.put({
    key: cacheKey(keyHash, remoteUrl),
    status: answer.status,
    content_type: answer.contentType,
    body: answer.body,
    stored_at: storedAt,
  });
  let excess = (await tx.store.count()) - MAX_KEPT_ANSWERS;
  for (let cursor = await tx.store.index('by_stored_at').openCursor(); cursor && excess > 0; cursor = await cursor.continue()) {
    await cursor.delete();
    excess -= 1;
  }
  await tx.done;
}

export function findAnswer(db: RemoteDatabase, keyHash: string, remoteUrl: string): Promise<CachedAnswer | undefined> {
  return db.get('answers', cacheKey(keyHash, remoteUrl));
}

/** The kept answer as a response saying where it came from and how old it is (seconds, as HTTP's Age). */
export function cachedResponse(answer: CachedAnswer, now: number): Response {
  const headers = new Headers({
    'X-Questboard-Source': 'cache',
    Age: String(Math.max(0, Math.floor((now - answer.stored_at) / 1000))),
  });
  if (answer.content_type !== null) headers.set('Content-Type', answer.content_type);
  return new Response(answer.body, { status: answer.status, headers });
}
