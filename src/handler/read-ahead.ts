// What a request is about to read, asked for before it needs it (HandlerOptions.readAhead). On
// a server each read is a round trip to the database; asked for early, reads travel together.
// - A read's, as its transaction opens, beside its key's: the app it names, read right after its
//   key (appFor), and the member it names (account_name, or around on a leaderboard) after that;
//   for a leaderboard's page by offset, the page and a period board's count, as readLeaderboard
//   asks for them first; a challenge it names, and its tasks once the challenge is there (in one
//   statement, where the operation asks for each); a task it names, and the member's progress in it.
// - A write's right behind its key's read, which locks the key and its app (store/sql/transaction.ts):
//   its write limits' counts and the records endorse_account and connect_social read, for a key
//   this process has limited before, counted by the app and limits of its last write
//   (RateLimiter.countAhead). Each round trip of a write after its key's lock is one more that
//   every other write of the app waits for (docs/performance.md). A write locks what it reads, so
//   nothing is read ahead for a key not seen good before, nor for a key of another app than the
//   one named; a key taken away since locks what it names until its request is turned away.
// - admin/log_task's, once its key is known good (an installation admin key, which no write
//   limit counts): what it reads after its task, a round trip each before.
// - An admin operation's, beside its key's: the installation admin keys' hashes, which its key
//   is looked up in once it is no app's (a meta entry, which locks nothing).
import { getLeaderboardQuery } from '../api/schemas.js';
import { boardOf, DEFAULT_LIMIT } from '../core/leaderboard.js';
import { adminKeyHashes, authenticate } from '../core/access.js';
import { sha256Hex } from '../api/key-hash.js';
import type { Transaction } from '../store/index.js';
import { operations, type Operation } from './operations.js';
import type { RateLimiter } from './rate-limits.js';
import type { ReadAhead } from './handler.js';

/**
 * The read-ahead of a server whose clock is `now` (the handler's). A read that fails here is the
 * request's own to meet: it asks for the same again. One that guessed differently from the
 * operation (another page, another week at its turn) is a statement spent, never a wrong answer:
 * the store answers only the same question from it (store/sql/boards.ts).
 */
export function createReadAhead(now: () => Date = () => new Date(), limiter?: RateLimiter): ReadAhead {
  return (tx, input, operation, key, context, member) => {
    if (operation.scope === 'admin' && key !== null) void adminKeyHashes(tx).catch(() => undefined);
    if (operation.transaction === 'write') {
      if (key === null) return;
      if (operation === operations['admin/log_task']) readLogAhead(tx, input, key);
      else if (limiter) {
        // As the limiter knows keys: by the hash their records keep (request-guards.ts).
        const write = {
          key: sha256Hex(key),
          member: member ?? undefined,
          clientAddress: context?.clientAddress,
          now: now().getTime(),
        };
        readWriteAhead(tx, input, operation, limiter, write);
      }
      return;
    }
    const { app_id, around, account_name, challenge_id, task_id } = input;
    if (typeof challenge_id === 'string') readChallengeAhead(tx, challenge_id);
    if (typeof task_id === 'string') {
      void tx.get('tasks', task_id).catch(() => undefined);
      if (typeof account_name === 'string') void tx.get('progress', [task_id, account_name]).catch(() => undefined);
    }
    if (typeof app_id !== 'string') return;
    void tx.get('apps', app_id).catch(() => undefined);
    const named = around ?? account_name;
    if (typeof named === 'string') void tx.get('users', [app_id, named]).catch(() => undefined);
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

/** As get_challenge reads: the challenge, then each of its tasks. */
function readChallengeAhead(tx: Transaction, challenge_id: string): void {
  void tx
    .get('challenges', challenge_id)
    .then((challenge) => challenge && tx.getMany('tasks', challenge.task_ids))
    .catch(() => undefined);
}

/**
 * A write's limits counted and its records read right behind its key's read (from the next turn
 * on, as readLogAhead's), where the limiter knows the key and its app is the one named.
 */
function readWriteAhead(
  tx: Transaction,
  input: Record<string, unknown>,
  operation: Operation,
  limiter: RateLimiter,
  write: Parameters<RateLimiter['countAhead']>[1],
): void {
  void Promise.resolve().then(() => {
    const app_id = limiter.countAhead(tx, write);
    if (app_id === null || input.app_id !== app_id) return;
    const { from_account, to_account, endorsement_id, account_name } = input;
    if (operation === operations['connect_social'] && typeof account_name === 'string') {
      void tx.get('users', [app_id, account_name]).catch(() => undefined);
    }
    if (
      operation === operations['endorse_account'] &&
      typeof from_account === 'string' &&
      typeof to_account === 'string' &&
      typeof endorsement_id === 'string'
    ) {
      // As endorse reads them (core/endorsements.ts), so that its reads take these.
      const members: [string, string][] = [
        [app_id, from_account],
        [app_id, to_account],
      ];
      void tx.getMany('users', members).catch(() => undefined);
      void tx.get('endorsements', [app_id, from_account, to_account, endorsement_id]).catch(() => undefined);
    }
  });
}

/**
 * As admin/log_task reads, once its key is known good: its task, then at once, in the order the
 * log reads them, the task's app, the member, the challenge and the member's progress in the
 * task. Not for a key of another app, which the task's lookup turns away.
 */
function readLogAhead(tx: Transaction, input: Record<string, unknown>, key: string): void {
  const { task_id, account_name } = input;
  if (typeof task_id !== 'string' || typeof account_name !== 'string') return;
  // From the next turn on: the handler starts the key's own lookup after this call, so the key is
  // read (and locked) first, and its lookup here takes the same read.
  void Promise.resolve()
    .then(() => authenticate(tx, key))
    .then(async ({ app_id }) => {
      const task = await tx.get('tasks', task_id);
      if (!task || (app_id !== null && app_id !== task.app_id)) return;
      await Promise.all([
        tx.get('apps', task.app_id),
        tx.get('users', [task.app_id, account_name]),
        tx.get('challenges', task.challenge_id),
        tx.get('progress', [task_id, account_name]),
      ]);
    })
    .catch(() => undefined);
}
