// The benchmark's members, generated deterministically in the page: member i
// is the same in every run and in every chunk, so an import can be split at
// any index. Their progress differs (and spreads over the last weeks), so
// scores, weekly scores and ranks differ as on a real site.

import { seededRandom } from './seeded-random.js';

/** @typedef {ReturnType<typeof appFor>} BenchApp */

export const ADMIN_KEY = 'sk_bench_operator_admin';
const DAY_MS = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 45;
const MAX_LOGS_PER_MEMBER = 4;
const UNREACHED = { writes: 1_000_000, window_seconds: 60 };

/**
 * A fixed GUID per (app, n): tasks and challenges are keyed by id across apps.
 * @param {number} appIndex
 * @param {number} n
 */
export function benchGuid(appIndex, n) {
  return `b0000000-0000-4000-8000-${(appIndex * 256 + n).toString(16).padStart(12, '0')}`;
}

/** @param {number} index */
export function memberName(index) {
  return `member-${String(index).padStart(6, '0')}`;
}

/**
 * The app of this size. Its twin (`whole`) has the same members and progress
 * under other ids, to time one import of them all against the chunked seeding.
 * @param {number} size
 * @param {number} appIndex
 * @param {{ whole?: boolean }} [options]
 */
export function appFor(size, appIndex, { whole = false } = {}) {
  const suffix = whole ? '-whole' : '';
  const guidIndex = whole ? appIndex + 128 : appIndex;
  return {
    appIndex,
    size,
    appId: `bench-${size}${suffix}`,
    apiKey: `pk_bench_${size}${suffix}`,
    challengeId: benchGuid(guidIndex, 1),
    seasonId: benchGuid(guidIndex, 5),
    taskIds: [benchGuid(guidIndex, 2), benchGuid(guidIndex, 3), benchGuid(guidIndex, 4)],
    treasuryAccount: '0.0.1001',
  };
}

/**
 * The app of the first-paint measurement (bench/first-paint.js), named as bench/first-paint.html asks for it.
 * @param {number} size
 * @param {number} appIndex
 */
export function firstPaintApp(size, appIndex) {
  return { ...appFor(size, appIndex), appId: 'first-paint', apiKey: 'pk_first_paint' };
}

/**
 * The app's badges: a rule of each kind, so that get_achievements reads what a real app's does
 * and the seeding's logs award them as they cross their rules. In the first chunk only: defined
 * before any member, they award nobody retroactively.
 * @param {BenchApp} app
 */
function badgesOf(app) {
  /**
   * @param {string} badge_id
   * @param {import('../src/api/schemas.js').BadgeRule} rule
   */
  const badge = (badge_id, rule) => ({ badge_id, name: badge_id, description: `The ${badge_id} badge.`, rule });
  return [
    badge('first-task', { kind: 'tasks_completed', at_least: 1 }),
    badge('three-tasks', { kind: 'tasks_completed', at_least: 3 }),
    badge('finisher', { kind: 'challenges_completed', at_least: 1 }),
    badge('level-2', { kind: 'level', at_least: 2 }),
    badge('streak-2', { kind: 'streak', at_least: 2 }),
    badge('challenger', { kind: 'challenge', challenge_id: app.challengeId }),
    badge('helper', { kind: 'manual' }),
  ];
}

/**
 * The app itself: keys, treasury, one challenge of three tasks and its badges; no members.
 * @param {BenchApp} app
 */
export function appDefinition(app) {
  return {
    app_id: app.appId,
    name: `Benchmark ${app.size}`,
    api_keys: [{ key: app.apiKey, scopes: ['read', 'write', 'ledger'] }],
    // A server counts every write against its limits; these are past what the load writes, as
    // all of the bench's clients share one key and one address.
    settings: { rate_limits: { per_key: UNREACHED, per_member: UNREACHED, per_ip: UNREACHED } },
    treasury: { account_id: app.treasuryAccount, balance: '1000000' },
    challenges: [
      {
        challenge_id: app.challengeId,
        name: 'Benchmark challenge',
        description: 'Three tasks with different rules.',
        start_date: '2026-01-01T00:00:00Z',
        points: 50,
        tasks: [
          {
            task_id: app.taskIds[0],
            name: 'Post 5 times',
            quantity: 5,
            operator: 0,
            metadata: { action: 'post' },
            points: 10,
            allowretry: true,
          },
          {
            task_id: app.taskIds[1],
            name: 'One thread of 3',
            quantity: 3,
            operator: 1,
            metadata: { action: 'thread' },
            points: 20,
          },
          {
            task_id: app.taskIds[2],
            name: 'Reply 10 times',
            quantity: 10,
            operator: 0,
            metadata: { action: 'reply' },
            points: 30,
          },
        ],
      },
    ],
    badges: badgesOf(app),
  };
}

/**
 * The app's season, open from before the history to a year on, with the chunk's members on its
 * board: every member has points in it, so its board is as long as the score board.
 * @param {BenchApp} app
 * @param {Array<{ account_name: string, points: number, at: string }>} board
 * @param {number} nowMs
 */
function seasonOf(app, board, nowMs) {
  return {
    season_id: app.seasonId,
    name: 'Benchmark season',
    starts_at: new Date(nowMs - (HISTORY_DAYS + 1) * DAY_MS).toISOString(),
    ends_at: new Date(nowMs + 365 * DAY_MS).toISOString(),
    board,
  };
}

/**
 * Member `index`'s seeded numbers, the first of them drawn already: how many progress logs the
 * member has (memberChunk draws the rest).
 * @param {BenchApp} app
 * @param {number} index
 */
function memberDraws(app, index) {
  const next = seededRandom(app.appIndex * 1_000_003 + index);
  return { next, logs: Math.floor(next() * (MAX_LOGS_PER_MEMBER + 1)) };
}

/**
 * The names of the members without a progress log, about one in MAX_LOGS_PER_MEMBER + 1, in the
 * order of their index. Having completed no task, each is awarded the rule badge first-task by
 * the first log that completes one (bench/operations.js).
 * @param {BenchApp} app
 * @returns {Generator<string>}
 */
export function* membersWithoutProgress(app) {
  for (let index = 0; index < app.size; index++) {
    if (memberDraws(app, index).logs === 0) yield memberName(index);
  }
}

/**
 * Members [start, end) with their progress and season points, as one merge import's app entry.
 * @param {BenchApp} app
 * @param {number} start
 * @param {number} end
 * @param {number} nowMs
 */
export function memberChunk(app, start, end, nowMs) {
  const users = [];
  const progress = [];
  const board = [];
  for (let index = start; index < end; index++) {
    const { next, logs } = memberDraws(app, index);
    const account_name = memberName(index);
    users.push({ account_name, is_active: true });
    for (let log = 0; log < logs; log++) {
      const daysAgo = next() * HISTORY_DAYS;
      progress.push({
        task_id: app.taskIds[Math.floor(next() * app.taskIds.length)],
        account_name,
        quantity: 1 + Math.floor(next() * 5),
        at: new Date(Math.floor((nowMs - daysAgo * DAY_MS) / 1000) * 1000).toISOString(),
      });
    }
    const at = new Date(Math.floor((nowMs - next() * HISTORY_DAYS * DAY_MS) / 1000) * 1000).toISOString();
    board.push({ account_name, points: Math.floor(next() * 200), at });
  }
  return { app_id: app.appId, users, progress, seasons: [seasonOf(app, board, nowMs)] };
}

/**
 * The body of the merge import of members [start, end): the first chunk also brings the app
 * itself, and for a service worker the admin key, which bootstraps its empty store (a server takes
 * admin keys from its operator only: bench/server-run.js gives it QUESTBOARD_ADMIN_KEYS).
 * @param {BenchApp} app
 * @param {number} start
 * @param {number} end
 * @param {number} nowMs
 * @param {{ bringsAdminKey: boolean }} options
 */
export function importBody(app, start, end, nowMs, { bringsAdminKey }) {
  const members = memberChunk(app, start, end, nowMs);
  if (start !== 0) return { apps: [members] };
  return { ...(bringsAdminKey && { admin_keys: [ADMIN_KEY] }), apps: [{ ...appDefinition(app), ...members }] };
}
