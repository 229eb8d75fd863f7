// The server's command line (src/server/options.ts): defaults, where the data
// lives and the options that conflict over it, keys from the environment, and
// every value it refuses, each refused with a UsageError (exit code 2).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { importSource } from '../source-module.js';

/** @type {typeof import('../../src/server/options.js').parseServeOptions} */
let parseServeOptions;
/** @type {typeof import('../../src/server/options.js').UsageError} */
let UsageError;
before(async () => {
  ({ parseServeOptions, UsageError } = await importSource('src/server/options.ts'));
});

/**
 * @param {string[]} argv
 * @param {RegExp} pattern
 * @param {Record<string, string>} [env]
 */
const refused = (argv, pattern, env = {}) =>
  assert.throws(
    () => parseServeOptions(argv, env),
    (error) => error instanceof UsageError && pattern.test(/** @type {Error} */ (error).message),
  );

describe('the server options', () => {
  it('default to loopback, port 8787, a data directory here, no bootstrap, 30 s, any origin, no proxy, 20 streams an address', () => {
    assert.deepEqual(parseServeOptions([]), {
      host: '127.0.0.1',
      port: 8787,
      storage: { dataDir: './questboard-data' },
      allowBootstrap: false,
      adminKeys: [],
      adminKeysFile: null,
      requestTimeoutMs: 30_000,
      logLevel: 'info',
      dataPath: null,
      corsOrigins: ['*'],
      trustProxy: false,
      failedAuthLimit: 100,
      streamLimits: { perAddress: 20, perKey: 1000 },
      streamBufferBytes: 262_144,
      allowPrivateWebhooks: false,
      help: false,
    });
  });

  it('read every option', () => {
    const options = parseServeOptions([
      ...['--host', '0.0.0.0', '--port', '0', '--data-dir', '/var/lib/questboard', '--allow-bootstrap'],
      ...['--admin-keys-file', '/run/secrets/keys', '--request-timeout-ms', '5000', '--log-level', 'warn'],
      ...['--data', 'seed.json', '--cors-origin', 'https://a.example, https://b.example', '--cors-origin', 'https://c.example'],
      ...['--trust-proxy', '--failed-auth-limit', '0', '--event-streams-per-address', '5', '--event-streams-per-key', '300'],
      ...['--event-stream-buffer-bytes', '65536', '--allow-private-webhooks'],
    ]);
    assert.deepEqual(options, {
      host: '0.0.0.0',
      port: 0,
      storage: { dataDir: '/var/lib/questboard' },
      allowBootstrap: true,
      adminKeys: [],
      adminKeysFile: '/run/secrets/keys',
      requestTimeoutMs: 5000,
      logLevel: 'warn',
      dataPath: 'seed.json',
      corsOrigins: ['https://a.example', 'https://b.example', 'https://c.example'],
      trustProxy: true,
      failedAuthLimit: 0,
      streamLimits: { perAddress: 5, perKey: 300 },
      streamBufferBytes: 65_536,
      allowPrivateWebhooks: true,
      help: false,
    });
  });

  it('take the database from --database-url, or from DATABASE_URL when no option says where the data lives', () => {
    const url = 'postgres://questboard:secret@db:5432/questboard';
    assert.deepEqual(parseServeOptions(['--database-url', url]).storage, { databaseUrl: url, connections: 4 });
    assert.deepEqual(parseServeOptions([], { DATABASE_URL: url }).storage, { databaseUrl: url, connections: 4 });
    assert.deepEqual(parseServeOptions(['--database-url', url], { DATABASE_URL: 'postgres://other/db' }).storage, {
      databaseUrl: url,
      connections: 4,
    });
    assert.deepEqual(parseServeOptions(['--memory'], { DATABASE_URL: url }).storage, { memory: true });
    assert.deepEqual(parseServeOptions(['--data-dir', 'here'], { DATABASE_URL: url }).storage, { dataDir: 'here' });
    assert.deepEqual(parseServeOptions([], { DATABASE_URL: '' }).storage, { dataDir: './questboard-data' });
  });

  it('keep as many connections to a PostgreSQL server as --database-connections says, and none to anything else', () => {
    const url = 'postgres://questboard:secret@db:5432/questboard';
    assert.deepEqual(parseServeOptions(['--database-url', url, '--database-connections', '12']).storage, {
      databaseUrl: url,
      connections: 12,
    });
    assert.deepEqual(parseServeOptions(['--database-connections=1'], { DATABASE_URL: url }).storage, {
      databaseUrl: url,
      connections: 1,
    });
    for (const count of ['0', '-2', '2.5', 'many', '', '1001']) {
      refused(
        ['--database-url', url, `--database-connections=${count}`],
        /^--database-connections must be a whole number from 1 to 1000/,
      );
    }
    for (const elsewhere of [['--memory'], ['--data-dir', 'here'], []]) {
      refused(
        [...elsewhere, '--database-connections', '8'],
        /^--database-connections needs a PostgreSQL server \(--database-url\)/,
      );
    }
  });

  it('refuse two options that each say where the data lives', () => {
    refused(['--memory', '--database-url', 'postgres://db/q'], /^--memory and --database-url each say where the data lives/);
    refused(['--data-dir', 'here', '--memory'], /^--memory and --data-dir each say/);
    refused(['--data-dir', 'here', '--database-url', 'postgres://db/q'], /^--data-dir and --database-url each say/);
  });

  it('refuse a --cors-origin that would match no request: a pattern, a path, a capital letter', () => {
    for (const origin of [
      'https://*.example.org',
      'https://forum.example.org/',
      'https://Forum.example.org',
      'forum.example.org',
    ]) {
      refused(
        ['--cors-origin', `https://a.example,${origin}`],
        new RegExp(`^--cors-origin takes origins .*"${origin.replace(/[.*/]/g, '\\$&')}" would match no request\\.$`),
      );
    }
    assert.deepEqual(parseServeOptions(['--cors-origin', '*']).corsOrigins, ['*']);
  });

  it('take the admin keys of QUESTBOARD_ADMIN_KEYS, comma-separated, without blanks', () => {
    const { adminKeys } = parseServeOptions([], { QUESTBOARD_ADMIN_KEYS: ' sk_first_0123456789 ,,sk_second_0123456789, ' });
    assert.deepEqual(adminKeys, ['sk_first_0123456789', 'sk_second_0123456789']);
  });

  it('refuse ports, timeouts and log levels out of range, empty values and unknown options', () => {
    for (const port of ['-1', '65536', '80.5', 'http', ''])
      refused([`--port=${port}`], /^--port must be a whole number from 0 to 65535/);
    for (const ms of ['0', '-5', '1e3x', ''])
      refused([`--request-timeout-ms=${ms}`], /^--request-timeout-ms must be a whole number from 1/);
    for (const option of ['--event-streams-per-address', '--event-streams-per-key'])
      for (const count of ['0', '2.5', 'many']) refused([option, count], new RegExp(`^${option} must be a whole number from 1`));
    refused(['--event-stream-buffer-bytes', '100'], /^--event-stream-buffer-bytes must be a whole number from 1024/);
    refused(['--log-level', 'verbose'], /^--log-level must be one of trace, debug, info, warn, error, fatal, silent/);
    for (const option of ['--host', '--data-dir', '--database-url', '--admin-keys-file', '--data']) {
      refused([option, ' '], new RegExp(`^${option} needs a value`));
    }
    refused(['--porrt', '1'], /Unknown option '--porrt'/);
    refused(['--port'], /--port/);
    refused(['--memory=yes'], /--memory/);
  });
});
