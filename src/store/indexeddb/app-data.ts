// Everything one app owns, for export and for import's replace mode, and
// the history of some of its members, for import's removal of tasks. What is
// deleted here is deleted behind the transaction's cache: the caller forgets
// what it read (Transaction.forgetReads).
import { newBoardsGeneration } from './board-positions.js';
import { prefixRange } from './key-ranges.js';
import type { RawTransaction as Transaction } from './schema.js';
import type { AppData, MemberHistory, MemberMeasure, SubmissionFilter } from '../port.js';
import type { SubmissionRecord } from '../records.js';

const appPrefix = (app_id: string) => prefixRange([app_id]);

export async function readAppData(tx: Transaction, app_id: string): Promise<AppData> {
  const store = tx.objectStore.bind(tx);
  const [api_keys, users, challenges, tasks, logs, endorsements, badge_awards] = await Promise.all([
    store('api_keys').index('by_app').getAll(app_id),
    store('users').getAll(appPrefix(app_id)),
    store('challenges').index('by_app').getAll(app_id),
    store('tasks').index('by_app').getAll(app_id),
    store('logs').index('by_app').getAll(app_id),
    store('endorsements').getAll(appPrefix(app_id)),
    store('badge_awards').getAll(appPrefix(app_id)),
  ]);
  return { api_keys, users, challenges, tasks, logs, endorsements, badge_awards };
}

/** Deletes the app and everything it owns (import's replace mode). */
export async function deleteAppData(tx: Transaction, app_id: string): Promise<void> {
  // Its boards' pages go: pages kept in any context are read again (kept-boards.ts).
  newBoardsGeneration(tx);
  const byApp = ['api_keys', 'challenges', 'tasks', 'progress', 'member_challenges', 'logs', 'submissions', 'attempts'] as const;
  await Promise.all([
    tx.objectStore('apps').delete(app_id),
    tx.objectStore('users').delete(appPrefix(app_id)),
    tx.objectStore('endorsements').delete(appPrefix(app_id)),
    tx.objectStore('badge_awards').delete(appPrefix(app_id)),
    tx.objectStore('season_points').delete(appPrefix(app_id)),
    tx.objectStore('board_runs').delete(appPrefix(app_id)),
    tx.objectStore('board_rows').delete(appPrefix(app_id)),
    ...byApp.map(async (name) => {
      let cursor = await tx.objectStore(name).index('by_app').openKeyCursor(app_id);
      const deletions: Promise<void>[] = [];
      while (cursor) {
        deletions.push(tx.objectStore(name).delete(cursor.primaryKey as never));
        cursor = await cursor.continue();
      }
      await Promise.all(deletions);
    }),
  ]);
}

/**
 * Deletes a task and the progress on it; returns the members who had any.
 * Their logs on it go with the rest of their history (takeMemberHistory).
 */
export async function deleteTask(tx: Transaction, task_id: string): Promise<string[]> {
  const progress = tx.objectStore('progress');
  const range = prefixRange([task_id]);
  const keys = await progress.getAllKeys(range);
  await Promise.all([tx.objectStore('tasks').delete(task_id), progress.delete(range)]);
  return keys.map(([, account_name]) => account_name);
}

/** The members who completed a task of the challenge. */
export async function challengeMembers(tx: Transaction, challenge_id: string): Promise<string[]> {
  const keys = await tx.objectStore('member_challenges').getAllKeys(prefixRange([challenge_id]));
  return keys.map(([, account_name]) => account_name);
}

/** The members who completed the challenge: a walk over those with progress in it, when a badge is defined on it. */
export async function challengeCompleters(tx: Transaction, challenge_id: string): Promise<string[]> {
  const records = await tx.objectStore('member_challenges').getAll(prefixRange([challenge_id]));
  return records.filter((record) => record.completed).map((record) => record.account_name);
}

/** The app's members whose measure reaches `at_least`: a walk over them, when a badge is defined. */
export async function membersReaching(
  tx: Transaction,
  app_id: string,
  measure: MemberMeasure,
  at_least: number,
): Promise<string[]> {
  const names: string[] = [];
  for (let cursor = await tx.objectStore('users').openCursor(appPrefix(app_id)); cursor; cursor = await cursor.continue()) {
    if ((cursor.value[measure] ?? 0) >= at_least) names.push(cursor.value.account_name);
  }
  return names;
}

/**
 * Takes the members' progress away, logs included, and returns their history:
 * it is replayed anew. Scans the app's logs and endorsements, which are not
 * indexed by member; this runs only when an import removes tasks.
 */
export async function takeMemberHistory(tx: Transaction, app_id: string, names: Set<string>): Promise<MemberHistory> {
  const store = tx.objectStore.bind(tx);
  const [logs, endorsements, tasks, challenges] = await Promise.all([
    store('logs').index('by_app').getAll(app_id),
    store('endorsements').getAll(appPrefix(app_id)),
    store('tasks').index('by_app').getAllKeys(app_id),
    store('challenges').index('by_app').getAllKeys(app_id),
  ]);
  const theirs = logs.filter((log) => names.has(log.account_name));
  const deletions: Promise<void>[] = theirs.map((log) => store('logs').delete(log.seq!));
  for (const name of names) {
    deletions.push(...tasks.map((task_id) => store('progress').delete([task_id, name])));
    deletions.push(...challenges.map((challenge_id) => store('member_challenges').delete([challenge_id, name])));
  }
  await Promise.all(deletions);
  return { logs: theirs, endorsements: endorsements.filter((e) => names.has(e.to_account)) };
}

/** The app's submissions the filter names, oldest first (Transaction.listSubmissions). */
export async function listSubmissions(
  tx: Transaction,
  app_id: string,
  filter: SubmissionFilter,
  offset: number,
  limit: number,
): Promise<SubmissionRecord[]> {
  const [index, prefix] =
    'status' in filter
      ? (['by_status', [app_id, filter.status]] as const)
      : 'account_name' in filter
        ? (['by_member', [app_id, filter.account_name]] as const)
        : (['by_app', [app_id]] as const);
  const found: SubmissionRecord[] = [];
  let cursor = await tx
    .objectStore('submissions')
    .index(index)
    .openCursor(prefixRange([...prefix]) as never);
  if (cursor && offset > 0) cursor = await cursor.advance(offset);
  for (; cursor && found.length < limit; cursor = await cursor.continue()) found.push(cursor.value);
  return found;
}
