// The schema, one step per version from the one before, each applied in a
// transaction of its own and recorded in schema_migrations. Several server
// processes may start at once on one database: an advisory lock lets one
// migrate while the others wait, then find nothing left to do.
//
// Text columns compare by code point (COLLATE "C"), as IndexedDB compares keys,
// so every adapter lists names in the same order whatever the server's locale.
import { BLOCK_FILL } from './board-blocks.js';
import { FIRST_START } from './board-order.js';
import { SPLIT_DUE } from './board-moves.js';
import { BOARD_START, SECTION_FILL } from './board-sections.js';
import { SEASON_START } from './season-blocks.js';
import type { SqlDriver } from './sql.js';

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'records',
    statements: [
      `CREATE TABLE meta (key text COLLATE "C" PRIMARY KEY, value text NOT NULL)`,
      `CREATE TABLE apps (app_id text COLLATE "C" PRIMARY KEY, record text NOT NULL)`,
      `CREATE TABLE api_keys (key text COLLATE "C" PRIMARY KEY, app_id text COLLATE "C", record text NOT NULL)`,
      `CREATE INDEX api_keys_by_app ON api_keys (app_id)`,
      `CREATE TABLE users (
        app_id text COLLATE "C", account_name text COLLATE "C",
        total_score float8 NOT NULL, score_at float8 NOT NULL, xp float8 NOT NULL, xp_at float8 NOT NULL,
        week text COLLATE "C" NOT NULL, week_score float8 NOT NULL, week_at float8 NOT NULL,
        month text COLLATE "C" NOT NULL, month_score float8 NOT NULL, month_at float8 NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (app_id, account_name))`,
      // One index per board, in board order: a page is a range of one of them.
      `CREATE INDEX users_by_score ON users (app_id, total_score DESC, score_at, account_name)`,
      `CREATE INDEX users_by_xp ON users (app_id, xp DESC, xp_at, account_name)`,
      `CREATE INDEX users_by_week ON users (app_id, week, week_score DESC, week_at, account_name)`,
      `CREATE INDEX users_by_month ON users (app_id, month, month_score DESC, month_at, account_name)`,
      `CREATE TABLE challenges (challenge_id text COLLATE "C" PRIMARY KEY, app_id text COLLATE "C" NOT NULL, record text NOT NULL)`,
      `CREATE INDEX challenges_by_app ON challenges (app_id)`,
      `CREATE TABLE tasks (task_id text COLLATE "C" PRIMARY KEY, app_id text COLLATE "C" NOT NULL, record text NOT NULL)`,
      `CREATE INDEX tasks_by_app ON tasks (app_id)`,
      `CREATE TABLE progress (
        task_id text COLLATE "C", account_name text COLLATE "C", app_id text COLLATE "C" NOT NULL, record text NOT NULL,
        PRIMARY KEY (task_id, account_name))`,
      `CREATE INDEX progress_by_app ON progress (app_id, account_name)`,
      `CREATE TABLE member_challenges (
        challenge_id text COLLATE "C", account_name text COLLATE "C", app_id text COLLATE "C" NOT NULL, record text NOT NULL,
        PRIMARY KEY (challenge_id, account_name))`,
      `CREATE INDEX member_challenges_by_app ON member_challenges (app_id, account_name)`,
      `CREATE TABLE endorsements (
        app_id text COLLATE "C", from_account text COLLATE "C", to_account text COLLATE "C", endorsement_id text COLLATE "C",
        record text NOT NULL,
        PRIMARY KEY (app_id, from_account, to_account, endorsement_id))`,
      `CREATE TABLE logs (
        seq bigserial PRIMARY KEY, app_id text COLLATE "C" NOT NULL, account_name text COLLATE "C" NOT NULL, record text NOT NULL)`,
      `CREATE INDEX logs_by_app ON logs (app_id, account_name)`,
      `CREATE TABLE idempotency (
        api_key text COLLATE "C", idempotency_key text COLLATE "C", created_at float8 NOT NULL, record text NOT NULL,
        PRIMARY KEY (api_key, idempotency_key))`,
      `CREATE INDEX idempotency_by_created ON idempotency (created_at)`,
    ],
  },
  {
    version: 2,
    name: 'board counts',
    statements: [
      // How many members hold each value on each board, so that an offset or a
      // rank is a sum over values, never a count of members.
      `CREATE TABLE board_counts (
        app_id text COLLATE "C", board text COLLATE "C", period text COLLATE "C", value float8, count integer NOT NULL,
        PRIMARY KEY (app_id, board, period, value))`,
      // Members written before this version are counted once, here.
      `INSERT INTO board_counts (app_id, board, period, value, count)
        SELECT app_id, 'score', '', total_score, count(*) FROM users GROUP BY app_id, total_score
        UNION ALL SELECT app_id, 'xp', '', xp, count(*) FROM users GROUP BY app_id, xp
        UNION ALL SELECT app_id, 'weekly', week, week_score, count(*) FROM users WHERE week <> '' GROUP BY app_id, week, week_score
        UNION ALL SELECT app_id, 'monthly', month, month_score, count(*) FROM users WHERE month <> '' GROUP BY app_id, month, month_score`,
    ],
  },
  {
    version: 3,
    name: 'board blocks',
    statements: [
      // Counts per value left one value's members to be walked: a million at 0 points cost
      // a million index entries to reach the last page. Blocks cut every value, and the
      // name lists that count a period board's unranked tail (board-blocks.ts).
      `CREATE TABLE board_blocks (
        app_id text COLLATE "C", board text COLLATE "C", period text COLLATE "C", value float8,
        start_at float8, start_name text COLLATE "C", count integer NOT NULL,
        PRIMARY KEY (app_id, board, period, value, start_at, start_name))`,
      `WITH members AS (
          SELECT app_id, 'score' AS board, '' AS period, total_score AS value, score_at AS at, account_name AS name FROM users
          UNION ALL SELECT app_id, 'xp', '', xp, xp_at, account_name FROM users
          UNION ALL SELECT app_id, 'weekly', week, week_score, week_at, account_name FROM users WHERE week <> ''
          UNION ALL SELECT app_id, 'monthly', month, month_score, month_at, account_name FROM users WHERE month <> ''
          UNION ALL SELECT app_id, 'names', '', 0, 0, account_name FROM users
          UNION ALL SELECT app_id, 'weekly_names', week, 0, 0, account_name FROM users WHERE week <> ''
          UNION ALL SELECT app_id, 'monthly_names', month, 0, 0, account_name FROM users WHERE month <> ''),
        numbered AS (
          SELECT *, row_number() OVER (PARTITION BY app_id, board, period, value ORDER BY at, name) - 1 AS i FROM members),
        blocks AS (
          SELECT app_id, board, period, value, i / ${BLOCK_FILL} AS block, min(i) AS first, count(*) AS count
          FROM numbered GROUP BY app_id, board, period, value, i / ${BLOCK_FILL})
      INSERT INTO board_blocks (app_id, board, period, value, start_at, start_name, count)
      SELECT b.app_id, b.board, b.period, b.value,
        CASE WHEN b.block = 0 THEN ${FIRST_START}::float8 ELSE n.at END, CASE WHEN b.block = 0 THEN '' ELSE n.name END, b.count
      FROM blocks AS b JOIN numbered AS n
        ON n.app_id = b.app_id AND n.board = b.board AND n.period = b.period AND n.value = b.value AND n.i = b.first`,
      `DROP TABLE board_counts`,
      // The walk inside one block of a period's name list.
      `CREATE INDEX users_by_week_name ON users (app_id, week, account_name)`,
      `CREATE INDEX users_by_month_name ON users (app_id, month, account_name)`,
    ],
  },
  {
    version: 4,
    name: 'rate counters',
    statements: [
      // A sliding window per bucket (rate-counters.ts): the writes of its current fixed window
      // and of the one before. `admitted` is whether the last count fit, which RETURNING could
      // not tell otherwise; `expires_at` is when both windows have passed.
      `CREATE TABLE rate_counters (
        bucket text COLLATE "C" PRIMARY KEY, window_ms float8 NOT NULL, window_start float8 NOT NULL,
        hits integer NOT NULL, previous_hits integer NOT NULL, admitted boolean NOT NULL, expires_at float8 NOT NULL)`,
      `CREATE INDEX rate_counters_by_expiry ON rate_counters (expires_at)`,
    ],
  },
  {
    version: 5,
    name: 'board sections',
    statements: [
      // Sums over every block of a board cost a deep page 20 times the first's at a million
      // members: sections count runs of blocks (board-sections.ts). Both tables keep the
      // value negated, so board order is ascending in every column and ranges over an index.
      `ALTER TABLE board_blocks ADD COLUMN negated_value float8 GENERATED ALWAYS AS (0 - value) STORED`,
      `CREATE INDEX board_blocks_in_board_order ON board_blocks (app_id, board, period, negated_value, start_at, start_name)`,
      `CREATE TABLE board_sections (
        app_id text COLLATE "C", board text COLLATE "C", period text COLLATE "C",
        negated_value float8, start_at float8, start_name text COLLATE "C",
        count integer NOT NULL, blocks integer NOT NULL,
        PRIMARY KEY (app_id, board, period, negated_value, start_at, start_name))`,
      // The blocks there are, SECTION_FILL to a section; each board's first starts at BOARD_START.
      `WITH numbered AS (
          SELECT *, row_number() OVER (
            PARTITION BY app_id, board, period ORDER BY negated_value, start_at, start_name) - 1 AS i
          FROM board_blocks),
        sections AS (
          SELECT app_id, board, period, i / ${SECTION_FILL} AS section, min(i) AS first, sum(count) AS count, count(*) AS blocks
          FROM numbered GROUP BY app_id, board, period, i / ${SECTION_FILL})
      INSERT INTO board_sections (app_id, board, period, negated_value, start_at, start_name, count, blocks)
      SELECT s.app_id, s.board, s.period,
        CASE WHEN s.section = 0 THEN ${-BOARD_START.value}::float8 ELSE n.negated_value END,
        CASE WHEN s.section = 0 THEN ${FIRST_START}::float8 ELSE n.start_at END,
        CASE WHEN s.section = 0 THEN '' ELSE n.start_name END, s.count, s.blocks
      FROM sections AS s JOIN numbered AS n
        ON n.app_id = s.app_id AND n.board = s.board AND n.period = s.period AND n.i = s.first`,
    ],
  },
  {
    version: 6,
    name: 'name periods',
    statements: [
      // The members of each block and section of all names with points in each week and month
      // (name-periods.ts): a period board's unranked tail is counted as a board is.
      `CREATE TABLE name_periods (
        app_id text COLLATE "C", level text COLLATE "C",
        negated_value float8, start_at float8, start_name text COLLATE "C",
        board text COLLATE "C", period text COLLATE "C", count integer NOT NULL,
        PRIMARY KEY (app_id, level, negated_value, start_at, start_name, board, period))`,
      `WITH blocks AS (
          SELECT app_id, negated_value, start_at, start_name,
            lead(start_name) OVER (PARTITION BY app_id ORDER BY negated_value, start_at, start_name) AS next_name
          FROM board_blocks WHERE board = 'names')
      INSERT INTO name_periods (app_id, level, negated_value, start_at, start_name, board, period, count)
      SELECT b.app_id, 'block', b.negated_value, b.start_at, b.start_name, counted.board, counted.period, count(*)
      FROM blocks AS b
      -- Each block's names a range of the index: its bounds read from the blocks alone.
      JOIN users AS u ON u.app_id = b.app_id AND u.account_name >= b.start_name AND u.account_name < coalesce(b.next_name,
        (SELECT max(last.account_name) || 'x' FROM users AS last WHERE last.app_id = b.app_id))
      CROSS JOIN LATERAL (VALUES ('weekly', u.week), ('monthly', u.month)) AS counted(board, period)
      WHERE counted.period <> ''
      GROUP BY b.app_id, b.negated_value, b.start_at, b.start_name, counted.board, counted.period`,
      `WITH sections AS (
          SELECT app_id, negated_value, start_at, start_name,
            lead(negated_value) OVER w AS next_value, lead(start_at) OVER w AS next_at, lead(start_name) OVER w AS next_name
          FROM board_sections WHERE board = 'names'
          WINDOW w AS (PARTITION BY app_id ORDER BY negated_value, start_at, start_name))
      INSERT INTO name_periods (app_id, level, negated_value, start_at, start_name, board, period, count)
      SELECT s.app_id, 'section', s.negated_value, s.start_at, s.start_name, b.board, b.period, sum(b.count)
      FROM sections AS s
      JOIN name_periods AS b ON b.app_id = s.app_id AND b.level = 'block'
        AND (b.negated_value, b.start_at, b.start_name) >= (s.negated_value, s.start_at, s.start_name)
        AND (s.next_value IS NULL OR (b.negated_value, b.start_at, b.start_name) < (s.next_value, s.next_at, s.next_name))
      GROUP BY s.app_id, s.negated_value, s.start_at, s.start_name, b.board, b.period`,
    ],
  },
  {
    version: 7,
    name: 'listed counts',
    statements: [
      // A board's page lists each member's counts beside the columns it has: read from columns,
      // its 100 members' records (some 46 KB) are neither sent nor parsed (boards.ts).
      `ALTER TABLE users ADD COLUMN challenges_completed float8 NOT NULL DEFAULT 0,
        ADD COLUMN tasks_completed float8 NOT NULL DEFAULT 0`,
      // Members written before this version, once: 38 s at a million members, 466,000 of them
      // with counts (a member without stays at the default, unwritten).
      `UPDATE users SET challenges_completed = counted.challenges_completed, tasks_completed = counted.tasks_completed
      FROM (
        SELECT app_id, account_name, (record::json->>'challenges_completed')::float8 AS challenges_completed,
          (record::json->>'tasks_completed')::float8 AS tasks_completed
        FROM users
      ) AS counted
      WHERE users.app_id = counted.app_id AND users.account_name = counted.account_name
        AND (counted.challenges_completed <> 0 OR counted.tasks_completed <> 0)`,
    ],
  },
  {
    version: 8,
    name: 'no period name lists',
    statements: [
      // A period's members among all names are counted by name_periods (version 6): its own
      // name list, its blocks and sections and the index walked inside them, cost every write.
      `DELETE FROM board_blocks WHERE board IN ('weekly_names', 'monthly_names')`,
      `DELETE FROM board_sections WHERE board IN ('weekly_names', 'monthly_names')`,
      `DROP INDEX users_by_week_name`,
      `DROP INDEX users_by_month_name`,
    ],
  },
  {
    version: 9,
    name: 'name periods by period',
    statements: [
      // One period's counts over a run of blocks or sections, as one range (boards.ts, readTail): by
      // the primary key, either a lookup per block (64 for a section's) or every period's counts of
      // the run read and filtered. count stays out of it, so a count's change remains a HOT update.
      `CREATE INDEX name_periods_by_period ON name_periods (app_id, board, period, level, negated_value, start_at, start_name)`,
    ],
  },
  {
    version: 10,
    name: 'split due',
    statements: [
      // What a request's moves on the boards call where they would grow a block or a section
      // past its split (board-moves.ts): the write fails, and is run again to cut it.
      `CREATE FUNCTION questboard_split_due() RETURNS integer LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'a block or a section is due to be cut' USING ERRCODE = '${SPLIT_DUE}';
        END $$`,
    ],
  },
  {
    version: 11,
    name: 'badges and streaks',
    statements: [
      // A member's badges are one range of the key. Definitions live on the app's record.
      `CREATE TABLE badge_awards (
        app_id text COLLATE "C", account_name text COLLATE "C", badge_id text COLLATE "C", record text NOT NULL,
        PRIMARY KEY (app_id, account_name, badge_id))`,
      // A streak badge defined later is awarded to those whose longest streak reaches it, read
      // from this column. Members from before streaks have none.
      `ALTER TABLE users ADD COLUMN streak_longest float8 NOT NULL DEFAULT 0`,
    ],
  },
  {
    version: 12,
    name: 'hashed api keys',
    statements: [
      // API keys kept as their SHA-256 alone (src/api/key-hash.ts writes the same hex), so a copy of
      // the database gives no key away. An app key's idempotency records follow it to its hash first:
      // the record's text too, which begins with the key as JSON.stringify wrote it (text, not
      // JSON: a stored answer may hold \u0000, which PostgreSQL's JSON functions refuse). An
      // installation admin key's were kept under its hash already; any other named a key no longer
      // there (its app replaced), which could answer no one.
      `UPDATE idempotency SET api_key = encode(sha256(convert_to(api_key, 'UTF8')), 'hex'),
          record = '{"api_key":"' || encode(sha256(convert_to(api_key, 'UTF8')), 'hex') || '"'
            || substr(record, length('{"api_key":' || to_json(api_key)::text) + 1)
        WHERE api_key IN (SELECT key FROM api_keys) AND starts_with(record, '{"api_key":' || to_json(api_key)::text)`,
      `DELETE FROM idempotency WHERE api_key !~ '^[0-9a-f]{64}$'`,
      `ALTER TABLE api_keys RENAME COLUMN key TO key_sha256`,
      `UPDATE api_keys SET key_sha256 = encode(sha256(convert_to(key_sha256, 'UTF8')), 'hex')`,
      `UPDATE api_keys SET record = json_build_object(
        'key_sha256', key_sha256, 'app_id', app_id, 'scopes', record::json->'scopes')::text`,
    ],
  },
  {
    version: 13,
    name: 'audit log',
    statements: [
      // Each app's entries are one range of the key, read newest first.
      `CREATE TABLE audit (
        app_id text COLLATE "C", at float8, id text COLLATE "C", record text NOT NULL, PRIMARY KEY (app_id, at, id))`,
    ],
  },
  {
    version: 14,
    name: 'webhook deliveries',
    statements: [
      // The outbox of webhook deliveries (webhook-outbox.ts): a row per event and endpoint,
      // inserted in the write's transaction. The body is kept as the event was recorded, so every
      // attempt sends the same bytes under the same webhook-id (id). (The secret too, until version 17.)
      `CREATE TABLE webhook_deliveries (
        id text COLLATE "C" PRIMARY KEY, app_id text COLLATE "C" NOT NULL,
        url text NOT NULL, secret text NOT NULL, type text COLLATE "C" NOT NULL, body text NOT NULL,
        created_at float8 NOT NULL, status text COLLATE "C" NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0, next_at float8 NOT NULL, lease_until float8 NOT NULL DEFAULT 0,
        last_attempt_at float8, last_status integer, last_error text, delivered_at float8)`,
      // What a claim reads: the pending, by when they are due; the rest are history.
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending'`,
      `CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, created_at DESC, id DESC)`,
    ],
  },
  {
    version: 15,
    name: 'quests',
    statements: [
      // What members send for review (docs/quests.md), listed oldest first by status (the review
      // queue) and by member; and each member's attempts at a task (wrong codes, a pending submission).
      `CREATE TABLE submissions (
        submission_id text COLLATE "C" PRIMARY KEY, app_id text COLLATE "C" NOT NULL, account_name text COLLATE "C" NOT NULL,
        status text COLLATE "C" NOT NULL, created_at float8 NOT NULL, record text NOT NULL)`,
      `CREATE INDEX submissions_by_status ON submissions (app_id, status, created_at, submission_id)`,
      `CREATE INDEX submissions_by_member ON submissions (app_id, account_name, created_at, submission_id)`,
      `CREATE TABLE attempts (
        task_id text COLLATE "C", account_name text COLLATE "C", app_id text COLLATE "C" NOT NULL, record text NOT NULL,
        PRIMARY KEY (task_id, account_name))`,
      `CREATE INDEX attempts_by_app ON attempts (app_id)`,
    ],
  },
  {
    version: 16,
    name: 'seasons',
    statements: [
      // An app's seasons kept on its record, which every log reads anyway, not in a meta record of
      // their own that each log read once more. Put first in the record's text (text, not JSON, as
      // version 12: a record may hold \u0000), where no app record had them.
      `UPDATE apps SET record = '{"seasons":' || meta.value || ',' || substr(apps.record, 2)
        FROM meta WHERE meta.key = 'seasons ' || apps.app_id`,
      `DELETE FROM meta WHERE starts_with(key, 'seasons ')`,
      // Each member's points in a season a row of its own, indexed in board order (the most points
      // first, then the earlier to reach them, then by name), not one meta record holding every member's.
      `CREATE TABLE season_points (
        app_id text COLLATE "C", season_id text COLLATE "C", account_name text COLLATE "C",
        points float8 NOT NULL, at float8 NOT NULL, record text NOT NULL,
        PRIMARY KEY (app_id, season_id, account_name))`,
      `CREATE INDEX season_points_by_order ON season_points (app_id, season_id, points DESC, at, account_name)`,
      // Kept as 'season <app_id> <season_id>' (a season's id is a GUID, without spaces) holding
      // {"<name>": [points, at]}.
      `INSERT INTO season_points (app_id, season_id, account_name, points, at, record)
        SELECT app_id, season_id, member.key, (member.value->>0)::float8, (member.value->>1)::float8,
          json_build_object('app_id', app_id, 'season_id', season_id, 'account_name', member.key,
            'points', member.value->0, 'at', member.value->1)::text
        FROM (SELECT substring(key from '^season (.*) [^ ]*$') AS app_id, substring(key from ' ([^ ]*)$') AS season_id,
            value FROM meta WHERE starts_with(key, 'season ')) AS season, json_each(season.value::json) AS member`,
      `DELETE FROM meta WHERE starts_with(key, 'season ')`,
    ],
  },
  {
    version: 17,
    name: 'webhook secrets at send time',
    statements: [
      // A delivery kept its endpoint's secret, in clear for 30 days, and signed every retry with
      // it after the site had changed it. A claim now reads the app's secrets (webhook-outbox.ts):
      // the deliveries left pending sign with them too.
      `ALTER TABLE webhook_deliveries DROP COLUMN secret`,
    ],
  },
  {
    version: 18,
    name: 'ledger transfers',
    statements: [
      // The ledger's history: each app's transfers are one range of the key, read newest first.
      `CREATE TABLE transfers (
        app_id text COLLATE "C", at float8, tx_id text COLLATE "C", record text NOT NULL, PRIMARY KEY (app_id, at, tx_id))`,
    ],
  },
  {
    version: 19,
    name: 'season member counts',
    statements: [
      // Each season's entry on the app counts the members on its board (Season.member_count), so
      // that a page of it counts none: counted here from season_points. In the record's text (as
      // version 12: a record may hold \u0000, which PostgreSQL's JSON functions refuse), where
      // every season's object begins with its id, as JSON.stringify wrote it (core/seasons.ts,
      // putSeason): a quote outside a string cannot be part of one. First every season at 0...
      `UPDATE apps SET record = replace(record, '{"season_id":"', '{"member_count":0,"season_id":"')
        WHERE strpos(record, '{"season_id":"') > 0`,
      // ...then each season with members at its count, its app's seasons one after another.
      `WITH RECURSIVE counted AS (
          SELECT app_id, '{"member_count":0,"season_id":' || to_json(season_id)::text || ',' AS uncounted,
            '{"member_count":' || count(*) || ',"season_id":' || to_json(season_id)::text || ',' AS counted,
            row_number() OVER (PARTITION BY app_id ORDER BY season_id) AS i
          FROM season_points GROUP BY app_id, season_id),
        folded AS (
          SELECT app_id, record, 0::bigint AS i FROM apps WHERE app_id IN (SELECT app_id FROM counted)
          UNION ALL
          SELECT folded.app_id, replace(folded.record, counted.uncounted, counted.counted), folded.i + 1
          FROM folded JOIN counted ON counted.app_id = folded.app_id AND counted.i = folded.i + 1)
      UPDATE apps SET record = last.record
        FROM (SELECT DISTINCT ON (app_id) app_id, record FROM folded ORDER BY app_id, i DESC) AS last
        WHERE apps.app_id = last.app_id`,
    ],
  },
  {
    version: 20,
    name: 'season blocks',
    statements: [
      // A season's board in an order every column of which ascends (0 − points first), so that a
      // place in it is a row comparison over the index (season-blocks.ts).
      `ALTER TABLE season_points ADD COLUMN negated_points float8 GENERATED ALWAYS AS (0 - points) STORED`,
      `DROP INDEX season_points_by_order`,
      `CREATE INDEX season_points_by_order ON season_points (app_id, season_id, negated_points, at, account_name)`,
      // Each season cut into blocks of BLOCK_FILL members with their counts: a rank, an offset or
      // a member's place counted the members above it one by one (season-blocks.ts).
      `CREATE TABLE season_blocks (
        app_id text COLLATE "C", season_id text COLLATE "C", negated_points float8, start_at float8,
        start_name text COLLATE "C", count integer NOT NULL,
        PRIMARY KEY (app_id, season_id, negated_points, start_at, start_name))`,
      `INSERT INTO season_blocks (app_id, season_id, negated_points, start_at, start_name, count)
      SELECT app_id, season_id,
        CASE WHEN i = 0 THEN ${SEASON_START.negated_points}::float8 ELSE negated_points END,
        CASE WHEN i = 0 THEN ${SEASON_START.start_at}::float8 ELSE at END,
        CASE WHEN i = 0 THEN '${SEASON_START.start_name}' ELSE account_name END,
        least(${BLOCK_FILL}, total - i)
      FROM (
        SELECT app_id, season_id, negated_points, at, account_name,
          row_number() OVER (PARTITION BY app_id, season_id ORDER BY negated_points, at, account_name) - 1 AS i,
          count(*) OVER (PARTITION BY app_id, season_id) AS total
        FROM season_points) AS numbered
      WHERE i % ${BLOCK_FILL} = 0`,
    ],
  },
  {
    version: 21,
    name: 'season sections',
    statements: [
      // Each season's blocks counted in sections of SECTION_FILL: a member's place or a deep page
      // summed every block of the season above it (season-sections.ts).
      `CREATE TABLE season_sections (
        app_id text COLLATE "C", season_id text COLLATE "C", negated_points float8, start_at float8,
        start_name text COLLATE "C", count integer NOT NULL, blocks integer NOT NULL,
        PRIMARY KEY (app_id, season_id, negated_points, start_at, start_name))`,
      // A section starts at its first block; each season's first at SEASON_START.
      `INSERT INTO season_sections (app_id, season_id, negated_points, start_at, start_name, count, blocks)
      SELECT app_id, season_id,
        CASE WHEN i = 0 THEN ${SEASON_START.negated_points}::float8 ELSE negated_points END,
        CASE WHEN i = 0 THEN ${SEASON_START.start_at}::float8 ELSE start_at END,
        CASE WHEN i = 0 THEN '${SEASON_START.start_name}' ELSE start_name END,
        members, blocks
      FROM (
        SELECT app_id, season_id, negated_points, start_at, start_name, i,
          sum(count) OVER (PARTITION BY app_id, season_id, i / ${SECTION_FILL}) AS members,
          count(*) OVER (PARTITION BY app_id, season_id, i / ${SECTION_FILL}) AS blocks
        FROM (
          SELECT app_id, season_id, negated_points, start_at, start_name, count,
            row_number() OVER (PARTITION BY app_id, season_id ORDER BY negated_points, start_at, start_name) - 1 AS i
          FROM season_blocks) AS numbered) AS grouped
      WHERE i % ${SECTION_FILL} = 0`,
    ],
  },
];

/** Any fixed number: the lock that one migrating process holds. */
const MIGRATION_LOCK = 0x5142_0001;
/**
 * Each migration statement's deadline: an upgrade rewrites whole tables (version 7 updates most
 * members), far past a request's statement deadline, and runs before the server serves.
 */
const MIGRATION_DEADLINE_MS = 30 * 60_000;

/** Brings the schema up to `upTo` (every migration by default); returns the version found before. */
export async function migrate(driver: SqlDriver, upTo = MIGRATIONS.length): Promise<number> {
  let found = 0;
  for (const migration of MIGRATIONS.slice(0, upTo)) {
    await driver.transaction(
      'write',
      async (session) => {
        await session.query({ text: `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`, values: [] });
        await session.query({
          text: 'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
          values: [],
        });
        const applied = await session.query({
          text: 'SELECT 1 FROM schema_migrations WHERE version = $1',
          values: [migration.version],
        });
        if (applied.length > 0) {
          found = migration.version;
          return;
        }
        for (const statement of migration.statements) await session.query({ text: statement, values: [] });
        await session.query({
          text: 'INSERT INTO schema_migrations (version, name) VALUES ($1, $2)',
          values: [migration.version, migration.name],
        });
      },
      undefined,
      MIGRATION_DEADLINE_MS,
    );
  }
  return found;
}
