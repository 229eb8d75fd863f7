// Keeps each board countable in blocks, so that an offset or a rank is a sum
// over a few thousand counts, however many members share one value (a million
// members at 0 points is the common case). The name lists are kept so too
// (all members, and those with points in a week or a month, by name), so that
// a period board's unranked tail is counted, not walked. A block is a run of members of one
// value in board order, from its start tie (reached_at, name) up to the next
// block's; the first block of a value starts at FIRST_START, before any tie.
// board_blocks holds each block's start and how many members it has; the
// members themselves are found in the board's index from the start.
import { placements, type Ordering } from '../placements.js';
import type { UserRecord } from '../records.js';
import { Identifier, sql, type SqlSession } from './sql.js';

/** Blocks are cut with this many members; one that grows past BLOCK_SPLIT is cut again. */
export const BLOCK_FILL = 500;
const BLOCK_SPLIT = 2 * BLOCK_FILL;
/** Where the first block of a value starts: before every tie (finite, as every driver sends it exactly). */
export const FIRST_START = -Number.MAX_VALUE;

export type Board = Ordering;

/** A name list orders by name alone: its value and time are 0 for every member. */
const ZERO = new Identifier('0::float8');

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

/** One member's place on one board. */
interface Place {
  app_id: string;
  board: Board;
  period: string;
  value: number;
  at: number;
  name: string;
}

function placesOf(user: UserRecord): Place[] {
  return placements(user).map(({ group: [app_id, board, period, negatedValue], tie: [at, name] }) => ({
    app_id,
    board: board as Board,
    period,
    value: negatedValue === 0 ? 0 : -negatedValue,
    at,
    name,
  }));
}

const placeText = (place: Place) => JSON.stringify([place.app_id, place.board, place.period, place.value, place.at, place.name]);

interface Block {
  app_id: string;
  board: Board;
  period: string;
  value: number;
  start_at: number;
  start_name: string;
}

const blockText = (block: Block) =>
  JSON.stringify([block.app_id, block.board, block.period, block.value, block.start_at, block.start_name]);

/**
 * Moves the members written on every board: each leaves the blocks of the
 * places it held and joins those of the places it holds now. A few
 * statements for any number of members (an import's chunk of thousands).
 */
export async function moveOnBoards(session: SqlSession, written: { before: UserRecord | null; after: UserRecord }[]) {
  const moves: { place: Place; delta: 1 | -1 }[] = [];
  for (const { before, after } of written) {
    const held = new Map((before ? placesOf(before) : []).map((place) => [placeText(place), place]));
    const holds = new Map(placesOf(after).map((place) => [placeText(place), place]));
    for (const [text, place] of held) if (!holds.has(text)) moves.push({ place, delta: -1 });
    for (const [text, place] of holds) if (!held.has(text)) moves.push({ place, delta: 1 });
  }
  if (moves.length === 0) return;

  // The block each place falls in, as the blocks stand before this write.
  const column = <K extends keyof Place>(key: K) => moves.map(({ place }) => place[key]);
  const located = await session.query<{ i: number; start_at: number | null; start_name: string | null }>(sql`
    SELECT move.i::integer AS i, block.start_at, block.start_name
    FROM unnest(${column('app_id')}::text[], ${column('board')}::text[], ${column('period')}::text[],
      ${column('value')}::float8[], ${column('at')}::float8[], ${column('name')}::text[])
      WITH ORDINALITY AS move(app_id, board, period, value, at, name, i)
    LEFT JOIN LATERAL (
      SELECT start_at, start_name FROM board_blocks AS b
      WHERE b.app_id = move.app_id AND b.board = move.board AND b.period = move.period AND b.value = move.value
        AND (b.start_at, b.start_name) <= (move.at, move.name)
      ORDER BY b.start_at DESC, b.start_name DESC LIMIT 1
    ) AS block ON true`);
  const deltas = new Map<string, { block: Block; delta: number }>();
  for (const { i, start_at, start_name } of located) {
    const { place, delta } = moves[i - 1]!;
    // A place before every block of its value (or of a value no one held) opens the value's first block.
    const block: Block = { ...place, start_at: start_at ?? FIRST_START, start_name: start_name ?? '' };
    const entry = deltas.get(blockText(block)) ?? { block, delta: 0 };
    entry.delta += delta;
    deltas.set(blockText(block), entry);
  }
  // In key order, so that two writes touching the same blocks lock them in the same order.
  const changed = [...deltas.values()].filter(({ delta }) => delta !== 0).sort((a, b) => compare(a.block, b.block));
  if (changed.length === 0) return;
  const field = <K extends keyof Block>(key: K) => changed.map(({ block }) => block[key]);
  const counted = await session.query<Block & { count: number }>(sql`
    INSERT INTO board_blocks (app_id, board, period, value, start_at, start_name, count)
    SELECT * FROM unnest(${field('app_id')}::text[], ${field('board')}::text[], ${field('period')}::text[],
      ${field('value')}::float8[], ${field('start_at')}::float8[], ${field('start_name')}::text[],
      ${changed.map(({ delta }) => delta)}::integer[])
    ON CONFLICT (app_id, board, period, value, start_at, start_name) DO UPDATE SET count = board_blocks.count + excluded.count
    RETURNING app_id, board, period, value, start_at, start_name, count`);
  const emptied = counted.filter((block) => block.count <= 0);
  if (emptied.length > 0) {
    const of = <K extends keyof Block>(key: K) => emptied.map((block) => block[key]);
    await session.query(sql`
      DELETE FROM board_blocks WHERE (app_id, board, period, value, start_at, start_name) IN (
        SELECT * FROM unnest(${of('app_id')}::text[], ${of('board')}::text[], ${of('period')}::text[],
          ${of('value')}::float8[], ${of('start_at')}::float8[], ${of('start_name')}::text[]))`);
  }
  for (const block of counted.filter(({ count }) => count > BLOCK_SPLIT)) await cut(session, block);
}

/** Cuts a block grown past BLOCK_SPLIT into blocks of BLOCK_FILL members, reading its members once. */
async function cut(session: SqlSession, block: Block): Promise<void> {
  const group = sql`app_id = ${block.app_id}::text AND board = ${block.board}::text AND period = ${block.period}::text
    AND value = ${block.value}::float8`;
  const [next] = await session.query<{ start_at: number; start_name: string }>(sql`
    SELECT start_at, start_name FROM board_blocks WHERE ${group}
      AND (start_at, start_name) > (${block.start_at}::float8, ${block.start_name}::text)
    ORDER BY start_at, start_name LIMIT 1`);
  const { value, at } = BOARD_COLUMNS[block.board];
  const until = next ? sql`AND (${at}, account_name) < (${next.start_at}::float8, ${next.start_name}::text)` : sql``;
  const starts = await session.query<{ at: number; name: string; i: number; total: number }>(sql`
    SELECT at, name, i::integer AS i, total::integer AS total FROM (
      SELECT ${at} AS at, account_name AS name, row_number() OVER (ORDER BY ${at}, account_name) - 1 AS i, count(*) OVER () AS total
      FROM users WHERE ${onBoard({ app_id: block.app_id, type: block.board, period: block.period || null })}
        AND ${value} = ${block.value}::float8
        AND (${at}, account_name) >= (${block.start_at}::float8, ${block.start_name}::text) ${until}
    ) AS members WHERE i % ${BLOCK_FILL}::integer = 0 ORDER BY i`);
  const total = starts[0]?.total ?? 0;
  const blocks = starts.map((start, index) => ({
    start_at: index === 0 ? block.start_at : start.at,
    start_name: index === 0 ? block.start_name : start.name,
    count: Math.min(BLOCK_FILL, total - start.i),
  }));
  await session.query(sql`DELETE FROM board_blocks WHERE ${group}
    AND start_at = ${block.start_at}::float8 AND start_name = ${block.start_name}::text`);
  await session.query(sql`
    INSERT INTO board_blocks (app_id, board, period, value, start_at, start_name, count)
    SELECT ${block.app_id}::text, ${block.board}::text, ${block.period}::text, ${block.value}::float8, start_at, start_name, count
    FROM unnest(${blocks.map((b) => b.start_at)}::float8[], ${blocks.map((b) => b.start_name)}::text[],
      ${blocks.map((b) => b.count)}::integer[]) AS cut(start_at, start_name, count)`);
}

function compare(a: Block, b: Block): number {
  const x = [a.app_id, a.board, a.period, a.value, a.start_at, a.start_name];
  const y = [b.app_id, b.board, b.period, b.value, b.start_at, b.start_name];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}
