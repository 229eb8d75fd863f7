// What the server says when it cannot run: a command line it cannot take is
// exit code 2 with the usage; anything that stops it from starting is exit
// code 1 and one line on stderr naming what and why, never a stack trace,
// and never a password or a key.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { runServer } from './reference-server.js';

/**
 * Exit code 1 and exactly one line on stderr, which `pattern` matches.
 * @param {{ code: number | null, stderr: string }} ended
 * @param {RegExp} pattern
 */
function assertOneLine({ code, stderr }, pattern) {
  assert.equal(code, 1, stderr);
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${stderr}`);
  assert.match(lines[0], /^questboard-server: /);
  assert.match(lines[0], pattern);
}

describe('the server command line', () => {
  it('prints its usage for --help and exits with 0', async () => {
    const { code, stdout } = await runServer(['--help']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: questboard-server \[options\]/);
    const options = ['--host', '--data-dir', '--database-url', '--memory', '--allow-bootstrap', '--admin-keys-file'];
    for (const option of [...options, '--cors-origin', '--trust-proxy']) {
      assert.match(stdout, new RegExp(`^  ${option} `, 'm'));
    }
    assert.match(stdout, /settings\.rate_limits; by default 600 writes every 60 s per key/);
  });

  it('refuses conflicting options with the reason and the usage, exit code 2', async () => {
    const { code, stderr } = await runServer(['--memory', '--database-url', 'postgres://db/questboard']);
    assert.equal(code, 2);
    assert.match(
      stderr,
      /^questboard-server: --memory and --database-url each say where the data lives: give one of them\.\nUsage: /,
    );
  });

  it('refuses an unknown option with exit code 2', async () => {
    const { code, stderr } = await runServer(['--memroy']);
    assert.equal(code, 2);
    assert.match(stderr, /Unknown option '--memroy'/);
  });
});

// On a free port (0), so that another process on 8787 does not decide what a test sees.
describe('a server that cannot start', () => {
  /** @type {string} */
  let directory;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'questboard-startup-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it('says a malformed DATABASE_URL is malformed, without repeating it', async () => {
    const result = await runServer(['--port', '0'], {
      env: { DATABASE_URL: 'postgres://questboard:s3cret@db:99999/questboard' },
    });
    assertOneLine(
      result,
      /cannot open the database: its URL is malformed: write it as postgres:\/\/user:password@host:5432\/database$/,
    );
    assert.doesNotMatch(result.stderr, /s3cret/);
  });

  it('says a database URL must be PostgreSQL’s', async () => {
    const result = await runServer(['--port', '0', '--database-url', 'mysql://questboard:s3cret@db/questboard']);
    assertOneLine(
      result,
      /cannot open the database mysql:\/\/questboard:\*\*\*@db\/questboard: its URL must start with postgres:\/\//,
    );
    assert.doesNotMatch(result.stderr, /s3cret/);
  });

  it('names a data directory it cannot write in', async () => {
    const file = join(directory, 'a-file');
    await writeFile(file, '');
    assertOneLine(
      await runServer(['--port', '0', '--data-dir', join(file, 'data')]),
      /cannot open the data directory .*a-file\/data: ENOTDIR/,
    );
  });

  it('names an admin keys file it cannot read', async () => {
    const missing = join(directory, 'missing-keys');
    assertOneLine(
      await runServer(['--memory', '--admin-keys-file', missing]),
      /cannot read the admin keys file: ENOENT.*missing-keys/,
    );
  });

  it('refuses an admin key short enough to guess, naming where it was given and not the key', async () => {
    const result = await runServer(['--memory'], { env: { QUESTBOARD_ADMIN_KEYS: 'sk_long_enough_0123456789,letmein' } });
    assertOneLine(result, /QUESTBOARD_ADMIN_KEYS key 2: an admin key needs at least 16 characters, this one has 7/);
    assert.doesNotMatch(result.stderr, /letmein/);
  });

  it('refuses a dataset whose app key is an admin key of the operator', async () => {
    const dataset = join(directory, 'dataset.json');
    const appKey = 'pk_guild_0123456789abcdef';
    await writeFile(dataset, JSON.stringify({ apps: [{ app_id: 'guild', api_keys: [{ key: appKey, scopes: ['read'] }] }] }));
    const keys = join(directory, 'keys');
    await writeFile(keys, `# installation admin keys\n\nsk_installation_0123456789\n${appKey}\n`);
    const result = await runServer(['--memory', '--port', '0', '--data', dataset, '--admin-keys-file', keys]);
    assertOneLine(
      result,
      /importing .*dataset\.json failed with 409: apps\[0\]\.api_keys\[0\]\.key: this key is not available\.$/,
    );
  });

  it('names a port in use and how to choose another, before it opens the store or loads a dataset', async () => {
    // Held by this process: what matters is that the port is taken, not by whom.
    const holder = createServer();
    await /** @type {Promise<void>} */ (new Promise((resolve) => holder.listen({ host: '127.0.0.1', port: 0 }, resolve)));
    const { port } = /** @type {import('node:net').AddressInfo} */ (holder.address());
    const dataDir = join(directory, 'never-made');
    try {
      assertOneLine(
        await runServer(['--data-dir', dataDir, '--data', 'examples/community.json', '--port', String(port)]),
        new RegExp(
          `cannot listen on 127\\.0\\.0\\.1 port ${port}: another process uses it \\(EADDRINUSE\\); ` +
            'give another with --port PORT, or --port 0 for a free one$',
        ),
      );
      await assert.rejects(access(dataDir), { code: 'ENOENT' });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('the first start on a new data directory', () => {
  const ADMIN_KEY = 'sk_operator_0123456789abcdef';
  /** @type {string} */
  let dataDir;
  before(async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'questboard-first-start-')), 'data');
  });
  after(() => rm(dirname(dataDir), { recursive: true, force: true }));

  /**
   * Starts a server on the directory, stops it once it listens, and gives the messages it logged.
   * Not startServer: creating a PGlite database alone may take longer than its 20 s on a busy machine.
   */
  const startOn = async () => {
    const child = spawn(
      process.execPath,
      ['scripts/serve.js', '--port', '0', '--data-dir', dataDir, '--data', 'examples/community.json'],
      { env: { ...process.env, QUESTBOARD_ADMIN_KEYS: ADMIN_KEY }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const closed = once(child, 'close');
    const said = [];
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        said.push(JSON.parse(line).msg);
        if (/listening on/.test(line)) break;
      }
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    return said;
  };

  it(
    'says it creates the database, when it is ready, and when the dataset is loaded, with the time each took',
    { timeout: 300_000 },
    async () => {
      const said = await startOn();
      const where = `the data directory ${resolve(dataDir)}`;
      assert.equal(said[0], `creating a new database in ${where}: the first start takes up to a minute`);
      assert.match(said[1], /^the database is ready, created in \d+\.\d s$/);
      assert.equal(said[2], '--data examples/community.json: loading it, if the store holds no app');
      assert.match(said[3], /^--data examples\/community\.json: loaded in \d+\.\d s$/);
      assert.match(said[4], /listening on/);
      const again = await startOn();
      assert.equal(again.filter((line) => /database/.test(line)).length, 0, again.join('\n'));
      assert.match(again[1], /not loaded, as the store holds data already/);
    },
  );
});
