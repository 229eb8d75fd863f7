// What a read is about to read, asked for as its transaction opens (HandlerOptions.readAhead):
// the app it names, read right after its key (appFor), and the member it names (account_name,
// or around on a leaderboard) after that. On a server each read is a round trip to the
// database; asked for now, all travel with the key's. Not a write's reads: a write locks its
// key before its app (store/sql/transaction.ts).
import type { Transaction } from '../store/index.js';

/** A read that fails here is the request's own to meet: it reads the same record again. */
export function readAhead(tx: Transaction, input: Record<string, unknown>): void {
  const { app_id, around, account_name } = input;
  if (typeof app_id !== 'string') return;
  void tx.get('apps', app_id).catch(() => undefined);
  const member = around ?? account_name;
  if (typeof member === 'string') void tx.get('users', [app_id, member]).catch(() => undefined);
}
