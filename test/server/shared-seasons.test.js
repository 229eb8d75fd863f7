// A season that has ended, freezing under requests to two server processes on one PostgreSQL
// database at once: it freezes once and its rank rewards are paid once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { postgresOrSkip } from '../postgres-or-skip.js';
import { startServer } from './reference-server.js';

const DATASET = 'test/remote/remote-dataset.json';
const ADMIN = 'sk_remote_admin';
const SEASON = '51111111-1111-4111-8111-111111111111';

/** @param {number} port */
function client(port) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   */
  return async (method, path, body) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
}

describe('a season ending under two server processes on one PostgreSQL database', () => {
  /** @type {Awaited<ReturnType<typeof createDatabase>> | undefined} */
  let database;
  /** @type {import('./reference-server.js').RunningServer[]} */
  let servers = [];
  before(async () => {
    if (!(await postgresAnswers())) return;
    database = await createDatabase('questboard_seasons');
    servers.push(await startServer(['--database-url', database.url, '--data', DATASET, '--allow-bootstrap']));
    servers.push(await startServer(['--database-url', database.url]));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('freezes once and pays its rewards once, whichever process the requests reach', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const calls = servers.map((server) => client(server.port));
    // A season that ended long ago, brought by an import (which does not freeze it): the first
    // request after this one, to either process, freezes it.
    const imported = await calls[0]('POST', '/v1/admin/import?mode=merge', {
      apps: [
        {
          app_id: 'guild',
          badges: [
            { badge_id: 'gold', name: 'Gold', description: 'First', rule: { kind: 'manual' } },
            { badge_id: 'podium', name: 'Podium', description: 'Top two', rule: { kind: 'manual' } },
          ],
          seasons: [
            {
              season_id: SEASON,
              name: 'Spring 2021',
              starts_at: '2021-03-01T00:00:00Z',
              ends_at: '2021-06-01T00:00:00Z',
              rewards: [
                { from_rank: 1, to_rank: 1, badge_id: 'gold' },
                { from_rank: 1, to_rank: 2, badge_id: 'podium' },
              ],
              board: [
                { account_name: 'alice', points: 30, at: '2021-04-01T00:00:00Z' },
                { account_name: 'bob', points: 20, at: '2021-04-02T00:00:00Z' },
                { account_name: 'carol', points: 10, at: '2021-04-03T00:00:00Z' },
              ],
            },
          ],
        },
      ],
    });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) => calls[index % 2]('GET', '/v1/admin/seasons?app_id=guild')),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.seasons[0].frozen, true);
    }
    const exported = (await calls[1]('GET', '/v1/admin/export?app_id=guild')).body.apps[0];
    const awards = exported.badge_awards
      .map(
        (/** @type {{ account_name: string, badge_id: string, reason: string }} */ award) =>
          `${award.account_name}:${award.badge_id}:${award.reason}`,
      )
      .sort();
    assert.deepEqual(awards, [`alice:gold:season:${SEASON}`, `alice:podium:season:${SEASON}`, `bob:podium:season:${SEASON}`]);
    for (const { account_name, held } of [
      { account_name: 'alice', held: 2 },
      { account_name: 'bob', held: 1 },
      { account_name: 'carol', held: 0 },
    ]) {
      const achievements = await calls[0]('GET', `/v1/get_achievements?app_id=guild&account_name=${account_name}`);
      assert.equal(achievements.body.badges.length, held, account_name);
    }
    // Both processes answer the same frozen board.
    const boards = await Promise.all(
      calls.map(async (call) => (await call('GET', `/v1/get_leaderboard?app_id=guild&season=${SEASON}`)).body),
    );
    assert.deepEqual(boards[0], boards[1]);
    assert.deepEqual(
      boards[0].leaderboard_users.map(
        (/** @type {import('../../src/api/responses.js').LeaderboardEntry} */ entry) =>
          `${entry.rank}:${entry.external_user.username}:${entry.score}`,
      ),
      ['1:alice:30', '2:bob:20', '3:carol:10'],
    );
  });
});
