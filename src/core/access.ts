// API keys: who is calling, and what they may do for which app.
import { ApiError } from '../api/errors.js';
import { SCOPES, type Scope } from '../api/schemas.js';
import type { ApiKeyRecord, Transaction } from '../store/index.js';

export const ADMIN_KEYS = 'admin_keys';

/** The key of an `Authorization: Bearer <key>` header, or a 401. */
export function bearerKey(header: string | null): string {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw new ApiError(401, 'Missing API key: send the header Authorization: Bearer <key>.');
  return match[1]!;
}

export async function authenticate(tx: Transaction, key: string): Promise<ApiKeyRecord> {
  const record = await tx.get('api_keys', key);
  if (record) return record;
  const adminKeys = (await tx.getMeta<string[]>(ADMIN_KEYS)) ?? [];
  // Installation admin keys carry every scope for every app.
  if (adminKeys.includes(key)) return { key, app_id: null, scopes: [...SCOPES] };
  throw new ApiError(401, 'Invalid API key.');
}

export function requireScope(key: ApiKeyRecord, scope: Scope): void {
  if (!key.scopes.includes(scope)) {
    throw new ApiError(403, `Not allowed: this API key does not carry the '${scope}' scope.`);
  }
}

/** An app that exists but that the key does not belong to. */
export function requireApp(key: ApiKeyRecord, app_id: string): void {
  if (key.app_id !== null && key.app_id !== app_id) {
    throw new ApiError(403, 'Not allowed: this API key belongs to another app.');
  }
}
