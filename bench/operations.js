// The measured operations, each one timed request per round. Writes change their
// target every round (another member, another endorsement), so each round is a
// real write and not the cheap answer to a repeated one.
import { ADMIN_KEY, appDefinition, memberName, membersWithoutProgress } from './dataset.js';

/**
 * One request of an operation, as the benchmarks' clients send it (bench/page.js, bench/http-client.js).
 * @typedef {{ method: 'GET' | 'POST', url: string, key: string, body?: unknown }} BenchRequest
 */
/**
 * Its answer: `ms` from the request to the last byte of the body.
 * @typedef {{ ms: number, status: number, text: string }} BenchAnswer
 */
/**
 * @typedef {object} Operation
 * @property {string} name
 * @property {'baseline' | 'read' | 'write'} kind
 * @property {(round: number) => BenchRequest} request the round's request
 */

/** @param {Record<string, string>} params */
const query = (params) => new URLSearchParams(params).toString();

/** How deep in the board the deep operations read: at 90% of its members. */
export const DEEP_FRACTION = 0.9;

/**
 * Rounds past any the timing uses (bench/rounds.js counts from 0): the server benchmark's
 * statement count sends PROBE_ROUND, its load counts up from LOAD_FIRST_ROUND, so each of their
 * writes has a target of its own (the badge write's members: badgeWinner below).
 */
export const PROBE_ROUND = 500_000;
export const LOAD_FIRST_ROUND = 1_000_000;

/** Issue 40's write: a request of it awards a badge, one member's first. */
export const BADGE_WRITE = 'admin/log_task awarding a badge';

/**
 * `deepMember`, when given, adds two reads deep in the score board: the page at
 * DEEP_FRACTION of the members, and the page around that member (the caller
 * finds who is there), to set against the first page.
 * @param {import('./dataset.js').BenchApp} app
 * @param {{ deepMember?: string }} [options]
 * @returns {Operation[]}
 */
export function operationsFor(app, { deepMember } = {}) {
  const { appId, apiKey, size } = app;
  const { tasks } = appDefinition(app).challenges[0];
  // Spread over the whole app so no single record stays hot in a cache.
  /** @type {(round: number, salt?: number) => string} */
  const member = (round, salt = 0) => memberName((round * 7919 + salt * 104729) % size);
  /** @type {(path: string, params: Record<string, string>, key?: string) => BenchRequest} */
  const get = (path, params, key = apiKey) => ({ method: 'GET', url: `/v1/${path}?${query(params)}`, key });
  /** @type {(path: string, body: unknown, key?: string) => BenchRequest} */
  const post = (path, body, key = apiKey) => ({ method: 'POST', url: `/v1/${path}`, key, body });
  /** @type {Operation[]} */
  const deepReads =
    deepMember === undefined
      ? []
      : [
          {
            name: 'get_leaderboard offset 90%',
            kind: 'read',
            request: () => get('get_leaderboard', { app_id: appId, offset: String(Math.floor(size * DEEP_FRACTION)) }),
          },
          {
            name: 'get_leaderboard around 90%',
            kind: 'read',
            request: () => get('get_leaderboard', { app_id: appId, around: deepMember, limit: '25' }),
          },
        ];
  const middle = memberName(Math.floor(size / 2));
  const badgeWinner = badgeWinners(app);

  return [
    { name: 'health', kind: 'baseline', request: () => get('health', {}) },
    { name: 'get_challenge', kind: 'read', request: () => get('get_challenge', { challenge_id: app.challengeId }) },
    {
      name: 'get_userinfo',
      kind: 'read',
      request: (round) => get('get_userinfo', { app_id: appId, account_name: member(round) }),
    },
    {
      name: 'get_achievements',
      kind: 'read',
      request: (round) => get('get_achievements', { app_id: appId, account_name: member(round) }),
    },
    { name: 'get_leaderboard score', kind: 'read', request: () => get('get_leaderboard', { app_id: appId }) },
    {
      name: 'get_leaderboard weekly',
      kind: 'read',
      request: () => get('get_leaderboard', { app_id: appId, leaderboard_type: 'weekly' }),
    },
    {
      // Deep in a weekly board: past its ranked members, into those without points this week.
      name: 'get_leaderboard weekly tail',
      kind: 'read',
      request: () =>
        get('get_leaderboard', { app_id: appId, leaderboard_type: 'weekly', offset: String(Math.floor(size * 0.9)) }),
    },
    {
      name: 'get_leaderboard offset',
      kind: 'read',
      request: () => get('get_leaderboard', { app_id: appId, offset: String(Math.floor(size / 2)) }),
    },
    {
      name: 'get_leaderboard around',
      kind: 'read',
      request: () => get('get_leaderboard', { app_id: appId, around: middle, limit: '25' }),
    },
    ...deepReads,
    {
      name: 'get_leaderboard season',
      kind: 'read',
      request: () => get('get_leaderboard', { app_id: appId, season: app.seasonId }),
    },
    {
      name: 'get_leaderboard season around',
      kind: 'read',
      request: () => get('get_leaderboard', { app_id: appId, season: app.seasonId, around: middle, limit: '25' }),
    },
    {
      name: 'get_leaderboard html',
      kind: 'read',
      request: () => get('get_leaderboard', { app_id: appId, widget_response: 'html', leaderboard_type: 'score' }),
    },
    {
      // The console's member search (issue 42: within 3× health at 1,000,000 members): a prefix
      // shared by up to 100 members, its first page.
      name: 'admin/members search',
      kind: 'read',
      request: (round) => get('admin/members', { app_id: appId, prefix: member(round).slice(0, -2), limit: '20' }, ADMIN_KEY),
    },
    {
      name: 'get_task_progress',
      kind: 'read',
      request: (round) => get('get_task_progress', { task_id: app.taskIds[round % 3], account_name: member(round) }),
    },
    {
      name: 'endorse_account',
      kind: 'write',
      request: (round) =>
        post('endorse_account', {
          app_id: appId,
          from_account: member(round),
          to_account: member(round, 1),
          endorsement_id: `bench-${round}`,
        }),
    },
    {
      name: 'connect_social',
      kind: 'write',
      request: (round) =>
        post('connect_social', { app_id: appId, account_name: member(round, 2), twitter_name: `bench_${round}` }),
    },
    {
      name: 'admin/log_task',
      kind: 'write',
      request: (round) =>
        post('admin/log_task', { task_id: app.taskIds[round % 3], account_name: member(round, 3), quantity: 1 }, ADMIN_KEY),
    },
    {
      // A log of a task's whole quantity completes it, so for a member who has completed none it
      // awards the rule badge first-task (bench/dataset.js) in that very write.
      name: BADGE_WRITE,
      kind: 'write',
      request: (round) => {
        const task = tasks[round % tasks.length];
        return post(
          'admin/log_task',
          { task_id: task.task_id, account_name: badgeWinner(round), quantity: task.quantity },
          ADMIN_KEY,
        );
      },
    },
    {
      name: 'airdrop (POST)',
      kind: 'write',
      request: (round) => post('airdrop_token_ledger', { to_address: `0.0.${5000 + (round % 1000)}`, quantity: 0.0001 }),
    },
  ];
}

/**
 * The badge write's member for each round: one of the app's members without progress, a
 * different one for each round while they last. Each round has a position among them: the
 * timing's rounds count up from the first, the statement count takes the last and the load's
 * rounds count down from the one before it, so no part of a run takes another's members, whatever
 * the number of rounds. Positions past either end wrap around, to members who may hold first-task
 * already, for whom the request awards nothing (a tiny app, a long load); an app so tiny that it
 * has no such member has its first member written instead. A position picks its member by a step
 * coprime to their count, which visits each once before any twice, so that the writes spread over
 * the whole app as the other writes do. Finding them draws once per member: some 40 ms at
 * 1,000,000 members.
 * @param {import('./dataset.js').BenchApp} app
 * @returns {(round: number) => string}
 */
function badgeWinners(app) {
  const winners = [...membersWithoutProgress(app)];
  const count = winners.length;
  if (count === 0) return () => memberName(0);
  /** @type {(a: number, b: number) => number} */
  const greatestCommonDivisor = (a, b) => (b === 0 ? a : greatestCommonDivisor(b, a % b));
  let step = 7919 % count || 1;
  while (greatestCommonDivisor(step, count) !== 1) step++;
  return (round) => {
    const position =
      round >= LOAD_FIRST_ROUND ? count - 2 - (round - LOAD_FIRST_ROUND) : round === PROBE_ROUND ? count - 1 : round;
    const wrapped = ((position % count) + count) % count;
    return winners[(wrapped * step) % count];
  };
}
