// The pages of runs of the boards a connection last read or wrote, kept whole between
// transactions, so that a write finds the run each change falls in by the key its page gives,
// instead of finding the page and the run by a cursor each: a cursor makes a LevelDB iterator
// (0.2–0.4 ms in Chromium), and a write that awards a badge opened 21 of them
// (docs/decisions/performance-history.md).
//
// Another context may write the same database (a tab's in-page handler beside the worker): every
// transaction that writes pages of runs writes a new boards generation in `meta`, and kept pages
// are trusted only by a transaction that reads, in itself, the generation they were kept at.
// They are kept per connection: each context has its own, and an upgrade, which may lay boards
// out afresh, closes the connections open before it.
import type { RunsRecord } from './board-records.js';

/** The meta key of the boards generation: any value, new for each transaction that writes pages of runs. */
export const GENERATION_KEY = 'boards_generation';

/** A board's pages by group (its key as JSON), each group's in key order: a group absent has no members. */
export type PagesByGroup = Map<string, RunsRecord[]>;
/** Boards' pages, whole, by board (its first three key parts as JSON). */
export type BoardsPages = Map<string, PagesByGroup>;

/**
 * At most this many boards are kept a connection: past them, a commit keeps the boards it wrote
 * alone. A board of 100,000 members has some 2,000 runs, some 25 bytes each kept; an app's live
 * boards are seven (score, XP, names, this week's and month's with their name lists) and a season's.
 */
const MOST_KEPT_BOARDS = 32;

interface Kept {
  readonly generation: unknown;
  readonly boards: BoardsPages;
}

/** By connection: a connection of its own is another context as far as kept pages go. */
const kept = new WeakMap<IDBDatabase, Kept>();

/**
 * The boards kept of a connection's database, whole, and the generation they hold at: a
 * transaction that reads that generation reads a database no commit has changed since. Never
 * changed: a commit keeps anew.
 */
export const keptBoards = (database: IDBDatabase): Kept | undefined => kept.get(database);

/** A generation no other transaction writes: a time and a random part (randomUUID needs a secure context). */
export const newGeneration = (): string => `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;

/**
 * Keeps `boards`, read or written whole by `tx`, once it commits: with the boards kept already
 * if `tx` read the generation they were kept at (`seen`), else alone. `written` is the generation
 * `tx` wrote (`seen` if it wrote no page). An abort forgets every board kept.
 */
export function keepOnCommit(tx: IDBTransaction, seen: unknown, written: unknown, boards: BoardsPages): void {
  tx.addEventListener('complete', () => {
    const base = kept.get(tx.db);
    const together = base && base.generation === seen ? new Map([...base.boards, ...boards]) : boards;
    kept.set(tx.db, { generation: written, boards: together.size > MOST_KEPT_BOARDS ? boards : together });
  });
  tx.addEventListener('abort', () => kept.delete(tx.db));
}
