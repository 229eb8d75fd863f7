// Keeps each board countable in blocks, so that an offset or a rank is a sum
// over a few thousand counts, however many members share one value (a million
// members at 0 points is the common case). All members by name are kept so too,
// so that a period board's unranked tail is counted, not walked (with
// name_periods, name-periods.ts). A block is a run of members of one
// value in board order, from its start tie (reached_at, name) up to the next
// block's; the first block of a value starts at FIRST_START, before any tie.
// board_blocks holds each block's start and how many members it has; the
// members themselves are found in the board's index from the start. A
// request's few moves go as statements that find their blocks themselves
// (board-moves.ts); many (an import's), and a write that cuts, go here.
import { placements } from '../placements.js';
import type { UserRecord } from '../records.js';
import {
  BOARD_COLUMNS,
  FIRST_START,
  ZERO,
  comparePositions,
  compareTies,
  isBoard,
  lastAtOrBefore,
  nameListOf,
  onBoard,
  positionKeyOf,
  type Board,
  type BoardKey,
  type Position,
} from './board-order.js';
import { countInSections, holding, sectionsOf, startsOf, type Section, type SectionChange } from './board-sections.js';
import { addingTo, type CountedTable } from './counts.js';
import { countCutBlocks, countPeriodMoves, countSections, periodMovesOf, type PeriodMove } from './name-periods.js';
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** Blocks are cut with this many members; one that grows past BLOCK_SPLIT is cut again. */
export const BLOCK_FILL = 500;
export const BLOCK_SPLIT = 2 * BLOCK_FILL;

/** One member's place on one board. */
export interface Place {
  app_id: string;
  board: Board;
  period: string;
  value: number;
  at: number;
  name: string;
}

function placesOf(user: UserRecord): Place[] {
  const places: Place[] = [];
  for (const {
    group: [app_id, board, period, negatedValue],
    tie: [at, name],
  } of placements(user)) {
    if (isBoard(board)) places.push({ app_id, board, period, value: negatedValue === 0 ? 0 : -negatedValue, at, name });
  }
  return places;
}

/**
 * One text per group, place or block, as a Map key: the app id quoted (it may hold any
 * character), then the fields of fixed form, then the name (last, so it may hold any too).
 */
const groupText = (place: { app_id: string; board: Board; period: string; value: number }) =>
  `${JSON.stringify(place.app_id)} ${place.board} ${place.period} ${place.value}`;
const placeText = (place: Place) => `${groupText(place)} ${place.at} ${place.name}`;

interface Block {
  app_id: string;
  board: Board;
  period: string;
  value: number;
  start_at: number;
  start_name: string;
}

const blockText = (block: Block) => `${groupText(block)} ${block.start_at} ${block.start_name}`;

/** Up to this many places, each is found by a probe of the index; past it, by reading whole groups. */
export const PROBES_AT_MOST = 64;

/** A block's start, and the members it holds (0 where a place opens a block). */
interface Located {
  start_at: number;
  start_name: string;
  count: number;
}

/**
 * The block each place falls in, as the blocks stand before this write. A request's write
 * moves a member on a few boards: one probe of the index per place, in one statement. An
 * import moves thousands: every block of the places' groups read in one statement, then a
 * binary search per place, as a probe per place cost an import of a million members 21 s of
 * its 165. A member's write the other way read every block of its value's group: at a million
 * members, hundreds of blocks for the crowd at one value.
 */
async function locate(session: SqlSession, places: Place[]): Promise<Located[]> {
  if (places.length <= PROBES_AT_MOST) return probe(session, places);
  const groups = new Map<string, { place: Place; index: number }>();
  for (const place of places) {
    const text = groupText(place);
    if (!groups.has(text)) groups.set(text, { place, index: groups.size + 1 });
  }
  const of = <K extends keyof Place>(key: K) => [...groups.values()].map(({ place }) => place[key]);
  const rows = await session.query<{ g: number } & Located>(sql`
    SELECT g.i::integer AS g, b.start_at, b.start_name, b.count
    FROM unnest(${of('app_id')}::text[], ${of('board')}::text[], ${of('period')}::text[], ${of('value')}::float8[])
      WITH ORDINALITY AS g(app_id, board, period, value, i)
    JOIN board_blocks AS b ON b.app_id = g.app_id AND b.board = g.board AND b.period = g.period AND b.value = g.value
    ORDER BY g.i, b.start_at, b.start_name`);
  const startsOf: Located[][] = Array.from({ length: groups.size + 1 }, () => []);
  for (const { g, start_at, start_name, count } of rows) startsOf[g]!.push({ start_at, start_name, count });
  return places.map((place) => {
    const starts = startsOf[groups.get(groupText(place))!.index]!;
    const start = lastAtOrBefore(starts, (start) => compareTies(start.start_at, start.start_name, place.at, place.name) <= 0);
    return start ?? OPENS_FIRST_BLOCK;
  });
}

/** Where a place falls that no block starts at or before: it opens its value's first block. */
const OPENS_FIRST_BLOCK: Located = { start_at: FIRST_START, start_name: '', count: 0 };

/**
 * The block holding each row of `places` (a FROM item with a place's columns app_id, board,
 * period, value, at and name), as `found` (start_at, start_name, count; null where none does):
 * the last block start of its group at or before it, one probe of the index.
 */
export const blockHolding = (places: Query | Identifier) => sql`
  LEFT JOIN LATERAL (
    SELECT block.start_at, block.start_name, block.count FROM board_blocks AS block
    WHERE block.app_id = ${places}.app_id AND block.board = ${places}.board AND block.period = ${places}.period
      AND block.value = ${places}.value AND (block.start_at, block.start_name) <= (${places}.at, ${places}.name)
    ORDER BY block.start_at DESC, block.start_name DESC LIMIT 1
  ) AS found ON true`;

/** Each place's block by a probe of the index. */
async function probe(session: SqlSession, places: Place[]): Promise<Located[]> {
  const of = <K extends keyof Place>(key: K) => places.map((place) => place[key]);
  const rows = await session.query<{ start_at: number | null; start_name: string | null; count: number | null }>(sql`
    SELECT found.start_at, found.start_name, found.count
    FROM unnest(${of('app_id')}::text[], ${of('board')}::text[], ${of('period')}::text[], ${of('value')}::float8[],
      ${of('at')}::float8[], ${of('name')}::text[]) WITH ORDINALITY AS p(app_id, board, period, value, at, name, i)
    ${blockHolding(new Identifier('p'))}
    ORDER BY p.i`);
  return rows.map(({ start_at, start_name, count }) =>
    start_at === null ? OPENS_FIRST_BLOCK : { start_at, start_name: start_name!, count: count! },
  );
}

/** A member leaving (-1) or joining (+1) a place on a board. */
export interface Move {
  place: Place;
  delta: 1 | -1;
}

/** What the members written do on the boards: their moves, and their moves between periods. */
export interface BoardMoves {
  moves: Move[];
  periodMoves: PeriodMove[];
}

/** Each member written leaves the places it held and joins those it holds now. */
export function boardMovesOf(written: { before: UserRecord | null; after: UserRecord }[]): BoardMoves {
  const moves: Move[] = [];
  for (const { before, after } of written) {
    const held = new Map((before ? placesOf(before) : []).map((place) => [placeText(place), place]));
    const holds = new Map(placesOf(after).map((place) => [placeText(place), place]));
    for (const [text, place] of held) if (!holds.has(text)) moves.push({ place, delta: -1 });
    for (const [text, place] of holds) if (!held.has(text)) moves.push({ place, delta: 1 });
  }
  // A member's new latest week or month changes the counts of their block of all names (name-periods.ts).
  return { moves, periodMoves: periodMovesOf(written) };
}

/**
 * Moves the members on every board, reading first where each place falls among the blocks and
 * sections, then adding to their counts: a few statements for any number of members (an
 * import's chunk of thousands), and a block or a section grown past its split cut at once.
 * `sentAll` is called once its last statement is sent, before it is answered: the
 * transaction's COMMIT may then go out with it (sql.ts, SqlSession.commit).
 */
export async function moveOnBoards(
  session: SqlSession,
  { moves, periodMoves }: BoardMoves,
  sentAll: () => void = () => undefined,
) {
  if (moves.length === 0 && periodMoves.length === 0) return sentAll();
  // Each member moved in its periods located once on the list of all names, whatever its moves:
  // placeOfMove[k] is where the k-th period move's member is among the places located.
  const places = moves.map(({ place }) => place);
  const placed = new Map<string, number>();
  const placeOfMove = periodMoves.map(({ app_id, name }) => {
    const key = JSON.stringify([app_id, name]);
    if (!placed.has(key)) placed.set(key, places.push(nameListPlace(app_id, name)) - 1);
    return placed.get(key)!;
  });

  // The sections' read travels with the blocks': both are answered before anything moves.
  const [located, sections] = await Promise.all([locate(session, places), sectionsOf(session, places.map(boardOf))]);
  const deltas = new Map<string, { block: Block; before: number; delta: number }>();
  for (const [i, { place, delta }] of moves.entries()) {
    const { start_at, start_name, count } = located[i]!;
    const block: Block = {
      app_id: place.app_id,
      board: place.board,
      period: place.period,
      value: place.value,
      start_at,
      start_name,
    };
    const text = blockText(block);
    const entry = deltas.get(text) ?? { block, before: count, delta: 0 };
    entry.delta += delta;
    deltas.set(text, entry);
  }
  const countedPeriods = periodMoves.map((move, k) => {
    const { start_at, start_name } = located[placeOfMove[k]!]!;
    const block: Position = { value: 0, start_at, start_name };
    return { move, block, section: holding(startsOf(sections, nameListOf(move.app_id)), block) };
  });
  // What every count will be is known before any is written: a write holds its app's row
  // (transaction.ts), so no other moves a member of these boards between the reads above and
  // the adds. The blocks', the sections' and the periods' counts then go out together, with
  // the transaction's COMMIT, unless a block grows past its split (its cut follows the blocks'
  // answer, the sections' counts the cut) or a section does (cut after its count).
  const changed = [...deltas.values()].filter(({ delta }) => delta !== 0);
  // The members moved added to their blocks' counts (emptied blocks deleted), and the period moves.
  const added = Promise.all([
    addToBlocks(
      session,
      changed.map(({ block, delta }) => ({ ...block, count: delta })),
    ),
    countPeriodMoves(session, countedPeriods),
  ]);
  // Each block's members counted in its section, and a block opened or emptied among its blocks.
  const changes: SectionChange[] = changed.map(({ block, before, delta }) => ({
    board: boardOf(block),
    at: positionOf(block),
    members: delta,
    blocks: (before === 0 ? 1 : 0) - (before + delta <= 0 ? 1 : 0),
  }));
  // A block grown past BLOCK_SPLIT is cut once it is counted, and its cuts change sections too.
  const cutting = changed.filter(({ before, delta }) => before + delta > BLOCK_SPLIT);
  if (cutting.length > 0) await added;
  for (const { block } of cutting) {
    const cutChanges = await cut(session, block);
    changes.push(...cutChanges);
    if (block.board === 'names') await countNameSectionsAcross(session, startsOf(sections, boardOf(block)), block, cutChanges);
  }
  const counted = countInSections(session, sections, changes);
  if (counted.last) sentAll();
  await Promise.all([added, counted.done]);
  if (!counted.last) sentAll();
}

/**
 * Where a section of all names starts inside a block just cut, the sections holding its cuts are
 * counted again by period from their blocks (name-periods.ts): that section now holds some of its
 * members. Elsewhere the cuts stay in the block's section, and its counts stand.
 */
async function countNameSectionsAcross(session: SqlSession, starts: Section[], block: Block, cutChanges: SectionChange[]) {
  const held = [positionOf(block), ...cutChanges.map(({ at }) => at)].map((at) => holding(starts, at));
  const unique = [...new Map(held.map((start) => [JSON.stringify(start), start])).values()];
  if (unique.length === 1) return;
  const end = (start: Position) => starts.find((later) => comparePositions(later, start) > 0) ?? null;
  await countSections(
    session,
    block.app_id,
    unique.map((start) => ({ start, end: end(start) })),
  );
}

/** Where the name list of all members holds the member a period move is about. */
const nameListPlace = (app_id: string, name: string): Place => ({ app_id, board: 'names', period: '', value: 0, at: 0, name });

type CountedBlock = Block & { count: number };

/** Each block's members, as board_blocks counts them. */
export const BLOCK_COUNTS: CountedTable<CountedBlock> = {
  table: 'board_blocks',
  key: positionKeyOf('board_blocks'),
  counters: [{ name: 'count', of: (block) => block.count }],
};

const addToBlocks = addingTo(BLOCK_COUNTS);

const boardOf = ({ app_id, board, period }: { app_id: string; board: Board; period: string }): BoardKey => ({
  app_id,
  board,
  period,
});
const positionOf = ({ value, start_at, start_name }: Block): Position => ({ value, start_at, start_name });

/**
 * Members whose tie on the board comes before (`<`) or from (`>=`) the tie (at, name), as a
 * condition the board's index ranges over. A name list's ties are (0, name) and its block
 * starts FIRST_START or 0, so there it is the name alone: a row comparison led by the
 * constant 0 matches no index, and each cut of a block of all names read every member of
 * the app (182 s of the 498 s an import of a million members took).
 */
function tiesFrom(board: Board, operator: '<' | '>=', at: number, name: string) {
  const before = operator === '<';
  if (BOARD_COLUMNS[board].at === ZERO) {
    if (at === FIRST_START) return before ? sql`false` : sql`true`;
    return before ? sql`account_name < ${name}::text` : sql`account_name >= ${name}::text`;
  }
  const tie = sql`(${BOARD_COLUMNS[board].at}, account_name)`;
  return before ? sql`${tie} < (${at}::float8, ${name}::text)` : sql`${tie} >= (${at}::float8, ${name}::text)`;
}

/**
 * Cuts a block grown past BLOCK_SPLIT into blocks of BLOCK_FILL members, reading its members
 * once. Returns what that does to sections: each new block's members leave the block's section
 * for the section of its own start (the same one, unless a section starts between them).
 */
async function cut(session: SqlSession, block: Block): Promise<SectionChange[]> {
  const group = sql`app_id = ${block.app_id}::text AND board = ${block.board}::text AND period = ${block.period}::text
    AND value = ${block.value}::float8`;
  const [next] = await session.query<{ start_at: number; start_name: string }>(sql`
    SELECT start_at, start_name FROM board_blocks WHERE ${group}
      AND (start_at, start_name) > (${block.start_at}::float8, ${block.start_name}::text)
    ORDER BY start_at, start_name LIMIT 1`);
  const { value, at } = BOARD_COLUMNS[block.board];
  const until = next ? sql`AND ${tiesFrom(block.board, '<', next.start_at, next.start_name)}` : sql``;
  const starts = await session.query<{ at: number; name: string; i: number; total: number }>(sql`
    SELECT at, name, i::integer AS i, total::integer AS total FROM (
      SELECT ${at} AS at, account_name AS name, row_number() OVER (ORDER BY ${at}, account_name) - 1 AS i, count(*) OVER () AS total
      FROM users WHERE ${onBoard({ app_id: block.app_id, type: block.board, period: block.period || null })}
        AND ${value} = ${block.value}::float8
        AND ${tiesFrom(block.board, '>=', block.start_at, block.start_name)} ${until}
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
  if (block.board === 'names') {
    const starts = blocks.map(({ start_at, start_name }) => ({ value: 0, start_at, start_name }));
    await countCutBlocks(session, block.app_id, positionOf(block), starts, next?.start_name ?? null);
  }
  return blocks.slice(1).flatMap(({ start_at, start_name, count }) => [
    { board: boardOf(block), at: positionOf(block), members: -count, blocks: 0 },
    { board: boardOf(block), at: { value: block.value, start_at, start_name }, members: count, blocks: 1 },
  ]);
}
