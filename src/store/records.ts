// The records every store keeps, whatever holds them. Totals are maintained on
// write so that every read is a keyed get or a range, never a scan.
import type { AuditEntry, WebhookDelivery } from '../api/admin-responses.js';
import type {
  BadgeRule,
  LeaderboardType,
  MemberTokenKey,
  RankPolicy,
  RateLimits,
  Scope,
  SubmissionStatus,
  WebhookEndpoint,
} from '../api/schemas.js';

export type { BadgeRule };

/** An endpoint as its app keeps it: as the setting gave it, and the secrets it replaced lately. */
export interface WebhookEndpointRecord extends WebhookEndpoint {
  /**
   * Secrets this endpoint had, each still signed with until `until` (epoch ms; core/webhook-secrets.ts);
   * absent: none. Never exported nor answered: the setting is exported as it was given.
   */
  previous_secrets?: { secret: string; until: number }[];
}

export interface AppRecord {
  app_id: string;
  name: string;
  endorsement_xp: number;
  rank_policy: RankPolicy;
  /** Kept here because counting members would walk them (IndexedDB count() does). */
  member_count: number;
  treasury: TreasuryRecord | null;
  /** The public keys member tokens are verified with; absent (an app from before them) or empty: none. */
  member_token_keys?: MemberTokenKey[];
  /** Write limits on a server; absent: the server's defaults. */
  rate_limits?: RateLimits;
  /** Origins a server takes browser requests from; absent: the server's --cors-origin. */
  allowed_origins?: string[];
  /** The IANA zone members' days are counted in for streaks; absent: UTC. */
  time_zone?: string;
  /** Days a month a member may miss without breaking a streak; absent: 0. */
  streak_freezes_per_month?: number;
  /**
   * The app's badges, kept on the app: every write that may award one reads the app anyway, and
   * an app defines tens of them, not thousands (MAX_BADGES).
   */
  badges?: BadgeDefinition[];
  /** Where a server delivers the app's events (docs/quests.md, Webhooks); absent: nowhere. */
  webhooks?: WebhookEndpointRecord[];
  /**
   * The app's seasons (core/seasons.ts), in the order they were defined, kept on the app: every log
   * reads the app anyway, so an app without seasons reads nothing more to count into none.
   */
  seasons?: Season[];
}

/** A member's points in a season, and when the last of them came (the earlier ranks first on a tie). */
export interface SeasonPointsRecord {
  app_id: string;
  season_id: string;
  account_name: string;
  points: number;
  at: number;
}

/** What a season's board shows of a member beside their points in it: their all-time counts and XP. */
export type SeasonShown = Pick<UserRecord, 'challenges_completed' | 'tasks_completed' | 'xp'>;

export interface SeasonReward {
  from_rank: number;
  to_rank: number;
  badge_id: string;
}

export interface Season {
  season_id: string;
  name: string;
  /** Epoch ms: points earned at or after it count. */
  starts_at: number;
  /** Epoch ms: points earned at or after it do not. */
  ends_at: number;
  rewards: SeasonReward[];
  /** When the first write after its end froze its board (epoch ms); null while it may change. */
  frozen_at: number | null;
  /**
   * Members on its board (those with points in it), kept as the app's member_count is: a page of
   * its board counts none of them (core/seasons.ts counts each one's first points).
   */
  member_count: number;
}

export interface BadgeDefinition {
  badge_id: string;
  name: string;
  description: string;
  image_url: string | null;
  rule: BadgeRule;
}

/** A badge a member holds: awarded once, kept for good. */
export interface BadgeAwardRecord {
  app_id: string;
  account_name: string;
  badge_id: string;
  earned_at: number;
  /** Why: 'rule', 'manual', or what another rule names (a season's rank reward). */
  reason: string;
}

export interface TreasuryRecord {
  account_id: string;
  /** Integer tinybars as decimal text: amounts never pass through floats. */
  balance: string;
  /** Nanoseconds of the last transaction id, so the next one is always later. */
  last_tx_ns: string;
}

export interface ApiKeyRecord {
  /**
   * The SHA-256 of the key (64 lowercase hex digits, src/api/key-hash.ts): no store keeps an API
   * key itself, so a copy of one, or an export, gives no key away.
   */
  key_sha256: string;
  /** null for an installation admin key, valid for every app. */
  app_id: string | null;
  scopes: Scope[];
  /** Epoch ms of its revocation (POST /v1/admin/revoke_key): it is then refused as an unknown key. */
  revoked_at?: number;
}

export interface UserRecord {
  app_id: string;
  account_name: string;
  id: string;
  is_active: boolean;
  twitter_name: string | null;
  joined_at: number;
  challenges_completed: number;
  tasks_completed: number;
  tasks_logged: number;
  total_score: number;
  xp: number;
  /** When each value was last reached: ties are listed by who got there first. */
  score_at: number;
  xp_at: number;
  /** Points of the ISO week / month named by `week` / `month` (UTC). */
  week: string;
  week_score: number;
  week_at: number;
  month: string;
  month_score: number;
  month_at: number;
  /**
   * The streak, kept on write (streaks.ts); absent on members from before streaks. Days are
   * numbered from 1970-01-01 in the app's time zone.
   */
  /** Badges held (badge_awards), counted as awarded: get_userinfo's total_achievements reads no award. */
  badges_earned?: number;
  streak_current?: number;
  streak_longest?: number;
  streak_last_day?: number;
  streak_freezes_used?: number;
  /** The month (YYYY-MM, in the app's zone) `streak_freezes_used` counts in. */
  streak_freeze_month?: string;
}

export interface ChallengeRecord {
  challenge_id: string;
  app_id: string;
  name: string;
  description: string;
  created_at: number;
  start_at: number;
  points: number;
  task_ids: string[];
  /** Retired (admin/save_challenge): hidden from members, counting no new progress, kept with its history; absent: open. */
  retired?: true;
}

export interface TaskRecord {
  task_id: string;
  challenge_id: string;
  app_id: string;
  name: string;
  quantity_e4: number;
  operator: 0 | 1;
  metadata: Record<string, unknown>;
  created_at: number;
  points: number;
  allowretry: boolean;
  alloweditquantity: boolean;
  /** How a member completes it on their own; absent: `backend` (admin/log_task only). */
  verification?: TaskVerification;
}

/** A task's verification as kept: a code's answers only as hashes (core/quests.ts). */
export type TaskVerification =
  { kind: 'backend' } | { kind: 'code'; answer_hashes: string[] } | { kind: 'review' } | { kind: 'callback'; url: string };

/** What a member sent for review on a task, and what the reviewer decided. */
export interface SubmissionRecord {
  submission_id: string;
  app_id: string;
  task_id: string;
  account_name: string;
  text: string;
  status: SubmissionStatus;
  /** The reviewer's words to the member; null until given. */
  reason: string | null;
  created_at: number;
  reviewed_at: number | null;
}

/** A member's attempts at one task: their recent wrong codes, and their pending submission. */
export interface AttemptsRecord {
  task_id: string;
  account_name: string;
  app_id: string;
  /** Epoch ms of the wrong answers still inside the limit's window, oldest first. */
  wrong_at: number[];
  pending_submission_id: string | null;
}

export interface ProgressRecord {
  task_id: string;
  account_name: string;
  app_id: string;
  completed_e4: number;
  times_completed: number;
}

export interface MemberChallengeRecord {
  challenge_id: string;
  account_name: string;
  app_id: string;
  tasks_done: number;
  completed: boolean;
}

export interface EndorsementRecord {
  app_id: string;
  from_account: string;
  to_account: string;
  endorsement_id: string;
  at: number;
}

/** An admin action, kept with the write it made, as the audit log lists it. */
export type AuditRecord = AuditEntry;

/**
 * A transfer from the app's treasury (core/ledger.ts), kept with the write that made it: the
 * ledger's history, which GET /v1/admin/ledger reads newest first. Amounts as decimal coin text.
 */
export interface TransferRecord {
  app_id: string;
  /** Epoch ms. */
  at: number;
  /** The transaction id the transfer answered: unique, and later than the app's one before. */
  tx_id: string;
  from_account: string;
  to_address: string;
  amount: string;
  /** The treasury's balance after it. */
  balance: string;
}

/** Every logged quantity, in order: the export replays them. */
export interface LogRecord {
  seq?: number;
  app_id: string;
  task_id: string;
  account_name: string;
  quantity_e4: number;
  at: number;
}

export interface IdempotencyRecord {
  /** The caller's key as its record keeps it: its SHA-256 (ApiKeyRecord.key_sha256). */
  api_key: string;
  idempotency_key: string;
  fingerprint: string;
  status: number;
  body: string;
  /** Epoch ms of the first answer: the record answers for a day after (src/handler/idempotency.ts). */
  created_at: number;
}

/** [app_id, ordering, period ('' for score, xp and names), negated value (0 in name lists)]. */
export type MemberGroupKey = [string, LeaderboardType | 'names' | 'weekly_names' | 'monthly_names', string, number];
/** A member's group on a board or name list, or on a season's board: [app_id, 'season', season_id, negated points]. */
export type GroupKey = MemberGroupKey | [string, 'season', string, number];
/** [reached_at, account_name]: who got to the value first, then by name. */
export type Tie = [number, string];

/** A member in a value group: what orders them within it, all a season's board keeps (its points are the group's). */
export interface TieRow {
  account_name: string;
  /** When the member reached the group's value; 0 in name lists. */
  at: number;
}

/**
 * A member on a season's board: their tie, and what an entry shows of them (SeasonShown). Rows
 * laid out before the board kept what it shows (IndexedDB version 13) hold their ties alone.
 */
export type SeasonRow = TieRow & Partial<SeasonShown>;

/** A member as a board lists them: what an entry shows, and the tie that orders them. */
export interface BoardRow extends TieRow {
  challenges_completed: number;
  tasks_completed: number;
  total_score: number;
  xp: number;
  /** The member's latest week and month with points: a period board's unranked tail skips its ranked members. */
  week: string;
  month: string;
}

/** One event on its way to one webhook endpoint (a server's SQL store keeps them), as the API lists it. */
export type WebhookDeliveryRecord = WebhookDelivery;
