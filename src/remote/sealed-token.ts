// A queued write keeps the member token it was made with, for its replay, but
// never in clear: the token is sealed with AES-GCM under a key made once per
// database, which WebCrypto will not export (it is not extractable) and
// IndexedDB keeps as a CryptoKey object, bound to its write by that write's
// Idempotency-Key. A dump of the outbox, a backup or a look in the devtools
// shows ciphertext, and a sealed token moved onto another write does not open.
import type { RemoteDatabase, SealedToken } from './remote-database.js';

const KEY_NAME = 'outbox';
const AES_GCM_IV_BYTES = 12;

/** One lookup per connection: the key never changes once made. */
const keys = new WeakMap<RemoteDatabase, Promise<CryptoKey>>();

function outboxKey(db: RemoteDatabase): Promise<CryptoKey> {
  let key = keys.get(db);
  if (key === undefined) {
    key = keptOrNewKey(db);
    keys.set(db, key);
    key.catch(() => keys.delete(db));
  }
  return key;
}

async function keptOrNewKey(db: RemoteDatabase): Promise<CryptoKey> {
  const kept = await db.get('keys', KEY_NAME);
  if (kept !== undefined) return kept;
  // Made outside the transaction: WebCrypto's turns would let it commit.
  const made = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  // The worker and a page may both have made one meanwhile: the first kept is the one all use.
  const tx = db.transaction('keys', 'readwrite');
  const first = await tx.store.get(KEY_NAME);
  if (first === undefined) await tx.store.put(made, KEY_NAME);
  await tx.done;
  return first ?? made;
}

const bound = (writeId: string) => ({ additionalData: new TextEncoder().encode(writeId) });

/** `token` sealed for the write whose Idempotency-Key is `writeId`. */
export async function sealToken(db: RemoteDatabase, token: string, writeId: string): Promise<SealedToken> {
  const iv = crypto.getRandomValues(new Uint8Array(AES_GCM_IV_BYTES));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, ...bound(writeId) },
    await outboxKey(db),
    new TextEncoder().encode(token),
  );
  return { iv, data };
}

/** The token sealed for `writeId`, or null when it does not open (another write's, or altered). */
export async function openToken(db: RemoteDatabase, sealed: SealedToken, writeId: string): Promise<string | null> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.iv as BufferSource, ...bound(writeId) },
      await outboxKey(db),
      sealed.data,
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
