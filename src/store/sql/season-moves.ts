// Keeps a season's counts as a write moves its members: the blocks (season-blocks.ts) and their
// sections (season-sections.ts), in the statements of the write's flush (transaction.ts).
import type { SeasonPointsRecord } from '../records.js';
import { BLOCK_SPLIT } from './board-blocks.js';
import { addToBlocks, cut, locate, placeOf, placeText, type SeasonPlace } from './season-blocks.js';
import { readSections, sectionCounts } from './season-sections.js';
import type { SqlSession } from './sql.js';

/** A season member as first read in a write (null: not on the season's board), and as written. */
export interface SeasonWritten {
  before: SeasonPointsRecord | null;
  after: SeasonPointsRecord;
}

/**
 * Moves the members written on their seasons' blocks: each leaves the block of its place as read
 * and joins the block of its place now (locate), and each block's section counts what its block
 * gained or lost, and the blocks made or emptied. A block grown past BLOCK_SPLIT is cut once the
 * members' rows are written (`rowsWritten`): its cut reads them; then a section grown past its
 * split is cut. `sentAll` is called once the last statement is sent (the transaction's COMMIT may
 * go with it: transaction.ts flush).
 */
export async function moveOnSeasons(
  session: SqlSession,
  written: SeasonWritten[],
  rowsWritten: () => Promise<unknown>,
  sentAll: () => void,
): Promise<void> {
  const moves: { place: SeasonPlace; delta: 1 | -1 }[] = [];
  for (const { before, after } of written) {
    const [from, to] = [before && placeOf(before), placeOf(after)];
    if (from && placeText(from) === placeText(to)) continue;
    if (from) moves.push({ place: from, delta: -1 });
    moves.push({ place: to, delta: 1 });
  }
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
