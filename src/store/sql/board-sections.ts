// A second level of counts over the blocks (board-blocks.ts). Each board is cut
// into sections of consecutive blocks in board order (value descending, then
// the block's start tie), across values; board_sections holds each section's
// start and how many members and blocks it holds. A block belongs to the
// section with the last start at or before its own. An offset or a rank is then
// a sum over a board's sections (a few dozen rows at a million members) and over
// the blocks of one section (at most SECTION_SPLIT): a sum over every block of
// the board read 2,263 rows at an offset of 90% of a million members, 2.2 ms
// against 0.1 ms for the first page.
import {
  FIRST_START,
  comparePositions,
  lastAtOrBefore,
  negated,
  place,
  placeOf,
  positionKeyOf,
  rowsOf,
  type BoardKey,
  type Position,
} from './board-order.js';
import { addingTo, type CountedTable } from './counts.js';
import { countSections } from './name-periods.js';
import { sql, type Query, type Identifier, type SqlSession } from './sql.js';

/** Sections are cut with this many blocks; one holding more than SECTION_SPLIT is cut again. */
export const SECTION_FILL = 64;
export const SECTION_SPLIT = 2 * SECTION_FILL;

/** Where a board's first section starts: before the first block of any value (finite, as FIRST_START). */
export const BOARD_START: Position = { value: Number.MAX_VALUE, start_at: FIRST_START, start_name: '' };

/** What a change of blocks does to the section holding `at`: members and blocks added (negative: removed). */
export interface SectionChange {
  board: BoardKey;
  at: Position;
  members: number;
  blocks: number;
}

const boardText = (board: BoardKey) => `${JSON.stringify(board.app_id)} ${board.board} ${board.period}`;

/**
 * Members of the board before a place in board order (a block's start, or the start of a
 * value), as a scalar of a statement: the sections before the one holding it, and that
 * section's blocks before it.
 */
export function membersBefore(board: BoardKey, at: Query | Identifier): Query {
  return sql`coalesce((SELECT (coalesce((
      SELECT sum(earlier.count) FROM ${rowsOf('board_sections', 'earlier', board)}
        AND ${placeOf('earlier')} < ${placeOf('holding')}), 0) + coalesce((
      SELECT sum(inside.count) FROM ${rowsOf('board_blocks', 'inside', board)}
        AND ${placeOf('inside')} >= ${placeOf('holding')} AND ${placeOf('inside')} < ${at}), 0))::float8
    FROM (
      SELECT * FROM ${rowsOf('board_sections', 'holding', board)} AND ${placeOf('holding')} <= ${at}
      ORDER BY holding.negated_value DESC, holding.start_at DESC, holding.start_name DESC LIMIT 1
    ) AS holding), 0)`;
}

/** A section's start, and the members and blocks it holds. */
export interface Section extends Position {
  count: number;
  blocks: number;
}

/**
 * Every section of the boards, each board's in board order, by board text. Started with the
 * blocks' read (moveOnBoards), so that both travel together.
 */
export async function sectionsOf(session: SqlSession, boards: BoardKey[]): Promise<Map<string, Section[]>> {
  const unique = [...new Map(boards.map((board) => [boardText(board), board])).values()];
  const of = <K extends keyof BoardKey>(key: K) => unique.map((board) => board[key]);
  const rows = await session.query<{ i: number } & Section>(sql`
    SELECT g.i::integer AS i, 0 - s.negated_value AS value, s.start_at, s.start_name, s.count, s.blocks
    FROM unnest(${of('app_id')}::text[], ${of('board')}::text[], ${of('period')}::text[]) WITH ORDINALITY AS g(app_id, board, period, i)
    JOIN board_sections AS s ON s.app_id = g.app_id AND s.board = g.board AND s.period = g.period
    ORDER BY g.i, s.negated_value, s.start_at, s.start_name`);
  const sections = new Map(unique.map((board) => [boardText(board), [] as Section[]]));
  for (const { i, value, start_at, start_name, count, blocks } of rows) {
    sections.get(boardText(unique[i - 1]!))!.push({ value, start_at, start_name, count, blocks });
  }
  return sections;
}

/** A board's sections in board order, from sectionsOf. */
export const startsOf = (sections: Map<string, Section[]>, board: BoardKey) => sections.get(boardText(board)) ?? [];

/** The section holding `at`: the last starting at or before it, the board's start if none does (none yet). */
export const holding = (starts: Section[], at: Position): Section =>
  lastAtOrBefore(starts, (start) => comparePositions(start, at) <= 0) ?? { ...BOARD_START, count: 0, blocks: 0 };

/** A section of a board, as board_sections holds it (its value as it is). */
type SectionRow = BoardKey & Section;

/** Each section's members and blocks, as board_sections counts them. */
export const SECTION_COUNTS: CountedTable<SectionRow> = {
  table: 'board_sections',
  key: positionKeyOf('board_sections'),
  counters: [
    { name: 'count', of: (row) => row.count },
    { name: 'blocks', of: (row) => row.blocks },
  ],
};

const addToSections = addingTo(SECTION_COUNTS);

/**
 * Applies the blocks' changes to the sections holding them, as `sections` (sectionsOf) stood
 * before, and cuts a section grown past SECTION_SPLIT blocks once counted. Its counts are sent
 * at once; `last` says whether they are its last statements, or a cut follows once they are
 * answered: a write holds its app's row (transaction.ts), so each section holds what sectionsOf
 * read plus these changes.
 */
export function countInSections(
  session: SqlSession,
  sections: Map<string, Section[]>,
  changes: SectionChange[],
): { last: boolean; done: Promise<void> } {
  const deltas = new Map<string, { section: Section; delta: SectionRow }>();
  for (const { board, at, members, blocks } of changes) {
    const section = holding(startsOf(sections, board), at);
    const text = `${boardText(board)} ${section.value} ${section.start_at} ${section.start_name}`;
    const { value, start_at, start_name } = section;
    const entry = deltas.get(text) ?? { section, delta: { ...board, value, start_at, start_name, count: 0, blocks: 0 } };
    entry.delta.count += members;
    entry.delta.blocks += blocks;
    deltas.set(text, entry);
  }
  const cutting = [...deltas.values()]
    .filter(({ section, delta }) => section.blocks + delta.blocks > SECTION_SPLIT)
    .map(({ section, delta }) => ({ ...delta, count: section.count + delta.count, blocks: section.blocks + delta.blocks }));
  const added = addToSections(
    session,
    [...deltas.values()].map(({ delta }) => delta),
  );
  const done = (async () => {
    await added;
    for (const section of cutting) await cutSection(session, section);
  })();
  return { last: cutting.length === 0, done };
}

/** Cuts a section of more than SECTION_SPLIT blocks into sections of SECTION_FILL, reading its blocks once. */
async function cutSection(session: SqlSession, section: SectionRow): Promise<void> {
  const start = place(section);
  const [next] = await session.query<{ negated_value: number; start_at: number; start_name: string }>(sql`
    SELECT negated_value, start_at, start_name FROM ${rowsOf('board_sections', 'later', section)}
      AND ${placeOf('later')} > ${start}
    ORDER BY later.negated_value, later.start_at, later.start_name LIMIT 1`);
  const until = next
    ? sql`AND ${placeOf('b')} < (${next.negated_value}::float8, ${next.start_at}::float8, ${next.start_name}::text)`
    : sql``;
  const blocks = await session.query<Position & { count: number }>(sql`
    SELECT 0 - b.negated_value AS value, b.start_at, b.start_name, b.count FROM ${rowsOf('board_blocks', 'b', section)}
      AND ${placeOf('b')} >= ${start} ${until}
    ORDER BY b.negated_value, b.start_at, b.start_name`);
  const cuts: SectionRow[] = [];
  for (let first = 0; first < blocks.length; first += SECTION_FILL) {
    const members = blocks.slice(first, first + SECTION_FILL);
    // The first keeps the section's start: blocks may yet open between it and its first block.
    const at = first === 0 ? section : members[0]!;
    cuts.push({
      ...section,
      value: at.value,
      start_at: at.start_at,
      start_name: at.start_name,
      count: members.reduce((sum, block) => sum + block.count, 0),
      blocks: members.length,
    });
  }
  await session.query(sql`DELETE FROM ${rowsOf('board_sections', 's', section)} AND ${placeOf('s')} = ${start}`);
  await session.query(sql`
    INSERT INTO board_sections (app_id, board, period, negated_value, start_at, start_name, count, blocks)
    SELECT ${section.app_id}::text, ${section.board}::text, ${section.period}::text, negated_value, start_at, start_name, count, blocks
    FROM unnest(${cuts.map((row) => negated(row.value))}::float8[], ${cuts.map((row) => row.start_at)}::float8[],
      ${cuts.map((row) => row.start_name)}::text[], ${cuts.map((row) => row.count)}::integer[],
      ${cuts.map((row) => row.blocks)}::integer[]) AS cut(negated_value, start_at, start_name, count, blocks)`);
  if (section.board === 'names') {
    const after = next ? { value: 0 - next.negated_value, start_at: next.start_at, start_name: next.start_name } : null;
    await countSections(
      session,
      section.app_id,
      cuts.map((start, i) => ({ start, end: cuts[i + 1] ?? after })),
    );
  }
}
