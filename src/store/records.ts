// What IndexedDB holds. Totals are maintained on write so that every read is
// a keyed get or an index range, never a scan.
import type { LeaderboardType, RankPolicy, Scope } from '../api/schemas.js';

export interface AppRecord {
  app_id: string;
  name: string;
  endorsement_xp: number;
  rank_policy: RankPolicy;
  /** Kept here because IndexedDB count() walks the whole range. */
  member_count: number;
  treasury: TreasuryRecord | null;
}

export interface TreasuryRecord {
  account_id: string;
  /** Integer tinybars as decimal text: amounts never pass through floats. */
  balance: string;
  /** Nanoseconds of the last transaction id, so the next one is always later. */
  last_tx_ns: string;
}

export interface ApiKeyRecord {
  key: string;
  /** null for an installation admin key, valid for every app. */
  app_id: string | null;
  scopes: Scope[];
}

/** A member's key in one board index: [app_id, (period,) -value, reached_at, account_name]. */
export type BoardKey = IDBValidKey[];

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
  /** Keys in the board indexes, set by the store when the member is written. */
  board_score?: BoardKey;
  board_xp?: BoardKey;
  board_weekly?: BoardKey;
  board_monthly?: BoardKey;
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
  api_key: string;
  idempotency_key: string;
  fingerprint: string;
  status: number;
  body: string;
}

/** How many members of one board hold one value (see board-positions.ts). */
export interface BoardCountRecord {
  /** [app_id, ordering, period ('' for score, xp and names), negated value]. */
  key: [string, LeaderboardType | 'names' | 'weekly_names' | 'monthly_names', string, number];
  count: number;
}

/** A run of members of one value group, from its first member up to the next run's. */
export interface Slot {
  /** The first member's [reached_at, account_name]; null for the group's first run, which starts at the group. */
  start: [number, string] | null;
  count: number;
}

/** One value group cut into runs, in board order (see board-positions.ts). */
export interface SlotRecord {
  key: BoardCountRecord['key'];
  slots: Slot[];
}

export const BOARD_INDEX: Record<LeaderboardType, 'board_score' | 'board_xp' | 'board_weekly' | 'board_monthly'> = {
  score: 'board_score',
  xp: 'board_xp',
  weekly: 'board_weekly',
  monthly: 'board_monthly',
};
