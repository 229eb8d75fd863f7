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
  /** Epoch ms of the first answer: the record answers for a day after (src/server/idempotency.ts). */
  created_at: number;
}

/** [app_id, ordering, period ('' for score, xp and names), negated value (0 in name lists)]. */
export type GroupKey = [string, LeaderboardType | 'names' | 'weekly_names' | 'monthly_names', string, number];
/** [reached_at, account_name]: who got to the value first, then by name. */
export type Tie = [number, string];
/** A run's key: its group, then the tie it starts at (none for the group's first run). */
export type RunKey = GroupKey | [...GroupKey, ...Tie];

/** How many members of one board hold one value (see board-positions.ts). */
export interface BoardCountRecord {
  key: GroupKey;
  count: number;
}

/** A run of members of one value group, from its start up to the next run's. */
export interface RunBounds {
  /** The tie the run starts at; null for the group's first run, which starts at the group. */
  start: Tie | null;
  count: number;
}

/**
 * One value group's runs, in board order. Packed into typed arrays and one
 * string: a large group has thousands of runs, and decoding as many small
 * objects costs a millisecond where these cost a few microseconds.
 */
export interface RunsRecord {
  key: GroupKey;
  counts: Uint16Array;
  /** reached_at of each run's start (the first run's is unused). */
  starts_at: Float64Array;
  /** JSON array of each run's starting account_name ('' for the first run). */
  starts_name: string;
}

/** A member as a board lists them: what an entry shows, and the tie that orders them. */
export interface BoardRow {
  account_name: string;
  /** When the member reached the group's value; 0 in name lists. */
  at: number;
  challenges_completed: number;
  tasks_completed: number;
  total_score: number;
  xp: number;
  /** The member's latest week and month with points: a period board's unranked tail skips its ranked members. */
  week: string;
  month: string;
}

/**
 * The members of one run, in board order: a page of a board is a read of a few
 * of these. Rows of the period name lists are only counted, so only their ties
 * are kept current.
 */
export interface RowsRecord {
  key: RunKey;
  rows: BoardRow[];
}
