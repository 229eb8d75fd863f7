// How each kind of record sits in its table: the whole record as JSON text
// (`record`), and beside it the columns that key, index or order it, read from
// the record when it is written. Text, not json or jsonb: PostgreSQL's JSON
// types refuse some strings a record may hold (\u0000).
import type { RecordKind, Records } from '../port.js';
import type { UserRecord } from '../records.js';

type SqlType = 'text' | 'float8' | 'boolean';

export interface Column<R> {
  name: string;
  type: SqlType;
  of: (record: R) => unknown;
}

export interface Table<R> {
  /** The key's columns, in the order of RecordKeys. */
  key: Column<R>[];
  /** Other columns read from the record. */
  columns: Column<R>[];
}

const text = <R>(name: keyof R & string): Column<R> => ({ name, type: 'text', of: (record) => record[name] });
const float = <R>(name: keyof R & string): Column<R> => ({ name, type: 'float8', of: (record) => record[name] });

const users: Table<UserRecord> = {
  key: [text('app_id'), text('account_name')],
  columns: [
    float('total_score'),
    float('score_at'),
    float('xp'),
    float('xp_at'),
    text('week'),
    float('week_score'),
    float('week_at'),
    text('month'),
    float('month_score'),
    float('month_at'),
    // Listed on every board's page (boards.ts), which then reads no record.
    float('challenges_completed'),
    float('tasks_completed'),
    // What a streak badge defined later asks of every member (membersReaching); absent before streaks.
    { name: 'streak_longest', type: 'float8', of: (user) => user.streak_longest ?? 0 },
  ],
};

export const TABLES: { [K in RecordKind]: Table<Records[K]> } = {
  apps: { key: [text('app_id')], columns: [] },
  api_keys: { key: [text('key_sha256')], columns: [text('app_id')] },
  users,
  challenges: { key: [text('challenge_id')], columns: [text('app_id')] },
  tasks: { key: [text('task_id')], columns: [text('app_id')] },
  progress: { key: [text('task_id'), text('account_name')], columns: [text('app_id')] },
  member_challenges: { key: [text('challenge_id'), text('account_name')], columns: [text('app_id')] },
  endorsements: {
    key: [text('app_id'), text('from_account'), text('to_account'), text('endorsement_id')],
    columns: [],
  },
  idempotency: { key: [text('api_key'), text('idempotency_key')], columns: [float('created_at')] },
  badge_awards: { key: [text('app_id'), text('account_name'), text('badge_id')], columns: [] },
  submissions: {
    key: [text('submission_id')],
    columns: [text('app_id'), text('account_name'), text('status'), float('created_at')],
  },
  attempts: { key: [text('task_id'), text('account_name')], columns: [text('app_id')] },
  // Points and time order the season's board (season_points_by_order).
  season_points: { key: [text('app_id'), text('season_id'), text('account_name')], columns: [float('points'), float('at')] },
};
