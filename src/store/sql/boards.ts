// Leaderboard queries in SQL. Each board is an index over members in board
// order (value descending, then who reached it first, then name), and
// board_blocks cuts it into blocks of a few hundred members with their counts
// (board-blocks.ts), board_sections those into sections of a few dozen blocks
// (board-sections.ts). An offset or a rank is a sum over a board's sections and
// one section's blocks, then a short walk of the index inside one block: a page
// deep in the board costs about what the first page costs.
import type { BoardRef, Listed, PageWindow } from '../port.js';
import type { BoardRow, UserRecord } from '../records.js';
import {
  BOARD_COLUMNS,
  FIRST_START,
  nameListOf,
  onBoard,
  pastLastName,
  place,
  placeOf,
  rowsOf,
  type Board,
  type BoardKey,
} from './board-order.js';
import { membersBefore } from './board-sections.js';
import { periodCountsOf } from './name-periods.js';
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** The period column of a period board's unranked members. */
const periodColumn = (board: BoardRef) => new Identifier(board.type === 'weekly' ? 'week' : 'month');

/** A member as a page lists them: the board's value and time, and the columns a board row shows. */
interface MemberRow extends Omit<BoardRow, 'at'> {
  value: number;
  at: number;
}

/** The columns of users a page lists (BoardRow), under a table alias or none. */
const listedColumns = (alias = '') =>
  new Identifier(
    ['account_name', 'challenges_completed', 'tasks_completed', 'total_score', 'xp', 'week', 'month']
      .map((column) => (alias ? `${alias}.${column}` : column))
      .join(', '),
  );

/** A page of a period board's unranked tail, from its skip-th member, `take` of them (undefined: none found). */
interface Tail {
  skip: number | undefined;
  take: number | undefined;
  members: Listed[];
}

function listed(member: MemberRow): Listed {
  const { account_name, challenges_completed, tasks_completed, total_score, xp, week, month, at, value } = member;
  return { row: { account_name, at, challenges_completed, tasks_completed, total_score, xp, week, month }, value };
}

const keyOf = (board: { app_id: string; type: Board; period: string | null }): BoardKey => ({
  app_id: board.app_id,
  board: board.type,
  period: board.period ?? '',
});

/**
 * Reads asked for before they were needed (a server asks for a leaderboard's page and count
 * as the transaction opens, with its key: handler/read-ahead.ts), by what was asked: the next
 * same question takes the answer, in place of a statement and its round trip. Only the same
 * question: one asked otherwise is read anew.
 */
export function takingReadsAhead() {
  const readsAhead = new Map<string, Promise<unknown>>();
  return {
    takenOrRead<T>(question: unknown[], read: () => Promise<T>): Promise<T> {
      const key = JSON.stringify(question);
      const ahead = readsAhead.get(key) as Promise<T> | undefined;
      readsAhead.delete(key);
      if (ahead) return ahead;
      const answer = read();
      // Not always taken: its failure fails the request only where it is.
      answer.catch(() => undefined);
      readsAhead.set(key, answer);
      return answer;
    },
    clear: () => readsAhead.clear(),
  };
}

export function boardQueries(session: SqlSession) {
  const one = async (query: Query) => {
    const [row] = await session.query<{ n: number }>(query);
    return row?.n ?? 0;
  };
  const blocks = (board: { app_id: string; type: Board; period: string | null }) => rowsOf('board_blocks', 'block', keyOf(board));
  /** Members on the board (a period board's ranked ones), as a scalar: the sum of its sections' counts. */
  const membersOn = (board: BoardRef) =>
    sql`(SELECT coalesce(sum(count), 0)::float8 FROM ${rowsOf('board_sections', 'section', keyOf(board))})`;
  /**
   * Members of a period board's unranked tail whose names sort before `name`: the members of all
   * names before the block holding the name, less those of them with points in the period
   * (name-periods.ts: the sections before the block's, and the blocks of its section before it),
   * and a walk of that block.
   */
  const unrankedBefore = (board: BoardRef, name: string) => {
    const names = nameListOf(board.app_id);
    const ranked = (level: 'section' | 'block', range: Query) =>
      sql`coalesce((SELECT sum(ranked.count) FROM ${periodCountsOf(board, level)} AND ${range}), 0)`;
    return sql`coalesce((
      SELECT (${membersBefore(names, placeOf('own'))} - coalesce((
        SELECT ${ranked('section', sql`${placeOf('ranked')} < ${placeOf('holding')}`)}
          + ${ranked('block', sql`${placeOf('ranked')} >= ${placeOf('holding')} AND ${placeOf('ranked')} < ${placeOf('own')}`)}
        FROM (
          SELECT * FROM ${rowsOf('board_sections', 'holding', names)} AND ${placeOf('holding')} <= ${placeOf('own')}
          ORDER BY holding.negated_value DESC, holding.start_at DESC, holding.start_name DESC LIMIT 1
        ) AS holding), 0) + (
        SELECT count(*) FROM users WHERE app_id = ${board.app_id}::text AND ${periodColumn(board)} <> ${board.period}::text
          AND account_name >= own.start_name AND account_name < ${name}::text
      ))::float8
      FROM (
        SELECT * FROM ${rowsOf('board_blocks', 'block', names)} AND value = 0 AND (start_at, start_name) <= (0, ${name}::text)
        ORDER BY start_at DESC, start_name DESC LIMIT 1
      ) AS own), 0)`;
  };
  /**
   * Counts above a value that a page's statement found with the page, by board and value: the rank
   * of a page's first member then costs no statement of its own. Board rows change only when a
   * write flushes, after its rules are done, or in deletes that forget every read (forget()).
   */
  const higherCounts = new Map<string, number>();
  const higherKey = (board: BoardRef, value: number) => JSON.stringify([keyOf(board), value]);
  /** Members above a value: those before where its first block would start. */
  const countHigher = async (board: BoardRef, value: number) =>
    higherCounts.get(higherKey(board, value)) ??
    one(sql`SELECT ${membersBefore(keyOf(board), place({ value, start_at: FIRST_START, start_name: '' }))} AS n`);
  /**
   * A page of a period board's unranked tail: the members of all names without points in the
   * period, from the skip-th, `take` of them, as `span` (a statement of one row) gives them. Each
   * section and block of all names counts its members less those with points in the period
   * (name-periods.ts): the block holding the skip-th is found as a page's is (boardPage), and the
   * page is a walk by name from its start, past the ranked members, up to the start of the first
   * block after the page. Bounded at both ends, the walk reads a few blocks of names whatever the
   * planner guesses (unbounded, a planner without statistics, a board just imported, read every
   * name to the board's end and sorted them). With the page, the members above 0: the rank of
   * every member of the tail; and the span, for a tail read ahead (tailsAhead).
   */
  async function readTail(board: BoardRef, span: Query): Promise<Tail> {
    const names = nameListOf(board.app_id);
    /**
     * The rows of a level in order, from `from` on, with their unranked members (the row's count
     * less its members with points in the period) and those before them (`before`: from `earlier`
     * on). Where the rows are a bounded run (`countsWithin`: the range of the level's counts in
     * name_periods that holds theirs), those counts are one range of name_periods_by_period,
     * summed with the rows' own by start: a join of the two, planned from estimates, was a nested
     * loop in PGlite, 4–6 ms at 100,000 members against 0.8 ms for a lookup a row. A walk with no end
     * known looks up each row's count as it goes, and stops where the caller's LIMIT does.
     * Unranked counted once per row, in a subquery of its own (OFFSET 0): pulled up, its count ran
     * again for each use.
     */
    const counted = (
      table: 'board_sections' | 'board_blocks',
      alias: string,
      earlier: Query,
      from: Query,
      countsWithin?: Query,
    ) => {
      const level = table === 'board_sections' ? 'section' : 'block';
      const row = (column: string) => new Identifier(`${alias}.${column}`);
      const start = (of: string) => new Identifier(`${of}.negated_value, ${of}.start_at, ${of}.start_name`);
      // A start with counts but no row (none is kept, but it would be a row of negative members)
      // is left out: `listed`.
      const unranked = countsWithin
        ? sql`
          SELECT negated_value, start_at, start_name, sum(count)::integer AS unranked FROM (
            SELECT ${start(alias)}, ${row('count')} AS count, 1 AS listed FROM ${rowsOf(table, alias, names)} ${from}
            UNION ALL
            SELECT ${start('ranked')}, 0 - ranked.count, 0 FROM ${periodCountsOf(board, level)} AND ${countsWithin}
          ) AS counts GROUP BY negated_value, start_at, start_name HAVING max(listed) = 1`
        : sql`
          SELECT ${start(alias)}, ${row('count')} - coalesce((
            SELECT ranked.count FROM ${periodCountsOf(board, level)} AND ${placeOf('ranked')} = ${placeOf(alias)}), 0) AS unranked
          FROM ${rowsOf(table, alias, names)} ${from}`;
      return sql`
        SELECT *, (${earlier} + sum(unranked) OVER w - unranked)::float8 AS before,
          lead(negated_value) OVER w AS next_value, lead(start_at) OVER w AS next_at, lead(start_name) OVER w AS next_name
        FROM (${unranked} ORDER BY negated_value, start_at, start_name OFFSET 0) AS rows
        WINDOW w AS (ORDER BY negated_value, start_at, start_name)`;
    };
    /** The first of the rows (counted) that holds the skip-th unranked member, from 0. */
    const holdingOf = (rows: Query) => sql`
      SELECT * FROM (${rows}) AS counted WHERE before + unranked > (SELECT skip FROM span)
      ORDER BY negated_value, start_at, start_name LIMIT 1`;
    /**
     * The block of all names holding the skip-th unranked member: its section, then its block among
     * the section's (up to the next section's start, or past every block: all are of value 0).
     */
    const sectionEnd = sql`(coalesce(section.next_value, 'Infinity'), coalesce(section.next_at, 0), coalesce(section.next_name, ''))`;
    /** The rows of an alias inside the section found, by their start. */
    const inSection = (alias: string) => sql`${placeOf(alias)} >= ${placeOf('section')} AND ${placeOf(alias)} < ${sectionEnd}`;
    // Every section of all names, against every section count of the period.
    const holding = sql`
      SELECT found.* FROM (${holdingOf(counted('board_sections', 'section', sql`0`, sql``, sql`TRUE`))}) AS section
      CROSS JOIN LATERAL (
        ${holdingOf(counted('board_blocks', 'block', sql`section.before`, sql`AND ${inSection('block')}`, inSection('ranked')))}
      ) AS found`;
    // From the skip-th unranked member, `take` of them (0: nothing else is read, as a CTE runs only
    // once read). The walk ends where the first block after the page starts: found from the first
    // block on, a block or two in all but long stretches of names all ranked in the period.
    const rows = await session.query<MemberRow & { higher: number; skip: number; take: number }>(sql`
      WITH span AS MATERIALIZED (${span}),
      first AS MATERIALIZED (${holding}),
      next AS MATERIALIZED (
        SELECT following.start_name FROM first CROSS JOIN LATERAL (
          SELECT * FROM (
            ${counted('board_blocks', 'block', sql`first.before`, sql`AND ${placeOf('block')} >= ${placeOf('first')}`)}
          ) AS counted WHERE before >= (SELECT skip + take FROM span) ORDER BY negated_value, start_at, start_name LIMIT 1
        ) AS following)
      SELECT ${listedColumns()}, 0::float8 AS value, 0::float8 AS at, (SELECT skip FROM span), (SELECT take FROM span),
        ${membersBefore(keyOf(board), place({ value: 0, start_at: FIRST_START, start_name: '' }))} AS higher
      FROM users
      WHERE app_id = ${board.app_id}::text AND ${periodColumn(board)} <> ${board.period}::text
        AND account_name >= (SELECT start_name FROM first)
        AND account_name < coalesce((SELECT start_name FROM next), ${pastLastName(board.app_id)})
      ORDER BY account_name
      OFFSET CASE WHEN (SELECT take FROM span) > 0 THEN (SELECT skip FROM span) - (SELECT before FROM first) ELSE 0 END::integer
      LIMIT (SELECT take FROM span)::integer`);
    if (rows[0]) higherCounts.set(higherKey(board, 0), rows[0].higher);
    return { skip: rows[0]?.skip, take: rows[0]?.take, members: rows.map(listed) };
  }

  /** A page of the board, its rows from the offset-th member: boardPage's statement. */
  async function readPage(board: BoardRef, offset: number, limit: number): Promise<Listed[]> {
    if (limit === 0) return [];
    // Past a period board's first page, the tail at the same positions goes out with the page, in
    // case its ranked members leave the page short (readLeaderboard then asks for the rest): in the
    // same round trip, its skip and take computed from the ranked members' count in its statement
    // (counted once, OFFSET 0: pulled up, the count ran again for each use of n).
    if (board.period !== null && offset > 0) {
      const tail = readTail(
        board,
        sql`
        SELECT greatest(0, ${offset}::float8 - n) AS skip, ${limit}::float8 - least(${limit}::float8, greatest(0, n - ${offset}::float8)) AS take
        FROM (SELECT ${membersOn(board)} AS n OFFSET 0) AS ranked`,
      );
      // Not always asked for: its failure fails the request only where it is.
      tail.catch(() => undefined);
      tailsAhead.set(JSON.stringify(keyOf(board)), tail);
    }
    const columns = BOARD_COLUMNS[board.type];
    const key = keyOf(board);
    const row = sql`${listedColumns()}, ${columns.value} AS value, ${columns.at} AS at`;
    /** A column of the page's start, as a scalar: computed once (an InitPlan), a bound of the index ranges below. */
    const start = (column: string) => sql`(SELECT ${new Identifier(column)} FROM start)`;
    // One statement:
    // - The block holding the offset-th member, and how many members come before it: the
    //   section holding it found by the sections' counts, then the block by its blocks', from
    //   the section's start on. The section is one row, read first (MATERIALIZED), and the
    //   blocks' walk a lateral query of its own, so the walk is an index range that stops at
    //   the block: inlined, the planner ran the sections' query once per block of the board.
    //   With it, the members above the block's value: the rank of the page's first member.
    // - The page from there: the members of the block's value from its start, past those before
    //   the offset, then the members below, only as many as the first leave of the page (a sparse
    //   board, a week's few scores to a value, rarely fills a page from one value). Both read the
    //   start as scalars: joined to it, the planner chose plans that read the whole board.
    const rows = await session.query<MemberRow & { higher: number }>(sql`
      WITH section AS MATERIALIZED (
        SELECT * FROM (
          SELECT section.*, (sum(count) OVER w - count)::float8 AS before
          FROM ${rowsOf('board_sections', 'section', key)}
          WINDOW w AS (ORDER BY section.negated_value, section.start_at, section.start_name)
        ) AS counted WHERE before + count > ${offset}::float8 ORDER BY negated_value, start_at, start_name LIMIT 1),
      start AS MATERIALIZED (
        SELECT 0 - found.negated_value AS value, found.start_at, found.start_name,
          (${offset}::float8 - found.before)::integer AS skip,
          ${membersBefore(key, sql`(found.negated_value, ${FIRST_START}::float8, ''::text)`)} AS higher
        FROM section CROSS JOIN LATERAL (
          SELECT * FROM (
            SELECT block.negated_value, block.start_at, block.start_name, block.count,
              (section.before + sum(block.count) OVER w - block.count)::float8 AS before
            FROM ${rowsOf('board_blocks', 'block', key)} AND ${placeOf('block')} >= ${placeOf('section')}
            WINDOW w AS (ORDER BY block.negated_value, block.start_at, block.start_name)
          ) AS counted WHERE before + count > ${offset}::float8 ORDER BY negated_value, start_at, start_name LIMIT 1
        ) AS found),
      tie AS MATERIALIZED (
        SELECT ${row} FROM users
        WHERE ${onBoard(board)} AND ${columns.value} = ${start('value')}
          AND (${columns.at}, account_name) >= (${start('start_at')}, ${start('start_name')})
        ORDER BY ${columns.at}, account_name OFFSET ${start('skip')} LIMIT ${limit}::integer)
      SELECT ${listedColumns('page')}, page.value, page.at, ${start('higher')} AS higher FROM (
        SELECT * FROM tie
        UNION ALL
        SELECT * FROM (
          SELECT ${row} FROM users WHERE ${onBoard(board)} AND ${columns.value} < ${start('value')}
          ORDER BY ${columns.value} DESC, ${columns.at}, account_name LIMIT ${limit}::integer - (SELECT count(*) FROM tie)
        ) AS rest
      ) AS page ORDER BY page.value DESC, page.at, page.account_name`);
    // The page's first member is the block's first at or past the offset: of the block's value.
    const [top] = rows;
    if (top) higherCounts.set(higherKey(board, top.value), top.higher);
    return rows.map(listed);
  }

  /**
   * A period board's tail read ahead by its page (boardPage), by board: a page past the first that
   * the ranked members leave short is then followed by its tail without a round trip of its own.
   */
  const tailsAhead = new Map<string, Promise<Tail>>();
  const { takenOrRead, clear: forgetReadsAhead } = takingReadsAhead();
  return {
    forget: () => {
      higherCounts.clear();
      tailsAhead.clear();
      forgetReadsAhead();
    },
    countOnBoard: (board: BoardRef) => takenOrRead(['count', keyOf(board)], () => one(sql`SELECT ${membersOn(board)} AS n`)),
    countHigher,
    countDistinctHigher: (board: BoardRef, value: number) =>
      one(sql`SELECT count(DISTINCT value)::float8 AS n FROM ${blocks(board)} AND value > ${value}::float8`),

    /**
     * One statement: the member's position (the members before their block, and those of the
     * block before them), the page's offset from it (windowStart), and the page read outward from
     * the member along the board's index: the nearest members before them, highest value last,
     * and the member and those after. No block is looked up for the offset. With it, the members
     * above the page's first value: the rank of its first member.
     */
    async pageAround(board: BoardRef, user: UserRecord, { lead, limit, lastStart }: PageWindow) {
      const columns = BOARD_COLUMNS[board.type];
      const value = sql`${user[columns.value.text as keyof UserRecord] as number}::float8`;
      const at = sql`${user[columns.at.text as keyof UserRecord] as number}::float8`;
      const name = sql`${user.account_name}::text`;
      const tie = sql`(${columns.at}, account_name)`;
      const key = keyOf(board);
      /** Up to `count` members of the board where `where` holds, in `order` (a walk of the board's index). */
      const walk = (where: Query, order: string, count: Query) => sql`(
        SELECT ${listedColumns()}, ${columns.value} AS value, ${columns.at} AS at FROM users
        WHERE ${onBoard(board)} AND ${where} ORDER BY ${new Identifier(order)} LIMIT (SELECT ${count} FROM placed))`;
      const v = columns.value.text;
      const a = columns.at.text;
      /** The page's members before the member, and from the member on. */
      const before = sql`n - first`;
      const after = sql`${limit}::integer - (n - first)`;
      const rows = await session.query<MemberRow & { first: number; higher: number }>(sql`
        WITH placed AS MATERIALIZED (
          SELECT n::integer AS n, greatest(0, least(n - ${lead}::integer, ${lastStart}::integer))::integer AS first
          FROM (SELECT (${membersBefore(key, placeOf('own'))} + (
            SELECT count(*) FROM users WHERE ${onBoard(board)} AND ${columns.value} = ${value}
              AND ${tie} >= (own.start_at, own.start_name) AND ${tie} < (${at}, ${name})))::float8 AS n
            FROM (
              SELECT * FROM ${blocks(board)} AND value = ${value} AND (start_at, start_name) <= (${at}, ${name})
              ORDER BY start_at DESC, start_name DESC LIMIT 1
            ) AS own
            OFFSET 0 -- counted once: pulled up, the count ran again for each use of n above
          ) AS counted),
        page AS MATERIALIZED (
          SELECT * FROM (
            SELECT nearest.*, placed.n - row_number() OVER (ORDER BY value, at DESC, account_name DESC) AS position
            FROM placed, (
              ${walk(sql`${columns.value} = ${value} AND ${tie} < (${at}, ${name})`, `${a} DESC, account_name DESC`, before)}
              UNION ALL ${walk(sql`${columns.value} > ${value}`, `${v}, ${a} DESC, account_name DESC`, before)}
            ) AS nearest
            UNION ALL
            SELECT later.*, placed.n - 1 + row_number() OVER (ORDER BY value DESC, at, account_name) AS position
            FROM placed, (
              ${walk(sql`${columns.value} = ${value} AND ${tie} >= (${at}, ${name})`, `${a}, account_name`, after)}
              UNION ALL ${walk(sql`${columns.value} < ${value}`, `${v} DESC, ${a}, account_name`, after)}
            ) AS later
          ) AS around, placed WHERE position >= placed.first AND position < placed.first + ${limit}::integer)
        SELECT ${listedColumns('page')}, page.value, page.at, placed.first, (
            SELECT ${membersBefore(key, sql`(0 - top.value, ${FIRST_START}::float8, ''::text)`)}
            FROM (SELECT value FROM page ORDER BY position LIMIT 1) AS top) AS higher
        FROM page, placed ORDER BY page.position`);
      const [top] = rows;
      if (!top) return { offset: 0, members: [] };
      higherCounts.set(higherKey(board, top.value), top.higher);
      return { offset: top.first, members: rows.map(listed) };
    },

    /** A page of the board (a copy each time: its reader may add the tail to it). */
    boardPage: async (board: BoardRef, offset: number, limit: number): Promise<Listed[]> => [
      ...(await takenOrRead(['page', keyOf(board), offset, limit], () => readPage(board, offset, limit))),
    ],

    countUnrankedBefore: (board: BoardRef, name: string) => one(sql`SELECT ${unrankedBefore(board, name)} AS n`),

    unrankedPage: async (board: BoardRef, skip: number, limit: number): Promise<Listed[]> => {
      if (limit === 0) return [];
      const ahead = await tailsAhead.get(JSON.stringify(keyOf(board)));
      if (ahead?.skip === skip && ahead.take === limit) return ahead.members;
      return (await readTail(board, sql`SELECT ${skip}::float8 AS skip, ${limit}::float8 AS take`)).members;
    },
  };
}
