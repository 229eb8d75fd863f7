// `npm run start:shared` (scripts/demo-shared.js) settles its port before the
// minutes of seeding: a QUESTBOARD_PORT that is taken or not a port is said
// at once, in one line, without a stack, and nothing is seeded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the script with QUESTBOARD_PORT set; its exit code and what it wrote.
 * @param {string} port
 */
async function startShared(port) {
  const child = spawn(process.execPath, ['scripts/demo-shared.js'], {
    cwd: root,
    env: { ...process.env, QUESTBOARD_PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const bound = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = await once(child, 'close');
  clearTimeout(bound);
  return { code, stdout, stderr };
}

/** @type {import('node:net').Server} */
let occupant;
before(async () => {
  occupant = createServer();
  await /** @type {Promise<void>} */ (new Promise((resolve) => occupant.listen({ host: '127.0.0.1', port: 0 }, resolve)));
});
after(() => new Promise((resolve) => occupant.close(resolve)));

it('says at once which port is taken and how to choose another', async () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (occupant.address());
  const result = await startShared(String(port));
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.equal(
    result.stderr,
    `start:shared: port ${port} (QUESTBOARD_PORT) is taken: choose another, ` +
      'e.g. QUESTBOARD_PORT=8788 npm run start:shared, or 0 for any free one.\n',
  );
});

it('says a QUESTBOARD_PORT that is not a port number', async () => {
  const result = await startShared('eighty');
  assert.equal(result.code, 1);
  assert.equal(result.stderr, 'start:shared: QUESTBOARD_PORT must be a port number from 0 to 65535, got "eighty".\n');
});
