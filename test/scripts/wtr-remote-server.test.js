// scripts/wtr-remote-server.js, the reference server the browser tests reach
// cross-origin: its URL survives a restart even when another process took
// the port meanwhile, a restart keeps nothing of the run before, and the
// server and its temporary directory go when the test runner is killed or
// ended by a signal.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { remoteServerPlugin } from '../../scripts/wtr-remote-server.js';

const DATASET = 'test/remote/remote-dataset.json';
/** A server start takes long on a busy machine; only a hang should reach this. */
const TIMEOUT = 600_000;
/** Bounds within it, on a runner's server start and on its end: only a hang should reach them either. */
const STARTED_MS = 300_000;
const ENDING_MS = 120_000;

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

/**
 * A runner, in a process of its own, that starts the plugin's server and prints its URL; with a TMPDIR
 * of the test's, where a runner killed outright leaves its temporary directory (the server's bundle).
 * `stderr.end`: the server shares the runner's stderr, so the pipe ends only when the server is gone too.
 */
async function startRunner() {
  const runnerTmp = mkdtempSync(join(tmpdir(), 'questboard-ended-runner-'));
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
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: runnerTmp } },
  );
  after(() => {
    runner.kill('SIGKILL');
    rmSync(runnerTmp, { recursive: true, force: true });
  });
  runner.stderr.resume();
  const serverGone = once(runner.stderr, 'end');
  const exited = once(runner, 'exit');
  const [line] = await within(
    once(runner.stdout.setEncoding('utf8'), 'data'),
    "the runner to print its server's URL",
    STARTED_MS,
  );
  assert.equal((await fetch(`${line.trim()}/_test/subscriptions`)).status, 200);
  return { runner, runnerTmp, serverGone, exited };
}

/**
 * Resolves as `promise` does, or rejects naming `what` once `ms` have passed.
 * @template T
 * @param {Promise<T>} promise
 * @param {string} what
 * @param {number} ms
 * @returns {Promise<T>}
 */
function within(promise, what, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${ms / 1000} s`)), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, late]).finally(() => clearTimeout(timer)));
}

it('stops the server it started when the test runner is killed', { timeout: TIMEOUT }, async () => {
  const { runner, serverGone } = await startRunner();
  runner.kill('SIGKILL');
  await within(serverGone, 'the server to end with the killed runner', ENDING_MS);
});

for (const signal of /** @type {const} */ (['SIGTERM', 'SIGHUP'])) {
  it(
    `on ${signal} stops its server, removes its directory and ends the runner with 128 + the signal`,
    { timeout: TIMEOUT },
    async () => {
      const { runner, runnerTmp, serverGone, exited } = await startRunner();
      assert.match(readdirSync(runnerTmp).join(' '), /questboard-remote-server-/, 'the directory, before the signal');

      runner.kill(signal);
      const [code, endedBy] = await within(exited, `the runner to exit after ${signal}`, ENDING_MS);
      assert.deepEqual({ code, endedBy }, { code: 128 + constants.signals[signal], endedBy: null });
      await within(serverGone, `the server to end after ${signal}`, ENDING_MS);
      assert.deepEqual(readdirSync(runnerTmp), [], "nothing left in the runner's TMPDIR");
    },
  );
}
