// The audit log: every admin action an admin key makes is kept in the transaction that makes it
// (so an entry exists exactly when the action committed), with who made it (its key's hash, cut
// short), what, when and from where. GET /v1/admin/audit reads it.
import type { Changed } from '../api/broadcast.js';
import { newGuid } from '../api/formats.js';
import type { ApiKeyRecord, Transaction } from '../store/index.js';

/** Enough of a key's SHA-256 to tell an app's keys apart, too little to stand for one. */
const KEY_PREFIX_LENGTH = 12;
const SUMMARY_LENGTH = 300;
/** Fields never written to the log: keys, secrets and code answers, at any depth. */
const SECRET_FIELDS = new Set([
  'key',
  'key_sha256',
  'api_keys',
  'admin_keys',
  'secret',
  'answers',
  'webhooks',
  'previous_secrets',
  'd',
]);

export interface AdminAction {
  operation: string;
  input: unknown;
  key: ApiKeyRecord;
  at: number;
  clientAddress: string | null;
  changed: Changed | Changed[] | undefined;
}

/** Writes one entry per app the action changed (an import may change several), or the app it named. */
export async function recordAdminAction(tx: Transaction, action: AdminAction): Promise<void> {
  const named = (action.input as { app_id?: unknown } | null)?.app_id;
  const changedApps = [action.changed ?? []].flat().map((change) => change.app_id);
  const apps = new Set(changedApps.length > 0 ? changedApps : typeof named === 'string' ? [named] : []);
  const summary = summarise(action.input);
  for (const app_id of apps) {
    await tx.appendAudit({
      app_id,
      at: action.at,
      id: newGuid(),
      operation: action.operation,
      key_prefix: action.key.key_sha256.slice(0, KEY_PREFIX_LENGTH),
      client_address: action.clientAddress,
      summary,
    });
  }
}

/** The input as short JSON, secrets dropped and long lists counted instead of listed. */
function summarise(input: unknown): string {
  const text = JSON.stringify(input, (field, value: unknown) => {
    if (SECRET_FIELDS.has(field)) return undefined;
    if (Array.isArray(value) && value.length > 3) return `[${value.length} items]`;
    return value;
  });
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}
