// A request's few moves on the boards (board-blocks.ts), as statements that
// find their blocks and sections themselves: nothing is read first, so they go
// out with the write's records and its COMMIT, and the write holds its app's
// lock for one round trip less (the reads' answer, then the counts, took two).
// Each statement finds a place's block (the last block start of its group at or
// before it) and a block's section as moveOnBoards reads them, and adds to
// their counts as the read-first path does (counts.ts: addingIn beside
// addingTo). A write holds its app's row (transaction.ts), so nothing moves on
// these boards between its statements, which run in the order sent: the period
// counts and the sections' find the blocks as they stood before the blocks'.
//
// A block or a section these moves would grow past its split is cut by the
// read-first path, which cuts at once: the statement finding it fails with
// SPLIT_DUE, rolling the write back, and the store runs the write again that
// way (open-store.ts). That is one write in hundreds: a block is cut to half its
// split.
import { BLOCK_COUNTS, BLOCK_SPLIT, blockHolding, type BoardMoves } from './board-blocks.js';
import { FIRST_START, negated } from './board-order.js';
import { BOARD_START, SECTION_COUNTS, SECTION_SPLIT } from './board-sections.js';
import { addingIn } from './counts.js';
import { PERIOD_COUNTS } from './name-periods.js';
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** The SQLSTATE of a write whose moves would grow a block or a section past its split (migrations.ts, version 10). */
export const SPLIT_DUE = 'QBCUT';

/** Up to this many moves go as statements; more (an import's) are read first, a binary search per place. */
const MOVES_AT_MOST = 64;

/** Whether the moves go as statements, unless the write is run again to cut (SPLIT_DUE). */
export const movesInStatements = ({ moves, periodMoves }: BoardMoves) => moves.length + periodMoves.length <= MOVES_AT_MOST;

/**
 * Sends the statements of the moves, then calls `sentAll` (the COMMIT may go out with them);
 * resolves once they are answered.
 */
export async function moveInStatements(session: SqlSession, boardMoves: BoardMoves, sentAll: () => void): Promise<void> {
  const { moves, periodMoves } = boardMoves;
  const sent: Promise<unknown>[] = [];
  if (periodMoves.length > 0) sent.push(session.query(countingPeriods(boardMoves)));
  if (moves.length > 0) sent.push(session.query(countingSections(boardMoves)), session.query(countingBlocks(boardMoves)));
  sentAll();
  await Promise.all(sent);
}

/**
 * The moves grouped by the block each falls in, found as the blocks stand (a place before every
 * block of its value opens the value's first, at FIRST_START): with its count before (0: none)
 * and the members added (negative: removed), where they add up to any.
 */
function locatedBlocks({ moves }: BoardMoves): Query {
  const of = <K extends 'app_id' | 'board' | 'period' | 'value' | 'at' | 'name'>(key: K) => moves.map(({ place }) => place[key]);
  return sql`
    SELECT m.app_id, m.board, m.period, m.value, coalesce(found.start_at, ${FIRST_START}::float8) AS start_at,
      coalesce(found.start_name, '') AS start_name, coalesce(found.count, 0) AS before, sum(m.delta)::integer AS delta
    FROM unnest(${of('app_id')}::text[], ${of('board')}::text[], ${of('period')}::text[], ${of('value')}::float8[],
      ${of('at')}::float8[], ${of('name')}::text[], ${moves.map(({ delta }) => delta)}::integer[])
      AS m(app_id, board, period, value, at, name, delta)
    ${blockHolding(new Identifier('m'))}
    GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(m.delta) <> 0`;
}

/** The section holding a position (`negated_value`, `start_at`, `start_name` of `at`) of `alias`'s board, as a lateral subquery. */
const sectionHolding = (alias: string, board: Query, negatedValue: Query) => sql`
  LEFT JOIN LATERAL (
    SELECT section.negated_value, section.start_at, section.start_name, section.count, section.blocks
    FROM board_sections AS section
    WHERE section.app_id = ${new Identifier(alias)}.app_id AND (section.board, section.period) = ${board}
      AND (section.negated_value, section.start_at, section.start_name) <= (${negatedValue}, ${new Identifier(alias)}.start_at, ${new Identifier(alias)}.start_name)
    ORDER BY section.negated_value DESC, section.start_at DESC, section.start_name DESC LIMIT 1
  ) AS section ON true`;

/** A section's start, or the board's first where it has none yet (BOARD_START). */
const sectionStart = sql`coalesce(section.negated_value, ${negated(BOARD_START.value)}::float8) AS negated_value,
  coalesce(section.start_at, ${BOARD_START.start_at}::float8) AS start_at, coalesce(section.start_name, '') AS start_name`;

/** Fails the write with SPLIT_DUE where a row the adding wrote (addingIn) has `counter` past `split` (cut by the write run again). */
export const failingPast = (counter: string, split: number) => sql`
  SELECT questboard_split_due() FROM (
    SELECT ${new Identifier(counter)} AS n FROM updated UNION ALL SELECT ${new Identifier(counter)} FROM inserted
  ) AS counts WHERE n > ${split}::integer LIMIT 1`;

/**
 * Each block changed counted in its section: its members, and the block itself where it opens
 * (counted 0 before) or empties. Fails with SPLIT_DUE where a section would hold more than
 * SECTION_SPLIT blocks.
 */
function countingSections(boardMoves: BoardMoves): Query {
  return sql`
    WITH located AS (${locatedBlocks(boardMoves)}),
    ${addingIn(
      SECTION_COUNTS,
      sql`
      SELECT located.app_id, located.board, located.period, ${sectionStart},
        coalesce(section.count, 0) AS before, sum(located.delta)::integer AS count,
        sum((CASE WHEN located.before = 0 THEN 1 ELSE 0 END) - (CASE WHEN located.before + located.delta <= 0 THEN 1 ELSE 0 END))::integer AS blocks
      FROM located ${sectionHolding('located', sql`(located.board, located.period)`, sql`0 - located.value`)}
      GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    )}
    ${failingPast('blocks', SECTION_SPLIT)}`;
}

/** The members moved added to their blocks. Fails with SPLIT_DUE where a block would pass BLOCK_SPLIT. */
function countingBlocks(boardMoves: BoardMoves): Query {
  return sql`
    WITH located AS (${locatedBlocks(boardMoves)}),
    ${addingIn(BLOCK_COUNTS, sql`SELECT app_id, board, period, value, start_at, start_name, before, delta AS count FROM located`)}
    ${failingPast('count', BLOCK_SPLIT)}`;
}

/**
 * The period moves added to the counts of the member's block of all names and of that block's
 * section (name-periods.ts), both as they stood before this write.
 */
function countingPeriods({ periodMoves }: BoardMoves): Query {
  const of = <K extends 'app_id' | 'name' | 'board' | 'period' | 'delta'>(key: K) => periodMoves.map((move) => move[key]);
  const names = sql`(${'names'}::text, ${''}::text)`;
  return sql`
    WITH moved AS (
      SELECT m.app_id, m.period_board AS board, m.period_name AS period, m.delta,
        coalesce(found.start_at, ${FIRST_START}::float8) AS start_at, coalesce(found.start_name, '') AS start_name
      FROM (
        -- Each member as a place on the list of all names, which holds every member at 0, at 0.
        SELECT moves.*, ${'names'}::text AS board, ${''}::text AS period, 0::float8 AS value, 0::float8 AS at
        FROM unnest(${of('app_id')}::text[], ${of('name')}::text[], ${of('board')}::text[], ${of('period')}::text[],
          ${of('delta')}::integer[]) AS moves(app_id, name, period_board, period_name, delta)
      ) AS m
      ${blockHolding(new Identifier('m'))}),
    levels AS (
      SELECT app_id, 'block' AS level, 0::float8 AS negated_value, start_at, start_name, board, period, delta FROM moved
      UNION ALL
      SELECT moved.app_id, 'section', ${sectionStart}, moved.board, moved.period, moved.delta
      FROM moved ${sectionHolding('moved', names, sql`0::float8`)}),
    ${addingIn(
      PERIOD_COUNTS,
      sql`
      SELECT levels.app_id, levels.level, levels.negated_value, levels.start_at, levels.start_name, levels.board,
        levels.period, coalesce(counted.count, 0) AS before, sum(levels.delta)::integer AS count
      FROM levels LEFT JOIN name_periods AS counted ON counted.app_id = levels.app_id AND counted.level = levels.level
        AND counted.negated_value = levels.negated_value AND counted.start_at = levels.start_at
        AND counted.start_name = levels.start_name AND counted.board = levels.board AND counted.period = levels.period
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(levels.delta) <> 0`,
    )}
    SELECT 1 AS counted`;
}
