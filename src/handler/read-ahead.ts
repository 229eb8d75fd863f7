// When a server asks for what a request is about to read, before it needs it
// (HandlerOptions.readAhead), and how. On a server each read is a round trip to the database;
// asked for early, reads travel together. What each operation reads is declared beside it, as
// its `readsAhead` (operations.ts: AheadRead says what each name reads).
// - A read's, as its transaction opens, beside its key's.
// - A write's right behind its key's read, which locks the key and its app (store/sql/transaction.ts),
//   from the next turn on: its write limits' counts, for a key this process has limited before,
//   counted by the app and limits of its last write (RateLimiter.countAhead), then what the
//   operation reads. Each round trip of a write after its key's lock is one more that every
//   other write of the app waits for (docs/performance.md). A write locks what it reads, so it
//   reads ahead only for a key known good: one the limiter knows, of the app the input names, or
//   one it has looked up itself (admin/log_task's, an installation admin key no limit counts).
// - An admin operation's, beside its key's: the installation admin keys' hashes, which its key
//   is looked up in once it is no app's (a meta entry, which locks nothing).
import { getLeaderboardQuery } from '../api/schemas.js';
import { boardOf, DEFAULT_LIMIT } from '../core/leaderboard.js';
import { adminKeyHashes, authenticate } from '../core/access.js';
import { dayCountsKey } from '../core/activity.js';
import { progressAfter, readForCompletion } from '../core/progress.js';
import { sha256Hex } from '../api/key-hash.js';
import { toQuantityE4 } from '../api/formats.js';
import type { Transaction } from '../store/index.js';
import type { AheadRead } from './operations.js';
import type { RateLimiter } from './rate-limits.js';
import type { ReadAhead } from './handler.js';

/** What each read ahead is told. */
interface Ahead {
  tx: Transaction;
  /** The input as sent, not yet parsed: a field is used only where it is a string. */
  input: Record<string, unknown>;
  /** The request's clock, epoch ms. */
  now: number;
  /** The key as sent. */
  key: string;
  /** A write's: the app of its key where the limiter knows the key, else null. A read's: undefined. */
  knownApp?: string | null;
}

/**
 * The read-ahead of a server whose clock is `now` (the handler's). A read that fails here is the
 * request's own to meet: it asks for the same again. One that guessed differently from the
 * operation (another page, another week at its turn) is a statement spent, never a wrong answer:
 * the store answers only the same question from it (store/sql/boards.ts).
 */
export function createReadAhead(now: () => Date = () => new Date(), limiter?: RateLimiter): ReadAhead {
  return (tx, input, operation, key, context, member) => {
    if (key === null) return;
    if (operation.scope === 'admin') ask(adminKeyHashes(tx));
    const time = now().getTime();
    if (operation.transaction !== 'write') {
      readAll(operation.readsAhead, { tx, input, now: time, key });
      return;
    }
    // From the next turn on: the handler starts the key's own lookup after this call, so the key
    // is read (and locked) first.
    void Promise.resolve().then(() => {
      const write = { key: sha256Hex(key), member: member ?? undefined, clientAddress: context?.clientAddress, now: time };
      const knownApp = limiter?.countAhead(tx, write) ?? null;
      readAll(operation.readsAhead, { tx, input, now: time, key, knownApp });
    });
  };
}

function readAll(reads: readonly AheadRead[] = [], ahead: Ahead): void {
  for (const read of reads) READS[read](ahead);
}

/** Asks for a read whose answer the request takes later, or meets the failure of itself. */
function ask(read: Promise<unknown>): void {
  void read.catch(() => undefined);
}

const text = (value: unknown): value is string => typeof value === 'string';

/**
 * The app the input names; for a write, only where it is the app of its known key: else null,
 * and nothing is read ahead.
 */
const appOf = ({ input: { app_id }, knownApp }: Ahead): string | null =>
  text(app_id) && (knownApp === undefined || app_id === knownApp) ? app_id : null;

/** Each read an operation may declare. */
const READS: Record<AheadRead, (ahead: Ahead) => void> = {
  app: (ahead) => {
    const app_id = appOf(ahead);
    if (app_id !== null) ask(ahead.tx.get('apps', app_id));
  },

  member: (ahead) => {
    const app_id = appOf(ahead);
    const { account_name } = ahead.input;
    if (app_id !== null && text(account_name)) ask(ahead.tx.get('users', [app_id, account_name]));
  },

  board: ({ tx, input, now }) => {
    const { app_id, around, season } = input;
    if (text(app_id) && text(around)) {
      // As readSeasonBoard, or pageAround (core/leaderboard.ts), first reads the member.
      ask(text(season) ? tx.get('season_points', [app_id, season, around]) : tx.get('users', [app_id, around]));
      return;
    }
    // As get_leaderboard reads its input (operations.ts), then readLeaderboard (or
    // readSeasonBoard) its first reads.
    const parsed = getLeaderboardQuery.safeParse(input);
    if (!parsed.success) return;
    const { leaderboard_type, limit = DEFAULT_LIMIT, offset = 0 } = parsed.data;
    if (parsed.data.season !== undefined) {
      ask(tx.seasonPage(parsed.data.app_id, parsed.data.season, offset, limit));
      return;
    }
    const board = boardOf(leaderboard_type ?? 'score', parsed.data.app_id, now);
    ask(tx.boardPage(board, offset, limit));
    if (board.period !== null) ask(tx.countOnBoard(board));
  },

  // In one statement for the tasks, as get_challenge asks for each at once.
  challenge: ({ tx, input: { challenge_id } }) => {
    if (!text(challenge_id)) return;
    ask(tx.get('challenges', challenge_id).then((challenge) => challenge && tx.getMany('tasks', challenge.task_ids)));
  },

  task: ({ tx, input: { task_id, account_name } }) => {
    if (!text(task_id)) return;
    ask(tx.get('tasks', task_id));
    if (text(account_name)) ask(tx.get('progress', [task_id, account_name]));
  },

  // As endorse reads them (core/endorsements.ts), so that its reads take these.
  endorsement: (ahead) => {
    const app_id = appOf(ahead);
    const { from_account, to_account, endorsement_id } = ahead.input;
    if (app_id === null || !text(from_account) || !text(to_account) || !text(endorsement_id)) return;
    const members: [string, string][] = [
      [app_id, from_account],
      [app_id, to_account],
    ];
    ask(ahead.tx.getMany('users', members));
    ask(ahead.tx.get('endorsements', [app_id, from_account, to_account, endorsement_id]));
  },

  // Not for a key of another app, which the task's lookup turns away. The key's lookup here
  // takes the handler's read, started before.
  log: ({ tx, input: { task_id, account_name, quantity }, key, now }) => {
    if (!text(task_id) || !text(account_name)) return;
    ask(
      authenticate(tx, key).then(async ({ app_id }) => {
        const task = await tx.get('tasks', task_id);
        if (!task || (app_id !== null && app_id !== task.app_id)) return;
        const app = tx.get('apps', task.app_id);
        await Promise.all([
          // The day's counts, which a log that completes the task updates (core/activity.ts).
          app.then((found) => found && tx.getMeta(dayCountsKey(found, now))),
          tx.get('users', [task.app_id, account_name]),
          tx.get('challenges', task.challenge_id),
          // A log that completes the task goes on to read what completing it reads: asked for
          // beside the day's counts, not in a round trip of its own once the rules reach it.
          tx.get('progress', [task_id, account_name]).then(async (progress) => {
            const before = progress ?? { completed_e4: 0, times_completed: 0 };
            if (typeof quantity !== 'number' || !progressAfter(task, before, toQuantityE4(quantity)).reached) return;
            const found = await app;
            if (found) await readForCompletion(tx, found, task, account_name, before.times_completed === 0, now);
          }),
        ]);
      }),
    );
  },
};
