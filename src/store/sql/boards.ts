// Leaderboard queries in SQL. Each board is an index over members in board
// order (value descending, then who reached it first, then name), and
// board_counts holds how many members hold each value. An offset is found in
// the counts (a sum over values, not a walk over members), then the page is a
// range of the index from the first member of that value: a page deep in the
// board costs what the first page costs, but for the members of one value
// skipped to reach the offset.
import type { BoardRef, Listed } from '../port.js';
import { rowOf } from '../placements.js';
import type { UserRecord } from '../records.js';
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** The columns that order one board, and the filter that makes a period board. */
interface BoardColumns {
  value: Identifier;
  at: Identifier;
  /** The period column a period board filters on. */
  period: Identifier | null;
}

const COLUMNS: Record<BoardRef['type'], BoardColumns> = {
  score: { value: new Identifier('total_score'), at: new Identifier('score_at'), period: null },
  xp: { value: new Identifier('xp'), at: new Identifier('xp_at'), period: null },
  weekly: { value: new Identifier('week_score'), at: new Identifier('week_at'), period: new Identifier('week') },
  monthly: { value: new Identifier('month_score'), at: new Identifier('month_at'), period: new Identifier('month') },
};

/** The period column of a period board's unranked members. */
const periodColumn = (board: BoardRef) => new Identifier(board.type === 'weekly' ? 'week' : 'month');

interface MemberRow {
  record: string;
  value: number;
  at: number;
}

function listed({ record, value, at }: MemberRow): Listed {
  return { row: { ...rowOf(JSON.parse(record) as UserRecord), at }, value };
}

export function boardQueries(session: SqlSession) {
  const one = async (query: Query) => {
    const [row] = await session.query<{ n: number }>(query);
    return row?.n ?? 0;
  };
  const countHigher = (board: BoardRef, value: number) =>
    one(sql`SELECT coalesce(sum(count), 0)::float8 AS n FROM ${counts(board)} AND value > ${value}::float8`);
  const counts = (board: BoardRef) => sql`board_counts
    WHERE app_id = ${board.app_id}::text AND board = ${board.type}::text AND period = ${board.period ?? ''}::text`;
  /** Members of the board: the app's, or for a period board those with points in the period. */
  const onBoard = (board: BoardRef) => {
    const { period } = COLUMNS[board.type];
    return period === null
      ? sql`app_id = ${board.app_id}::text`
      : sql`app_id = ${board.app_id}::text AND ${period} = ${board.period}::text`;
  };

  return {
    countOnBoard: (board: BoardRef) => one(sql`SELECT coalesce(sum(count), 0)::float8 AS n FROM ${counts(board)}`),
    countHigher: (board: BoardRef, value: number) => countHigher(board, value),
    countDistinctHigher: (board: BoardRef, value: number) =>
      one(sql`SELECT count(*)::float8 AS n FROM ${counts(board)} AND value > ${value}::float8`),

    async positionOf(board: BoardRef, user: UserRecord): Promise<number> {
      const { value, at } = COLUMNS[board.type];
      const own = user[value.text as keyof UserRecord] as number;
      const ownAt = user[at.text as keyof UserRecord] as number;
      const [higher, before] = await Promise.all([
        countHigher(board, own),
        one(sql`SELECT count(*)::float8 AS n FROM users WHERE ${onBoard(board)} AND ${value} = ${own}::float8
          AND (${at}, account_name) < (${ownAt}::float8, ${user.account_name}::text)`),
      ]);
      return higher + before;
    },

    async boardPage(board: BoardRef, offset: number, limit: number): Promise<Listed[]> {
      if (limit === 0) return [];
      const { value, at } = COLUMNS[board.type];
      // The value holding the offset-th member, and how many members hold higher values.
      const [start] = await session.query<{ value: number; before: number }>(sql`
        SELECT value, before FROM (
          SELECT value, count, (sum(count) OVER (ORDER BY value DESC) - count)::float8 AS before FROM ${counts(board)}
        ) AS groups WHERE before + count > ${offset}::float8 ORDER BY value DESC LIMIT 1`);
      if (!start) return [];
      const rows = await session.query<MemberRow>(sql`
        SELECT record, ${value} AS value, ${at} AS at FROM users WHERE ${onBoard(board)} AND ${value} <= ${start.value}::float8
        ORDER BY ${value} DESC, ${at}, account_name OFFSET ${offset - start.before}::integer LIMIT ${limit}::integer`);
      return rows.map(listed);
    },

    countUnrankedBefore: (board: BoardRef, name: string) =>
      one(sql`SELECT count(*)::float8 AS n FROM users WHERE app_id = ${board.app_id}::text
        AND ${periodColumn(board)} <> ${board.period}::text AND account_name < ${name}::text`),

    async unrankedPage(board: BoardRef, skip: number, limit: number): Promise<Listed[]> {
      if (limit === 0) return [];
      const rows = await session.query<MemberRow>(sql`
        SELECT record, 0::float8 AS value, 0::float8 AS at FROM users WHERE app_id = ${board.app_id}::text
          AND ${periodColumn(board)} <> ${board.period}::text
        ORDER BY account_name OFFSET ${skip}::integer LIMIT ${limit}::integer`);
      return rows.map(listed);
    },
  };
}
