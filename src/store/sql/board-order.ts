// How the SQL store orders each board, the one home of the facts that its blocks
// (board-blocks.ts), their sections (board-sections.ts) and the queries
// (boards.ts) share: which columns order a board, where a value's first block
// starts, how names compare, and board order as a row value.
import type { Ordering } from '../placements.js';
import type { KeyColumn } from './counts.js';
import { Identifier, sql } from './sql.js';

/**
 * The orderings the SQL store keeps blocks of: the four boards and all names. It keeps no
 * period name lists: name_periods counts a period's members among all names (name-periods.ts).
 */
export type Board = Exclude<Ordering, 'weekly_names' | 'monthly_names'>;
export const isBoard = (ordering: Ordering): ordering is Board => ordering !== 'weekly_names' && ordering !== 'monthly_names';

/** Where the first block of a value starts: before every tie (finite, as every driver sends it exactly). */
export const FIRST_START = -Number.MAX_VALUE;

/** A name list orders by name alone: its value and time are 0 for every member. */
export const ZERO = new Identifier('0::float8');

/** The columns that order one board, and the period column a period board filters on. */
export const BOARD_COLUMNS: Record<Board, { value: Identifier; at: Identifier; period: Identifier | null }> = {
  score: { value: new Identifier('total_score'), at: new Identifier('score_at'), period: null },
  xp: { value: new Identifier('xp'), at: new Identifier('xp_at'), period: null },
  weekly: { value: new Identifier('week_score'), at: new Identifier('week_at'), period: new Identifier('week') },
  monthly: { value: new Identifier('month_score'), at: new Identifier('month_at'), period: new Identifier('month') },
  names: { value: ZERO, at: ZERO, period: null },
};

/** The members of a board: the app's, or for a period board those with points in the period. */
export function onBoard(board: { app_id: string; type: Board; period: string | null }) {
  const { period } = BOARD_COLUMNS[board.type];
  return period === null
    ? sql`app_id = ${board.app_id}::text`
    : sql`app_id = ${board.app_id}::text AND ${period} = ${board.period}::text`;
}

/**
 * Orders names as the database does (COLLATE "C": by code point). JavaScript's `<` orders
 * UTF-16 code units, which differs where a surrogate pair meets U+E000–U+FFFF.
 */
export function compareNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (D800–DFFF) stand for code points past FFFF: move them above E000–FFFF.
      x += x < 0xe000 ? 0x2000 : -0x800;
      y += y < 0xe000 ? 0x2000 : -0x800;
    }
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

export const compareTies = (at: number, name: string, otherAt: number, otherName: string) =>
  at !== otherAt ? (at < otherAt ? -1 : 1) : compareNames(name, otherName);

/**
 * The last of `starts` (in order) at or before a place, as `atOrBefore` tells of each; undefined
 * when none is. A binary search: a large group has thousands of block starts.
 */
export function lastAtOrBefore<T>(starts: T[], atOrBefore: (start: T) => boolean): T | undefined {
  let [low, high] = [0, starts.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (atOrBefore(starts[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : starts[low - 1];
}

/** A place in board order: where a block or a section starts. */
export interface Position {
  value: number;
  start_at: number;
  start_name: string;
}

/** Board order: the higher value first, then the earlier tie. */
export const comparePositions = (a: Position, b: Position) =>
  a.value !== b.value ? (a.value > b.value ? -1 : 1) : compareTies(a.start_at, a.start_name, b.start_at, b.start_name);

/**
 * board_blocks and board_sections keep 0 − value beside the value (never −0, which would
 * print apart from 0), so that board order is ascending in every column and a row
 * comparison in it ranges over an index.
 */
export const negated = (value: number) => 0 - value;

/** One board of one app: a period board's or list's period, '' for the others. */
export interface BoardKey {
  app_id: string;
  board: Board;
  period: string;
}

/** All the app's members by name: a period board's unranked tail is those of them without points in its period. */
export const nameListOf = (app_id: string): BoardKey => ({ app_id, board: 'names', period: '' });

/** A board's rows of board_blocks or board_sections under `alias`, as the start of a WHERE clause. */
export function rowsOf(table: 'board_blocks' | 'board_sections', alias: string, board: BoardKey) {
  const columns = (name: string) => new Identifier(`${alias}.${name}`);
  return sql`${new Identifier(table)} AS ${new Identifier(alias)} WHERE ${columns('app_id')} = ${board.app_id}::text
    AND ${columns('board')} = ${board.board}::text AND ${columns('period')} = ${board.period}::text`;
}

/**
 * The primary key of board_blocks or board_sections, column by column, read from a row at a
 * position on a board: board_blocks keys the value as it is, board_sections negated.
 */
export function positionKeyOf<Row extends BoardKey & Position>(table: 'board_blocks' | 'board_sections'): KeyColumn<Row>[] {
  return [
    { name: 'app_id', type: 'text', of: (row) => row.app_id },
    { name: 'board', type: 'text', of: (row) => row.board },
    { name: 'period', type: 'text', of: (row) => row.period },
    table === 'board_blocks'
      ? { name: 'value', type: 'float8', of: (row) => row.value }
      : { name: 'negated_value', type: 'float8', of: (row) => negated(row.value) },
    { name: 'start_at', type: 'float8', of: (row) => row.start_at },
    { name: 'start_name', type: 'text', of: (row) => row.start_name },
  ];
}

/** The board-order row of a table alias of board_blocks or board_sections. */
export const placeOf = (alias: string) => new Identifier(`(${alias}.negated_value, ${alias}.start_at, ${alias}.start_name)`);

/**
 * Just past the app's last name, as a scalar (a name sorts before itself extended): where a walk
 * of all names that runs past the last block's start ends.
 */
export const pastLastName = (app_id: string) => sql`(SELECT max(account_name) || 'x' FROM users WHERE app_id = ${app_id}::text)`;

/** A position as a board-order row value. */
export const place = (position: Position) =>
  sql`(${negated(position.value)}::float8, ${position.start_at}::float8, ${position.start_name}::text)`;
