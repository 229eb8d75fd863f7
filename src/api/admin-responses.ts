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

/** GET /v1/admin/stats: an app at a glance, as the console's overview shows it. */
export interface AdminStats extends Acknowledged {
  member_count: number;
  /** Members who logged progress in the last 7 days (today among them, in the app's time zone). */
  active_members_7d: number;
  /** The last 30 days, oldest first, today last; a day without completions is there with 0. */
  completions_by_day: { day: string; completions: number }[];
  /** The 5 tasks completed most over those days, most first. */
  top_tasks: { task_id: string; name: string; completions: number }[];
  /** Submissions waiting for review, counted up to 100. */
  pending_reviews: number;
  /** Whether there are more than pending_reviews. */
  pending_reviews_capped: boolean;
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

/** A webhook endpoint as GET /v1/admin/webhooks lists it: never its secret, which only signs. */
export interface WebhookEndpointSummary {
  url: string;
  events: string[];
}

/**
 * One event on its way to one webhook endpoint, as GET /v1/admin/webhook_deliveries lists it (a
 * server's SQL store keeps them: src/store/sql/webhook-outbox.ts). `delivery_id` is the
 * webhook-id every attempt sends.
 */
export interface WebhookDelivery {
  delivery_id: string;
  app_id: string;
  type: string;
  url: string;
  /** 'pending' until an attempt is answered 2xx ('delivered') or the attempts run out ('failed'). */
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts made since it was recorded or last redelivered. */
  attempts: number;
  /** Times as ISO 8601 text. */
  created_at: string;
  /** When the next attempt is due; null once it is no longer pending. */
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  /** The last attempt's HTTP status; null when it had no answer. */
  last_status: number | null;
  /** Why the last attempt failed, when it did. */
  last_error: string | null;
  delivered_at: string | null;
}

/** An admin action, as GET /v1/admin/audit lists it (and the store keeps it): who, what, when, from where. */
export interface AuditEntry {
  app_id: string;
  /** Epoch ms. */
  at: number;
  /** The request's own id, so two actions in one millisecond are two entries. */
  id: string;
  /** The operation's name, as its path says it (admin/adjust). */
  operation: string;
  /** The first 12 hex digits of the key's SHA-256: enough to tell keys apart, too few to stand for one. */
  key_prefix: string;
  /** The client's address where the host knows it (the Node server); null in a browser's own store. */
  client_address: string | null;
  /** What was asked, never a secret (keys and answers left out), cut to a few hundred characters. */
  summary: string;
}

/**
 * A member's submission for review, as get_submissions and GET /v1/admin/submissions list it. A
 * type, not an interface: a webhook event's data (a plain record) may be one.
 */
export type SubmissionAnswer = {
  submission_id: string;
  task_id: string;
  account_name: string;
  text: string;
  status: 'pending' | 'approved' | 'rejected';
  reason: string | null;
  create_date: string;
  review_date: string | null;
};

/** A submission in the review queue (GET /v1/admin/submissions): with its task's name, which a reviewer reads. */
export type QueuedSubmission = SubmissionAnswer & {
  /** null once the task is deleted. */
  task_name: string | null;
};

/** A season's rank reward: the badge the members ranked from_rank to to_rank are given when it ends. */
export interface SeasonReward {
  from_rank: number;
  to_rank: number;
  badge_id: string;
}

/** A season as GET and POST /v1/admin/seasons answer it. */
export interface SeasonAnswer {
  season_id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  rewards: SeasonReward[];
  /** Whether it has ended and its board is kept as it stood. */
  frozen: boolean;
}
