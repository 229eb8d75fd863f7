// How the SQL store orders each board, the one home of the facts that its blocks
// (board-blocks.ts) and the queries (boards.ts) share: which columns order a
// board, where a value's first block starts, and how names compare.
import type { Ordering } from '../placements.js';
import { Identifier, sql } from './sql.js';

export type Board = Ordering;

/** Where the first block of a value starts: before every tie (finite, as every driver sends it exactly). */
export const FIRST_START = -Number.MAX_VALUE;

/** A name list orders by name alone: its value and time are 0 for every member. */
export const ZERO = new Identifier('0::float8');

/** The columns that order one board, and the period column a period board (or its name list) filters on. */
export const BOARD_COLUMNS: Record<Board, { value: Identifier; at: Identifier; period: Identifier | null }> = {
  score: { value: new Identifier('total_score'), at: new Identifier('score_at'), period: null },
  xp: { value: new Identifier('xp'), at: new Identifier('xp_at'), period: null },
  weekly: { value: new Identifier('week_score'), at: new Identifier('week_at'), period: new Identifier('week') },
  monthly: { value: new Identifier('month_score'), at: new Identifier('month_at'), period: new Identifier('month') },
  names: { value: ZERO, at: ZERO, period: null },
  weekly_names: { value: ZERO, at: ZERO, period: new Identifier('week') },
  monthly_names: { value: ZERO, at: ZERO, period: new Identifier('month') },
};

/** The members of a board: the app's, or for a period board or list those with points in the period. */
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
