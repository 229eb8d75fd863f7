// API keys: who is calling, and what they may do for which app.
import { API_KEY_INVALID, API_KEY_MISSING, KEY_TAKEN, OTHER_APP, SCOPE_MISSING } from '../api/error-codes.js';
import { ApiError, invalidInput } from '../api/errors.js';
import { apiKey, SCOPES, type Scope } from '../api/schemas.js';
import type { ApiKeyRecord, Transaction } from '../store/index.js';
import { sha256Hex } from '../api/key-hash.js';

/**
 * The meta entry of the installation admin keys: `{ sha256: [hex, …] }`, their
 * hashes only, so a copy of the store gives no admin key away. A store written
 * before keys were hashed holds them in clear, as an array: they are hashed as
 * read, and stored hashed by the next `addAdminKeys`.
 */
const ADMIN_KEYS = 'admin_keys';

type StoredAdminKeys = { sha256: string[] } | string[];

/** The SHA-256 hashes (hex) of the installation admin keys. */
export async function adminKeyHashes(tx: Transaction): Promise<Set<string>> {
  const stored = await tx.getMeta<StoredAdminKeys>(ADMIN_KEYS);
  if (stored === undefined) return new Set();
  return new Set(Array.isArray(stored) ? stored.map(sha256Hex) : stored.sha256);
}

/**
 * Adds installation admin keys and returns the hashes of them all. One text,
 * one meaning: a key that is already an app's key is a 409 naming it by
 * `nameOf` its index. Always writes the list back when it was kept in clear.
 */
export async function addAdminKeys(
  tx: Transaction,
  keys: string[],
  nameOf = (index: number) => `admin_keys[${index}]`,
): Promise<Set<string>> {
  const stored = await tx.getMeta<StoredAdminKeys>(ADMIN_KEYS);
  const hashes = await adminKeyHashes(tx);
  for (const [index, key] of keys.entries()) {
    if (await tx.get('api_keys', sha256Hex(key))) throw new ApiError(KEY_TAKEN, { field: nameOf(index) });
    hashes.add(sha256Hex(key));
  }
  if (keys.length > 0 || Array.isArray(stored)) await tx.putMeta(ADMIN_KEYS, { sha256: [...hashes] });
  return hashes;
}

/**
 * Makes the installation admin keys exactly `keys`: a server's operator lists them all at every
 * start, so a key taken off the list is revoked by the next start.
 */
export async function replaceAdminKeys(
  tx: Transaction,
  keys: string[],
  nameOf?: (index: number) => string,
): Promise<Set<string>> {
  await tx.putMeta(ADMIN_KEYS, { sha256: [] });
  return addAdminKeys(tx, keys, nameOf);
}

/** The key of an `Authorization: Bearer <key>` header, or a 401. */
export function bearerKey(header: string | null): string {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new ApiError(API_KEY_MISSING);
  // Checked as a dataset's keys are: one no store could hold is never looked up.
  const key = match[1]!;
  const checked = apiKey.safeParse(key);
  if (!checked.success) throw invalidInput(checked.error, key, 'Authorization');
  return key;
}

/** An app's key is found by its hash, as it is kept (ApiKeyRecord.key_sha256): one keyed read. */
export async function authenticate(tx: Transaction, key: string): Promise<ApiKeyRecord> {
  const hash = sha256Hex(key);
  const record = await tx.get('api_keys', hash);
  if (record && record.revoked_at === undefined) return record;
  if (record) throw new ApiError(API_KEY_INVALID);
  // Installation admin keys carry every scope for every app.
  if ((await adminKeyHashes(tx)).has(hash)) return adminKeyRecord(hash);
  throw new ApiError(API_KEY_INVALID);
}

/**
 * What an installation admin key, by its hash, may do. As an app key's record, it keeps the hash
 * alone (idempotency records are kept under it), so no record keeps the key itself.
 */
export const adminKeyRecord = (key_sha256: string): ApiKeyRecord => ({ key_sha256, app_id: null, scopes: [...SCOPES] });

export function requireScope(key: ApiKeyRecord, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw new ApiError(SCOPE_MISSING, { scope });
  }
}

/** An app that exists but that the key does not belong to. */
export function requireApp(key: ApiKeyRecord, app_id: string): void {
  if (key.app_id !== null && key.app_id !== app_id) {
    throw new ApiError(OTHER_APP);
  }
}
