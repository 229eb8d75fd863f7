// The response side of the contract, field for field as the spec's tables.
import type { Fixed4 } from './formats.js';

export interface Outcome {
  is_valid: boolean;
  message: string | null;
}

export interface ErrorBody {
  is_valid: false;
  message: string;
}

export interface Task extends Outcome {
  task_id: string;
  name: string;
  quantity: number;
  operator: number;
  /** A JSON object encoded as a string. */
  metadata: string;
  create_date: string;
  resourceurl: null;
  groupname: null;
  allowretry: boolean;
  alloweditquantity: boolean;
  challenge: null;
}

export interface Challenge extends Outcome {
  challenge_id: string;
  name: string;
  description: string;
  create_date: string;
  groupid: null;
  badge: null;
  tasks: Task[];
  rewarddata: null;
}

export interface UserInfo extends Outcome {
  account_name: string;
  id: string;
  is_active: boolean;
  challenges_completed: number;
  tasks_completed: number;
  tasks_logged: number;
  total_achievements: number;
  total_score: number;
  challenge_score_monthly: number;
  challenge_score_weekly: number;
  current_xp: number;
  current_level: number;
  next_level_xp: number;
}

/** Quantities are Fixed4 on the server side and plain numbers once parsed. */
export interface TaskProgress<Quantity = number> extends Outcome {
  task_id: string;
  task_name: string;
  quantity_required: Quantity;
  quantity_completed: Quantity;
}
export type TaskProgressWire = TaskProgress<Fixed4>;

export interface LeaderboardEntry {
  rank: number;
  external_user: { username: string };
  challenge_count: number;
  task_count: number;
  score: number;
  total_xp: number;
}

export interface Leaderboard extends Outcome {
  leaderboard_users: LeaderboardEntry[];
  total_users: number;
}

export interface LeaderboardHtml extends Outcome {
  html: string;
}

export interface AirdropResult extends Outcome {
  tx_id: string;
}

export interface Health extends Outcome {
  version: string;
}
