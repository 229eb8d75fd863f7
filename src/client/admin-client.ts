import type { AdminApps, AdminStats, DryRun, Ledger, MemberTokenKeys } from '../api/admin-responses.js';
import type { Acknowledged } from '../api/responses.js';
import type { Dataset, MemberTokenKey } from '../api/schemas.js';
import type { ImportResult, QuestboardClient, Query } from './client.js';

/**
 * The admin API (/v1/admin/…), for the console and for scripts: apart from QuestboardClient
 * so that the embed, which never administers, carries none of it.
 */
export class AdminClient {
  constructor(readonly client: QuestboardClient) {}

  /** The apps this key manages; refused (401, 403) for a key that is not an admin key. */
  apps(): Promise<AdminApps> {
    return this.client.call('v1/admin/apps');
  }

  /** The app at a glance: members, the week's active members, completions by day, top tasks, the review queue. */
  stats(app_id: string): Promise<AdminStats> {
    return this.client.call('v1/admin/stats', { query: { app_id } });
  }

  exportApp(app_id: string): Promise<Dataset & Acknowledged> {
    return this.client.call('v1/admin/export', { query: { app_id } });
  }

  importDataset(dataset: Dataset, options: { mode?: 'merge' | 'replace' } = {}): Promise<ImportResult> {
    return this.client.admin.importDataset(dataset, options);
  }

  /** What importing would change, per app; nothing is kept (a retry of it is harmless). */
  dryRunImport(dataset: Dataset, options: { mode?: 'merge' | 'replace' } = {}): Promise<DryRun> {
    return this.client.call('v1/admin/import', { query: { mode: options.mode, dry_run: 'true' }, body: dataset });
  }

  /** The public keys the app's member tokens are verified with, by kid. */
  memberTokenKeys(app_id: string): Promise<MemberTokenKeys> {
    return this.client.call('v1/admin/member_token_keys', { query: { app_id } });
  }

  /** Refused 409 when the kid is taken, 400 (naming the field) for a key that is not a public JWK. */
  addMemberTokenKey(app_id: string, key: MemberTokenKey): Promise<Acknowledged> {
    return this.client.call('v1/admin/add_member_token_key', { body: { app_id, key } });
  }

  removeMemberTokenKey(app_id: string, kid: string): Promise<Acknowledged> {
    return this.client.call('v1/admin/remove_member_token_key', { body: { app_id, kid } });
  }

  /** The treasury's balance and a page of its transfers, newest first. */
  ledger(app_id: string, page: { offset?: number; limit?: number } = {}): Promise<Ledger> {
    return this.client.call('v1/admin/ledger', { query: { app_id, ...page } });
  }

  /** Any other admin operation, by its path and query or body. */
  get<T>(path: string, query: Query): Promise<T> {
    return this.client.call(`v1/admin/${path}`, { query });
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.client.call(`v1/admin/${path}`, { body });
  }
}
