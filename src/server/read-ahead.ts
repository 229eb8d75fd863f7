// What a read is about to read, asked for as its transaction opens (HandlerOptions.readAhead):
// the app it names, read right after its key (appFor), and the member it names (account_name,
// or around on a leaderboard) after that; for a leaderboard's page by offset, the page and a
// period board's count, as readLeaderboard asks for them first. On a server each read is a
// round trip to the database; asked for now, all travel with the key's. Not a write's reads: a
// write locks its key before its app (store/sql/transaction.ts).
import { getLeaderboardQuery } from '../api/schemas.js';
import { boardOf, DEFAULT_LIMIT } from '../core/leaderboard.js';
import type { Transaction } from '../store/index.js';
import { operations, type Operation } from './operations.js';

/**
 * The read-ahead of a server whose clock is `now` (the handler's). A read that fails here is the
 * request's own to meet: it asks for the same again. One that guessed differently from the
 * operation (another page, another week at its turn) is a statement spent, never a wrong answer:
 * the store answers only the same question from it (store/sql/boards.ts).
 */
export function createReadAhead(now: () => Date = () => new Date()) {
  return (tx: Transaction, input: Record<string, unknown>, operation: Operation): void => {
    const { app_id, around, account_name } = input;
    if (typeof app_id !== 'string') return;
    void tx.get('apps', app_id).catch(() => undefined);
    const member = around ?? account_name;
    if (typeof member === 'string') void tx.get('users', [app_id, member]).catch(() => undefined);
    else if (operation === operations['get_leaderboard']) readPageAhead(tx, input, now().getTime());
  };
}

/** As get_leaderboard reads its input (server/operations.ts), then readLeaderboard its first reads. */
function readPageAhead(tx: Transaction, input: Record<string, unknown>, now: number): void {
  const parsed = getLeaderboardQuery.safeParse(input);
  if (!parsed.success) return;
  const { app_id, leaderboard_type, limit = DEFAULT_LIMIT, offset = 0 } = parsed.data;
  const board = boardOf(leaderboard_type ?? 'score', app_id, now);
  void tx.boardPage(board, offset, limit).catch(() => undefined);
  if (board.period !== null) void tx.countOnBoard(board).catch(() => undefined);
}
