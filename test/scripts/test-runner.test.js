// scripts/test.js: every stage runs even after one failed, the closing line
// sums them and the exit code agrees; Ctrl-C (SIGINT) stops the running
// stage with every process it started, and still ends with the closing line.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { it } from 'node:test';
import assert from 'node:assert/strict';

const CLOSING_LINE = /^(\d+) passed, (\d+) failed$/;

/**
 * Runs `script` (scripts/test.js) with `env`; resolves to its exit code and the lines it printed.
 * @param {Record<string, string>} env
 */
function runTests(env, script = 'scripts/test.js') {
  // Without the variable that makes a node --test inside a test report to its parent instead.
  const { NODE_TEST_CONTEXT: _, ...ours } = process.env;
  const child = spawn(process.execPath, [script], { env: { ...ours, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
  child.stderr.resume();
  const finished = once(child, 'exit').then(([code]) => ({ code, lines: stdout.trimEnd().split('\n') }));
  return { child, finished };
}

it('runs every stage after a failing one, counts those needing it as failed, not run, and sums them', async () => {
  const { finished } = runTests({}, 'test/scripts/fixtures/stages.js');
  const { code, lines } = await finished;
  assert.match(lines.find((line) => line.startsWith('browsers')) ?? '', /0 passed, 1 failed\s+not run: needs build/);
  assert.match(lines.find((line) => line.startsWith('lint')) ?? '', /1 passed, 0 failed/);
  assert.equal(lines.at(-1), '1 passed, 2 failed');
  assert.equal(code, 1);
});

it("counts the node tests' own passes and failures in its closing line, exiting 1", async () => {
  const { finished } = runTests({
    QB_STAGES: 'node',
    QB_NODE_TESTS: 'test/scripts/fixtures/passes-and-fails.js',
  });
  const { code, lines } = await finished;
  assert.equal(lines.at(-1), '1 passed, 1 failed');
  assert.equal(code, 1);
});

it('counts a test runner that fails outside its tests (a file that is not there) as one failure', async () => {
  const { finished } = runTests({ QB_STAGES: 'node', QB_NODE_TESTS: 'test/scripts/fixtures/no-such-file.js' });
  const { code, lines } = await finished;
  assert.equal(lines.at(-1), '0 passed, 1 failed');
  assert.equal(code, 1);
});

it(
  'stops the running stage and what it started on SIGINT, then prints its closing line and exits 130',
  { timeout: 300_000 },
  async () => {
    const calledBack = createServer();
    calledBack.listen(0, '127.0.0.1');
    await once(calledBack, 'listening');
    const { child, finished } = runTests({
      QB_STAGES: 'node',
      QB_NODE_TESTS: 'test/scripts/fixtures/starts-a-server.js',
      QB_FIXTURE_PORT: String(/** @type {import('node:net').AddressInfo} */ (calledBack.address()).port),
    });
    const [leftBehind] = await once(calledBack, 'connection');
    const gone = once(leftBehind, 'close');
    leftBehind.resume();
    child.kill('SIGINT');
    const { code, lines } = await finished;
    await gone; // the process the fixture started is no more: its connection closed
    calledBack.close();
    const [, , failed] = CLOSING_LINE.exec(/** @type {string} */ (lines.at(-1))) ?? [];
    assert.ok(Number(failed) >= 1, /** @type {string} */ (lines.at(-1)));
    assert.equal(code, 130);
  },
);
