// The measured operations, each one request per round. Writes change their
// target every round (another member, another endorsement), so each round is a
// real write and not the cheap answer to a repeated one.
import { ADMIN_KEY, memberName } from './dataset.js';

const query = (params) => new URLSearchParams(params).toString();

/** How deep in the board the deep operations read: at 90% of its members. */
export const DEEP_FRACTION = 0.9;

/**
 * `deepMember`, when given, adds two reads deep in the score board: the page at
 * DEEP_FRACTION of the members, and the page around that member (the caller
 * finds who is there), to set against the first page.
 * @returns {{ name: string, kind: 'baseline' | 'read' | 'write', request: (round: number) => object }[]}
 */
export function operationsFor(app, { deepMember } = {}) {
  const { appId, apiKey, size } = app;
  // Spread over the whole app so no single record stays hot in a cache.
  const member = (round, salt = 0) => memberName((round * 7919 + salt * 104729) % size);
  const get = (path, params, key = apiKey) => ({ method: 'GET', url: `/v1/${path}?${query(params)}`, key });
  const post = (path, body, key = apiKey) => ({ method: 'POST', url: `/v1/${path}`, key, body });
  const middle = memberName(Math.floor(size / 2));

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
    ...(deepMember === undefined
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
        ]),
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
      request: (round) => get('admin/members', { app_id: appId, prefix: member(round).slice(0, -2), limit: 20 }, ADMIN_KEY),
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
      name: 'airdrop (POST)',
      kind: 'write',
      request: (round) => post('airdrop_token_ledger', { to_address: `0.0.${5000 + (round % 1000)}`, quantity: 0.0001 }),
    },
  ];
}
