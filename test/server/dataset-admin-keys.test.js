// A server's admin keys come from its operator alone: a dataset that lists admin_keys never
// makes one, neither through POST /v1/admin/import nor through --data, on any process of
// the PostgreSQL database the server shares.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { postgresOrSkip } from '../postgres-or-skip.js';
import { runServer, startServer } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */

const OPERATOR_KEY = 'sk_operator_0123456789abcdef';
const DATASET_KEY = 'sk_dataset_0123456789abcdef';
const APP = { app_id: 'guild', api_keys: [{ key: 'pk_guild_0123456789', scopes: ['read'] }] };

/**
 * @param {RunningServer} server
 * @param {string} method
 * @param {string} path
 * @param {string} key
 * @param {unknown} [body]
 */
const call = async (server, method, path, key, body) => {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};
/**
 * @param {RunningServer} server
 * @param {string} key
 */
const exportWith = (server, key) => call(server, 'GET', '/v1/admin/export?app_id=guild', key);

describe('admin keys come from the operator, never from a dataset', () => {
  /** @type {string} */
  let directory;
  /** @type {Awaited<ReturnType<typeof createDatabase>>[]} */
  const databases = [];
  /** @type {RunningServer[]} */
  const servers = [];
  const database = async () => {
    const created = await createDatabase('questboard_admin_keys');
    databases.push(created);
    return created.url;
  };
  /**
   * @param {string[]} args
   * @param {Record<string, string>} [env]
   */
  const start = async (args, env = {}) => {
    const server = await startServer(args, { env });
    servers.push(server);
    return server;
  };
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'questboard-admin-keys-'));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (await postgresAnswers()) await Promise.all(databases.map((created) => created.drop()));
    await rm(directory, { recursive: true, force: true });
  });

  it('refuses an import listing admin_keys, and its key opens neither process of the database', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const url = await database();
    const env = { QUESTBOARD_ADMIN_KEYS: OPERATOR_KEY };
    const first = await start(['--database-url', url], env);
    const second = await start(['--database-url', url], env);

    const refused = await call(first, 'POST', '/v1/admin/import', OPERATOR_KEY, { admin_keys: [DATASET_KEY], apps: [APP] });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.deepEqual(refused.body, {
      is_valid: false,
      message:
        'admin_keys: this server takes its admin keys only from its operator ' +
        '(QUESTBOARD_ADMIN_KEYS or --admin-keys-file); leave them out of the dataset.',
    });
    const imported = await call(first, 'POST', '/v1/admin/import', OPERATOR_KEY, { apps: [APP] });
    assert.equal(imported.status, 200, JSON.stringify(imported.body));

    for (const server of [first, second]) {
      assert.equal((await exportWith(server, DATASET_KEY)).status, 401);
      assert.equal((await exportWith(server, OPERATOR_KEY)).status, 200);
    }
  });

  it('refuses to load with --data a dataset listing admin_keys, or one no key of the operator may import', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const url = await database();
    const withKeys = join(directory, 'with-admin-keys.json');
    await writeFile(withKeys, JSON.stringify({ admin_keys: [DATASET_KEY], apps: [APP] }));

    // Run by the dataset's own key, as a server could be before: it does not start.
    const byDatasetKey = await runServer(['--memory', '--data', withKeys]);
    assert.equal(byDatasetKey.code, 1);
    assert.match(byDatasetKey.stderr, /--data needs an admin key to import .* QUESTBOARD_ADMIN_KEYS or --admin-keys-file/);
    // With the operator's key, the dataset's is refused, and nothing is imported.
    const withOperatorKey = await runServer(['--database-url', url, '--data', withKeys], {
      env: { QUESTBOARD_ADMIN_KEYS: OPERATOR_KEY },
    });
    assert.equal(withOperatorKey.code, 1);
    assert.match(withOperatorKey.stderr, /failed with 400: admin_keys: this server takes its admin keys only from its operator/);

    // Another process on the database: the dataset's key opens nothing there either.
    const other = await start(['--database-url', url], { QUESTBOARD_ADMIN_KEYS: OPERATOR_KEY });
    assert.equal((await exportWith(other, DATASET_KEY)).status, 401);
    assert.equal((await exportWith(other, OPERATOR_KEY)).status, 404, 'no app was imported');

    // The same dataset without admin_keys loads, imported with the operator's key.
    const withoutKeys = join(directory, 'without-admin-keys.json');
    await writeFile(withoutKeys, JSON.stringify({ apps: [APP] }));
    const loaded = await start(['--database-url', url, '--data', withoutKeys], { QUESTBOARD_ADMIN_KEYS: OPERATOR_KEY });
    assert.equal((await exportWith(loaded, OPERATOR_KEY)).status, 200);
    assert.equal((await exportWith(other, OPERATOR_KEY)).status, 200);
    assert.equal((await exportWith(other, DATASET_KEY)).status, 401);
  });
});
