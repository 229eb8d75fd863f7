// Keeps a season's counts as a write moves its members: the blocks (season-blocks.ts) and their
// sections (season-sections.ts), in the statements of the write's flush (transaction.ts). A
// request's few moves go as statements that find their blocks and sections themselves, as
// board-moves.ts moves the main boards' members: nothing is read first, so they go out with the
// write's records and its COMMIT, a round trip less for every write that earns season points.
// One that would grow a block or a section past its split fails with SPLIT_DUE, and the write
// is run again reading first (moveOnSeasons), which cuts.
import type { SeasonPointsRecord } from '../records.js';
import { BLOCK_SPLIT, PROBES_AT_MOST } from './board-blocks.js';
import { failingPast } from './board-moves.js';
import { SECTION_SPLIT } from './board-sections.js';
import { addingIn } from './counts.js';
import {
  SEASON_BLOCK_COUNTS,
  SEASON_START,
  addToBlocks,
  blockFound,
  cut,
  locate,
  placeOf,
  placeText,
  startOf,
  type SeasonPlace,
} from './season-blocks.js';
import { SEASON_SECTION_COUNTS, readSections, sectionCounts } from './season-sections.js';
import { sql, type Query, type SqlSession } from './sql.js';

/** A season member as first read in a write (null: not on the season's board), and as written. */
export interface SeasonWritten {
  before: SeasonPointsRecord | null;
  after: SeasonPointsRecord;
}

/** A member leaving a place on a season's board (−1) or taking one (+1). */
export interface SeasonMove {
  place: SeasonPlace;
  delta: 1 | -1;
}

/** Each member written: the place they leave (−1), where they were on the board, and the place they take (+1). */
export function seasonMovesOf(written: SeasonWritten[]): SeasonMove[] {
  const moves: SeasonMove[] = [];
  for (const { before, after } of written) {
    const [from, to] = [before && placeOf(before), placeOf(after)];
    if (from && placeText(from) === placeText(to)) continue;
    if (from) moves.push({ place: from, delta: -1 });
    moves.push({ place: to, delta: 1 });
  }
  return moves;
}

/** Whether the members written move as statements (a request's few), unless the write is run again to cut (SPLIT_DUE). */
export const seasonMovesInStatements = (moves: SeasonMove[]) => moves.length <= PROBES_AT_MOST;

/**
 * Sends the statements of the members' moves, sections first (they find the blocks as they stood
 * before the blocks' statement), then calls `sentAll` (the COMMIT may go out with them); resolves
 * once they are answered.
 */
export async function moveSeasonsInStatements(session: SqlSession, moves: SeasonMove[], sentAll: () => void): Promise<void> {
  if (moves.length === 0) return sentAll();
  const located = locatedBlocks(moves);
  const sent = [session.query(countingSections(located)), session.query(countingBlocks(located))];
  sentAll();
  await Promise.all(sent);
}

/**
 * The moves grouped by the block each falls in, found as the blocks stand (a place before every
 * block opens the season's first, at SEASON_START): with its count before (0: none) and the
 * members added (negative: removed), where they add up to any.
 */
function locatedBlocks(moves: SeasonMove[]): Query {
  const of = <K extends keyof SeasonPlace>(key: K) => moves.map(({ place }) => place[key]);
  return sql`
    SELECT m.app_id, m.season_id, coalesce(found.negated_points, ${SEASON_START.negated_points}::float8) AS negated_points,
      coalesce(found.start_at, ${SEASON_START.start_at}::float8) AS start_at, coalesce(found.start_name, '') AS start_name,
      coalesce(found.count, 0) AS before, sum(m.delta)::integer AS delta
    FROM unnest(${of('app_id')}::text[], ${of('season_id')}::text[], ${of('negated_points')}::float8[],
      ${of('start_at')}::float8[], ${of('start_name')}::text[], ${moves.map(({ delta }) => delta)}::integer[])
      AS m(app_id, season_id, negated_points, at, name, delta)
    ${blockFound('m')}
    GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(m.delta) <> 0`;
}

/**
 * Each block changed counted in its section (the last starting at or before the block's start,
 * the season's first where there is none yet): its members, and the block itself where it opens
 * (counted 0 before) or empties. Fails with SPLIT_DUE where a section would hold more than
 * SECTION_SPLIT blocks.
 */
function countingSections(located: Query): Query {
  return sql`
    WITH located AS (${located}),
    ${addingIn(
      SEASON_SECTION_COUNTS,
      sql`
      SELECT located.app_id, located.season_id,
        coalesce(section.negated_points, ${SEASON_START.negated_points}::float8) AS negated_points,
        coalesce(section.start_at, ${SEASON_START.start_at}::float8) AS start_at, coalesce(section.start_name, '') AS start_name,
        coalesce(section.count, 0) AS before, sum(located.delta)::integer AS count,
        sum((CASE WHEN located.before = 0 THEN 1 ELSE 0 END) - (CASE WHEN located.before + located.delta <= 0 THEN 1 ELSE 0 END))::integer AS blocks
      FROM located LEFT JOIN LATERAL (
        SELECT section.negated_points, section.start_at, section.start_name, section.count FROM season_sections AS section
        WHERE section.app_id = located.app_id AND section.season_id = located.season_id
          AND ${startOf('section')} <= ${startOf('located')}
        ORDER BY section.negated_points DESC, section.start_at DESC, section.start_name DESC LIMIT 1
      ) AS section ON true
      GROUP BY 1, 2, 3, 4, 5, 6`,
    )}
    ${failingPast('blocks', SECTION_SPLIT)}`;
}

/** The members moved added to their blocks. Fails with SPLIT_DUE where a block would pass BLOCK_SPLIT. */
function countingBlocks(located: Query): Query {
  return sql`
    WITH located AS (${located}),
    ${addingIn(
      SEASON_BLOCK_COUNTS,
      sql`SELECT app_id, season_id, negated_points, start_at, start_name, before, delta AS count FROM located`,
    )}
    ${failingPast('count', BLOCK_SPLIT)}`;
}

/**
 * Moves the members written (seasonMovesOf) on their seasons' blocks, reading first: each leaves the block of its place as read
 * and joins the block of its place now (locate), and each block's section counts what its block
 * gained or lost, and the blocks made or emptied. A block grown past BLOCK_SPLIT is cut once the
 * members' rows are written (`rowsWritten`): its cut reads them; then a section grown past its
 * split is cut. `sentAll` is called once the last statement is sent (the transaction's COMMIT may
 * go with it: transaction.ts flush).
 */
export async function moveOnSeasons(
  session: SqlSession,
  moves: SeasonMove[],
  rowsWritten: () => Promise<unknown>,
  sentAll: () => void,
): Promise<void> {
  if (moves.length === 0) return sentAll();
  const places = moves.map(({ place }) => place);
  // Both reads go out together: the sections are a few dozen rows a season at a million members.
  const [located, sections] = await Promise.all([locate(session, places), readSections(session, places)]);
  const deltas = new Map<string, { block: SeasonPlace; before: number; delta: number }>();
  for (const [i, { place, delta }] of moves.entries()) {
    const { count, ...start } = located[i]!;
    const block = { app_id: place.app_id, season_id: place.season_id, ...start };
    const text = placeText(block);
    const entry = deltas.get(text) ?? { block, before: count, delta: 0 };
    entry.delta += delta;
    deltas.set(text, entry);
  }
  const changed = [...deltas.values()].filter(({ delta }) => delta !== 0);
  const counts = sectionCounts(sections);
  for (const { block, before, delta } of changed) {
    const after = before + delta;
    // A block opens with its first member (counted 0 before: none), and is deleted with its last.
    counts.count(block, delta, before === 0 ? 1 : after <= 0 ? -1 : 0);
  }
  const added = Promise.all([
    addToBlocks(
      session,
      changed.map(({ block, delta }) => ({ ...block, count: delta })),
    ),
    counts.send(session),
  ]);
  const cutting = changed.filter(({ before, delta }) => before + delta > BLOCK_SPLIT);
  if (cutting.length === 0 && !counts.cutting) {
    sentAll();
    await added;
    return;
  }
  await Promise.all([added, rowsWritten()]);
  for (const { block } of cutting) {
    const pieces = await cut(session, block);
    // The block's members now counted in its pieces: each piece a block of the section holding its start.
    counts.count(block, -pieces.reduce((sum, piece) => sum + piece.count, 0), -1);
    for (const piece of pieces) counts.count(piece, piece.count, 1);
  }
  await counts.send(session);
  await counts.cut(session);
  sentAll();
}
