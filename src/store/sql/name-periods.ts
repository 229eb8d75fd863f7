// How many members of each block and each section of an app's name list (all
// its members by name: board-blocks.ts, board-sections.ts) have points in each
// week and each month. A period board's unranked tail is the name list less the
// members with points in its period: with these counts it is counted block by
// block as a board is (boards.ts, unrankedPage), and a page deep in it costs
// what a page of a board costs. A search over the blocks, each step counting a
// period's own name list up to a block's start, took 2.3 ms at a million
// members; the counted page takes 1.4 ms, a page of the score board 0.9 ms.
//
// name_periods holds a count per (level, start, board, period): level 'block'
// or 'section', start the block's or section's start on the name list, board
// 'weekly' or 'monthly', period the week or month. A member counts where the
// name list holds them, under their latest week and month (UserRecord), so a
// count for a period that has passed stays as long as its members have no
// later points. Each write adds what its members' moves change; a cut of a
// block or a section counts the cut ones again.
import type { UserRecord } from '../records.js';
import { negated, pastLastName, place, placeOf, type Position } from './board-order.js';
import { addingTo, type CountedTable } from './counts.js';
import { sql, type SqlSession } from './sql.js';

type PeriodBoard = 'weekly' | 'monthly';
const PERIOD_FIELD = { weekly: 'week', monthly: 'month' } as const satisfies Record<PeriodBoard, keyof UserRecord>;
const PERIOD_BOARDS = Object.keys(PERIOD_FIELD) as PeriodBoard[];

/** A member entering (+1) or leaving (-1) a period: their latest week or month changed. */
export interface PeriodMove {
  app_id: string;
  name: string;
  board: PeriodBoard;
  period: string;
  delta: 1 | -1;
}

/** The members' changes of latest week and month, as written: a new member enters the periods it has. */
export function periodMovesOf(written: { before: UserRecord | null; after: UserRecord }[]): PeriodMove[] {
  const moves: PeriodMove[] = [];
  for (const { before, after } of written) {
    for (const board of PERIOD_BOARDS) {
      const field = PERIOD_FIELD[board];
      const [was, is] = [before?.[field] ?? '', after[field]];
      if (was === is) continue;
      const member = { app_id: after.app_id, name: after.account_name, board };
      if (was !== '') moves.push({ ...member, period: was, delta: -1 });
      if (is !== '') moves.push({ ...member, period: is, delta: 1 });
    }
  }
  return moves;
}

type Level = 'block' | 'section';

/**
 * The counts of one period board's period at one level, under the alias `ranked`, as the start of
 * a WHERE clause: its members with points in the period, block by block or section by section.
 */
export const periodCountsOf = (board: { app_id: string; type: string; period: string | null }, level: Level) =>
  sql`name_periods AS ranked WHERE ranked.app_id = ${board.app_id}::text AND ranked.level = ${level}::text
    AND ranked.board = ${board.type}::text AND ranked.period = ${board.period}::text`;

interface CountRow {
  app_id: string;
  level: Level;
  start: Position;
  board: PeriodBoard;
  period: string;
  count: number;
}

/** Each block's and each section's members with points in a period, as name_periods counts them. */
export const PERIOD_COUNTS: CountedTable<CountRow> = {
  table: 'name_periods',
  key: [
    { name: 'app_id', type: 'text', of: (row) => row.app_id },
    { name: 'level', type: 'text', of: (row) => row.level },
    { name: 'negated_value', type: 'float8', of: (row) => negated(row.start.value) },
    { name: 'start_at', type: 'float8', of: (row) => row.start.start_at },
    { name: 'start_name', type: 'text', of: (row) => row.start.start_name },
    { name: 'board', type: 'text', of: (row) => row.board },
    { name: 'period', type: 'text', of: (row) => row.period },
  ],
  counters: [{ name: 'count', of: (row) => row.count }],
};

const addToPeriods = addingTo(PERIOD_COUNTS);

const rowText = ({ app_id, level, start, board, period }: Omit<CountRow, 'count'>) =>
  `${JSON.stringify(app_id)} ${level} ${start.value} ${start.start_at} ${board} ${period} ${start.start_name}`;

/**
 * Adds the moves to the counts of the block and the section holding each member, as both
 * stood before this write (a block cut since is counted again: countCutBlocks).
 */
export async function countPeriodMoves(
  session: SqlSession,
  moves: { move: PeriodMove; block: Position; section: Position }[],
): Promise<void> {
  const deltas = new Map<string, CountRow>();
  for (const { move, block, section } of moves) {
    for (const [level, start] of [
      ['block', block],
      ['section', section],
    ] as const) {
      const row = { app_id: move.app_id, level, start, board: move.board, period: move.period, count: 0 };
      const text = rowText(row);
      const delta = deltas.get(text) ?? row;
      delta.count += move.delta;
      deltas.set(text, delta);
    }
  }
  await addToPeriods(session, [...deltas.values()]);
}

/**
 * The counts of a block of the name list just cut (`cut`, its start) into blocks starting at
 * `starts` (the first at the cut one's start), counted again from its members: the names from
 * each start up to the next, the last up to `until` (the block after, if any).
 */
export async function countCutBlocks(
  session: SqlSession,
  app_id: string,
  cut: Position,
  starts: Position[],
  until: string | null,
): Promise<void> {
  // Sent together: the database runs them in the order sent.
  const deleted = session.query(sql`
    DELETE FROM name_periods WHERE app_id = ${app_id}::text AND level = 'block'
      AND (negated_value, start_at, start_name) = ${place(cut)}`);
  // Each block's members read by a walk of the index from its start to its end (OFFSET 0: joined
  // to the blocks instead, the planner read every member of the app, 0.4 s at a million).
  const inserted = session.query(sql`
    INSERT INTO name_periods (app_id, level, negated_value, start_at, start_name, board, period, count)
    SELECT ${app_id}::text, 'block', 0 - block.value, block.start_at, block.start_name, counted.board, counted.period,
      count(*)::integer
    FROM (
      SELECT cut.*,
        coalesce(lead(cut.start_name) OVER (ORDER BY cut.i), ${until}::text, ${pastLastName(app_id)}) AS end_name
      FROM unnest(${starts.map((start) => start.value)}::float8[], ${starts.map((start) => start.start_at)}::float8[],
        ${starts.map((start) => start.start_name)}::text[]) WITH ORDINALITY AS cut(value, start_at, start_name, i)
    ) AS block
    CROSS JOIN LATERAL (
      SELECT week, month FROM users
      WHERE app_id = ${app_id}::text AND account_name >= block.start_name AND account_name < block.end_name OFFSET 0
    ) AS member
    CROSS JOIN LATERAL (VALUES ('weekly', member.week), ('monthly', member.month)) AS counted(board, period)
    WHERE counted.period <> ''
    GROUP BY block.value, block.start_at, block.start_name, counted.board, counted.period`);
  await Promise.all([deleted, inserted]);
}

/**
 * The counts of sections of the name list counted again from their blocks' (after a block or a
 * section was cut): each section from its start up to `end` (the next section's start; null: the
 * list's end).
 */
export async function countSections(
  session: SqlSession,
  app_id: string,
  sections: { start: Position; end: Position | null }[],
): Promise<void> {
  if (sections.length === 0) return;
  const starts = sections.map(({ start }) => start);
  // Sent together: the database runs them in the order sent.
  const deleted = session.query(sql`
    DELETE FROM name_periods WHERE app_id = ${app_id}::text AND level = 'section'
      AND (negated_value, start_at, start_name) IN (
        SELECT * FROM unnest(${starts.map((start) => negated(start.value))}::float8[], ${starts.map((start) => start.start_at)}::float8[],
          ${starts.map((start) => start.start_name)}::text[]))`);
  const ends = sections.map(({ end }) => end);
  const inserted = session.query(sql`
    INSERT INTO name_periods (app_id, level, negated_value, start_at, start_name, board, period, count)
    SELECT ${app_id}::text, 'section', section.negated_value, section.start_at, section.start_name, block.board, block.period,
      sum(block.count)::integer
    FROM unnest(${starts.map((start) => negated(start.value))}::float8[], ${starts.map((start) => start.start_at)}::float8[],
      ${starts.map((start) => start.start_name)}::text[], ${ends.map((end) => (end ? negated(end.value) : null))}::float8[],
      ${ends.map((end) => end?.start_at ?? null)}::float8[], ${ends.map((end) => end?.start_name ?? null)}::text[])
      AS section(negated_value, start_at, start_name, end_value, end_at, end_name)
    -- Each section's blocks a range of the index (OFFSET 0, as countCutBlocks walks its members);
    -- without an end, past every block of all names, all of value 0.
    CROSS JOIN LATERAL (
      SELECT block.board, block.period, block.count FROM name_periods AS block
      WHERE block.app_id = ${app_id}::text AND block.level = 'block' AND ${placeOf('block')} >= ${placeOf('section')}
        AND ${placeOf('block')} < (coalesce(section.end_value, 'Infinity'), coalesce(section.end_at, 0), coalesce(section.end_name, ''))
      OFFSET 0
    ) AS block
    GROUP BY section.negated_value, section.start_at, section.start_name, block.board, block.period`);
  await Promise.all([deleted, inserted]);
}
