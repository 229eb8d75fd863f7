// examples/community.json, the sample community the docs name, imported as it
// stands into the Questboard server (PGlite): at start with --data, and by a
// POST to /v1/admin/import with the operator's admin key, as curl sends it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { runServer, startServer } from './reference-server.js';

const SAMPLE = 'examples/community.json';
const ADMIN_KEY = 'sk_operator_0123456789abcdef';
const WELCOME = '5a1e0c3d-7b2f-4c61-9d8e-1f2a3b4c5d01';

/** @import { LeaderboardEntry, Task } from '../../src/api/responses.js' */

/** @param {number} port */
async function readBack(port) {
  /** @param {string} path */
  const get = async (path) => {
    const answer = await fetch(`http://127.0.0.1:${port}/v1/${path}`, { headers: { Authorization: 'Bearer pk_riverside_page' } });
    assert.equal(answer.status, 200, `${path}: ${await answer.clone().text()}`);
    return answer.json();
  };
  const challenge = await get(`get_challenge?challenge_id=${WELCOME}`);
  assert.equal(challenge.name, 'Welcome to Riverside');
  assert.deepEqual(
    challenge.tasks.map((/** @type {Task} */ task) => task.name),
    ['Post an introduction', 'Reply to 3 threads'],
  );
  const ada = await get('get_userinfo?app_id=riverside&account_name=ada');
  // Both tasks (10 + 20) and the challenge (50), then the first workshop task (30); endorsed twice.
  assert.equal(ada.challenges_completed, 1);
  assert.equal(ada.total_score, 110);
  assert.equal(ada.current_xp, 110 + 2 * 5);
  const board = await get('get_leaderboard?app_id=riverside');
  assert.equal(board.total_users, 4);
  assert.deepEqual(
    board.leaderboard_users.map((/** @type {LeaderboardEntry} */ entry) => [entry.rank, entry.external_user.username]),
    [
      [1, 'grace'],
      [2, 'ada'],
      [3, 'linus'],
      [4, 'margaret'],
    ],
  );
}

describe('the sample community', () => {
  it('brings no admin key of its own', async () => {
    const sample = JSON.parse(await readFile(SAMPLE, 'utf8'));
    assert.equal('admin_keys' in sample, false);
  });

  it('loads at start with --data, authorised by the operator’s admin key', async () => {
    const server = await startServer(['--data', SAMPLE], { env: { QUESTBOARD_ADMIN_KEYS: ADMIN_KEY } });
    try {
      await readBack(server.port);
    } finally {
      await server.stop();
    }
  });

  it('imports as it stands through POST /v1/admin/import', async () => {
    const server = await startServer([], { env: { QUESTBOARD_ADMIN_KEYS: ADMIN_KEY } });
    try {
      const answer = await fetch(`http://127.0.0.1:${server.port}/v1/admin/import`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
        body: await readFile(SAMPLE),
      });
      assert.deepEqual(await answer.json(), { is_valid: true, message: null, app_ids: ['riverside'] });
      await readBack(server.port);
    } finally {
      await server.stop();
    }
  });

  it('is refused at start, in one line, by a server without an admin key', async () => {
    const { code, stderr } = await runServer(['--memory', '--port', '0', '--data', SAMPLE], {
      env: { QUESTBOARD_ADMIN_KEYS: '' },
    });
    assert.equal(code, 1);
    assert.equal(
      stderr,
      `questboard-server: --data needs an admin key to import ${SAMPLE} with: set QUESTBOARD_ADMIN_KEYS or --admin-keys-file ` +
        "(a server takes none from a dataset), or start with --allow-bootstrap to take the dataset's own\n",
    );
  });
});
