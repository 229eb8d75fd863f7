// What the admin API answers, as types only: the console and scripts read these answers, and
// no remote strategy checks them at run time (responses.ts holds the schemas it checks), so
// no bundle carries code for them.
import type { MemberTokenAlgorithm } from './member-tokens.js';
import type { Acknowledged } from './responses.js';

export interface AppSummary {
  app_id: string;
  name: string;
  member_count: number;
}

/** GET /v1/admin/apps. */
export interface AdminApps extends Acknowledged {
  apps: AppSummary[];
}

/** GET /v1/admin/member_token_keys: what names and types each key, none of its key material. */
export interface MemberTokenKeys extends Acknowledged {
  keys: { kid: string; alg: MemberTokenAlgorithm; kty: 'EC' | 'OKP'; crv: 'P-256' | 'Ed25519' }[];
}

/** GET /v1/admin/ledger: the treasury's balance, and a page of its transfers, newest first. */
export interface Ledger extends Acknowledged {
  /** null for an app without a treasury. */
  treasury: { account_id: string; balance: string } | null;
  offset: number;
  limit: number;
  transfers: { at: number; tx_id: string; from_account: string; to_address: string; amount: string; balance: string }[];
}

/** POST /v1/admin/import?dry_run=true: what the import would change in each app it names. */
export interface DryRun extends Acknowledged {
  app_ids: string[];
  dry_run: true;
  changes: {
    app_id: string;
    /** Whether the import would create the app. */
    new_app: boolean;
    members_before: number;
    members_after: number;
    /** How many of each the dataset brings (new or updated). */
    challenges: number;
    tasks: number;
    progress: number;
  }[];
}
