// scripts/wtr-remote-server.js, the reference server the browser tests reach
// cross-origin: its URL survives a restart even when another process took
// the port meanwhile, a restart keeps nothing of the run before, and the
// server goes when the test runner is killed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { remoteServerPlugin } from '../../scripts/wtr-remote-server.js';

const DATASET = 'test/remote/remote-dataset.json';
/** A server start takes long on a busy machine; only a hang should reach this. */
const TIMEOUT = 600_000;

const AUTHORIZATION = { Authorization: 'Bearer pk_guild' };

/**
 * @param {ReturnType<typeof remoteServerPlugin>} plugin
 * @param {string} action
 */
const command = (plugin, action) => plugin.executeCommand({ command: 'remote-server', payload: { action } });

/** @param {string} url */
async function aliceXp(url) {
  const answer = await fetch(`${url}/v1/get_userinfo?app_id=guild&account_name=alice`, { headers: AUTHORIZATION });
  return (await answer.json()).current_xp;
}

/**
 * Listens on `port` if it is free; null when another socket holds it.
 * @param {string} hostname
 * @param {number} port
 */
async function takePort(hostname, port) {
  const server = createServer();
  server.listen(port, hostname);
  const [event] = await Promise.race([once(server, 'listening').then(() => ['listening']), once(server, 'error')]);
  return event === 'listening' ? server : null;
}

describe('the reference server of a run', () => {
  const plugin = remoteServerPlugin({ dataset: DATASET });
  before(() => plugin.serverStart(), { timeout: TIMEOUT });
  after(() => plugin.serverStop());

  it(
    'answers at the same URL after a restart, though another process tried to take its port meanwhile',
    { timeout: TIMEOUT },
    async () => {
      // The 'url' action answers with the URL (the others with true).
      const url = /** @type {string} */ (await command(plugin, 'url'));
      assert.equal((await fetch(`${url}/_test/subscriptions`)).status, 200);

      await command(plugin, 'stop');
      await assert.rejects(fetch(`${url}/_test/subscriptions`), TypeError);
      const { hostname, port } = new URL(url);
      const thief = await takePort(hostname, Number(port));
      after(() => thief?.close());

      await command(plugin, 'start');
      assert.equal(await command(plugin, 'url'), url);
      assert.equal((await fetch(`${url}/_test/subscriptions`)).status, 200);
    },
  );

  it('starts again with its dataset afresh, keeping nothing of the run before', { timeout: TIMEOUT }, async () => {
    const url = /** @type {string} */ (await command(plugin, 'url'));
    const endorsed = await fetch(`${url}/v1/endorse_account`, {
      method: 'POST',
      headers: { ...AUTHORIZATION, 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_id: 'guild', from_account: 'carol', to_account: 'alice', endorsement_id: 'mentor' }),
    });
    assert.equal(endorsed.status, 200);
    assert.equal(await aliceXp(url), 10);
    await fetch(`${url}/_test/fault`, { method: 'POST', body: JSON.stringify({ status: 503, path: '/v1/get_badges' }) });

    await command(plugin, 'stop');
    await command(plugin, 'start');
    assert.equal(await aliceXp(url), 5, 'the dataset as it was, without the endorsement');
    const { requests } = await (await fetch(`${url}/_test/requests`)).json();
    assert.deepEqual(
      requests.map((/** @type {{ path: string }} */ request) => request.path),
      ['/v1/get_userinfo'],
      'only the requests since the start',
    );
    assert.notEqual((await fetch(`${url}/v1/get_badges?app_id=guild`, { headers: AUTHORIZATION })).status, 503, 'no fault left');
  });
});

it('stops the server it started when the test runner is killed', { timeout: TIMEOUT }, async () => {
  // A runner killed outright leaves its temporary directory (the server's bundle): in one of the test's.
  const runnerTmp = mkdtempSync(join(tmpdir(), 'questboard-killed-runner-'));
  const runner = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { remoteServerPlugin } = await import(${JSON.stringify(new URL('../../scripts/wtr-remote-server.js', import.meta.url).href)});
       const plugin = remoteServerPlugin({ dataset: ${JSON.stringify(DATASET)} });
       await plugin.serverStart();
       console.log(await plugin.executeCommand({ command: 'remote-server', payload: { action: 'url' } }));`,
    ],
    // The server shares the runner's stderr: the pipe ends only when the server is gone too.
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: runnerTmp } },
  );
  after(() => {
    runner.kill('SIGKILL');
    rmSync(runnerTmp, { recursive: true, force: true });
  });
  runner.stderr.resume();
  const serverGone = once(runner.stderr, 'end');
  const [line] = await once(runner.stdout.setEncoding('utf8'), 'data');
  assert.equal((await fetch(`${line.trim()}/_test/subscriptions`)).status, 200);

  runner.kill('SIGKILL');
  await serverGone;
});
