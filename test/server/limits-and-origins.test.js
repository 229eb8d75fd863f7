// The server's write limits and allowed origins as a site meets them, on `node scripts/serve.js`:
// limits shared by two processes on one PostgreSQL database; X-Forwarded-For believed only with
// --trust-proxy; an app's allowed_origins refusing and allowing browser requests, the preflight,
// and the fall back to --cors-origin for an app without a list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { skipWithoutPostgres } from '../postgres-or-skip.js';
import { startServer } from './reference-server.js';

/** @import { Dataset } from '../../src/api/schemas.js' */
/** @import { RunningServer } from './reference-server.js' */

const DATASET = 'test/remote/remote-dataset.json';
const KEY = 'pk_guild';
const ADMIN = 'sk_remote_admin';

/**
 * The API as a site's page calls it on `server`; answers' bodies are any JSON (`any`: each test
 * reads the fields its operation answers).
 * @param {RunningServer} server
 */
function client(server) {
  let endorsements = 0;
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, body?: unknown, headers?: Record<string, string> }} [options]
   */
  const call = async (method, path, { key = KEY, body, headers = {} } = {}) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
  };
  return {
    call,
    /** @param {Record<string, string>} [headers] */
    endorse: (headers = {}) =>
      call('POST', '/v1/endorse_account', {
        headers,
        body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: `${server.port}-${++endorsements}` },
      }),
    /**
     * Merges settings into the app, as its operator would: with the installation admin key, from no browser.
     * @param {NonNullable<Dataset['apps']>[number]['settings']} settings
     */
    async settle(settings) {
      const answer = await call('POST', '/v1/admin/import', { key: ADMIN, body: { apps: [{ app_id: 'guild', settings }] } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    },
    /** @returns {Promise<Dataset>} */
    exported: async () => (await call('GET', '/v1/admin/export?app_id=guild', { key: ADMIN })).body,
  };
}

describe('write limits shared by two server processes on one PostgreSQL database', () => {
  /** @type {Awaited<ReturnType<typeof createDatabase>> | undefined} */
  let database;
  /** @type {RunningServer[]} */
  const servers = [];
  before(async () => {
    if (!(await postgresAnswers())) return;
    database = await createDatabase('questboard_limits_shared');
    servers.push(await startServer(['--database-url', database.url, '--data', DATASET, '--allow-bootstrap']));
    servers.push(await startServer(['--database-url', database.url]));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  it('admits exactly the limit across both, however the writes are split, and refuses the rest on both', async (t) => {
    if (!database) return skipWithoutPostgres(t);
    const [first, second] = servers.map(client);
    // An hour's window: the test never meets its edge, wherever in the hour it runs.
    await first.settle({ rate_limits: { per_key: { writes: 5, window_seconds: 3600 }, per_ip: null } });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 ? first : second).endorse()));
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 200).length, 5, JSON.stringify(statuses));
    assert.equal(statuses.filter((status) => status === 429).length, 7, JSON.stringify(statuses));
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      assert.match(refused.body.message, /^Too many writes with this API key: at most 5 every 3600 s\. Try again in \d+ s\.$/);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal(refused.headers.get('x-questboard-error'), 'too-many-writes');
    }
    assert.equal((await first.endorse()).status, 429);
    assert.equal((await second.endorse()).status, 429);
    // Only what was admitted was written.
    const kept = (await first.exported()).apps?.[0].endorsements?.filter((e) => e.to_account === 'bob');
    assert.equal(kept?.length, 5);
  });
});

describe('the client address and X-Forwarded-For', () => {
  const limits = { rate_limits: { per_key: null, per_ip: { writes: 2, window_seconds: 3600 } } };

  it('ignores X-Forwarded-For without --trust-proxy: every write counts against the socket address', async () => {
    const server = await startServer(['--allow-bootstrap', '--data', DATASET]);
    try {
      const guild = client(server);
      await guild.settle(limits);
      assert.equal((await guild.endorse({ 'x-forwarded-for': '198.51.100.1' })).status, 200);
      assert.equal((await guild.endorse({ 'x-forwarded-for': '198.51.100.2' })).status, 200);
      const refused = await guild.endorse({ 'x-forwarded-for': '198.51.100.3' });
      assert.equal(refused.status, 429);
      assert.match(refused.body.message, /^Too many writes from the address 127\.0\.0\.1: at most 2 every 3600 s\./);
    } finally {
      await server.stop();
    }
  });

  it('counts the last X-Forwarded-For entry with --trust-proxy, the one the proxy appended', async () => {
    const server = await startServer(['--allow-bootstrap', '--data', DATASET, '--trust-proxy']);
    try {
      const guild = client(server);
      await guild.settle(limits);
      for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        assert.equal((await guild.endorse({ 'x-forwarded-for': address })).status, 200);
      }
      // What a client wrote before the proxy's entry is not believed.
      assert.equal((await guild.endorse({ 'x-forwarded-for': '192.0.2.50, 198.51.100.1' })).status, 200);
      const refused = await guild.endorse({ 'x-forwarded-for': '192.0.2.51, 198.51.100.1' });
      assert.equal(refused.status, 429);
      assert.match(refused.body.message, /^Too many writes from the address 198\.51\.100\.1:/);
    } finally {
      await server.stop();
    }
  });
});

describe("an app's allowed origins, and --cors-origin for an app without them", () => {
  const APP_ORIGIN = 'https://forum.example.org';
  const SERVER_ORIGIN = 'https://fallback.example.org';
  const OTHER = 'https://elsewhere.example';
  /** @type {RunningServer} */
  let server;
  /** @type {ReturnType<typeof client>} */
  let guild;
  before(async () => {
    server = await startServer(['--allow-bootstrap', '--data', DATASET, '--cors-origin', SERVER_ORIGIN]);
    guild = client(server);
  });
  after(() => server?.stop());

  /** @param {string} origin */
  const preflight = (origin) =>
    fetch(`http://127.0.0.1:${server.port}/v1/endorse_account`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });

  it('takes a browser request from an allowed origin, and says so in Access-Control-Allow-Origin', async () => {
    await guild.settle({ allowed_origins: [APP_ORIGIN] });
    const endorsed = await guild.endorse({ origin: APP_ORIGIN });
    assert.equal(endorsed.status, 200);
    assert.equal(endorsed.headers.get('access-control-allow-origin'), APP_ORIGIN);
    assert.equal(endorsed.headers.get('vary'), 'Origin');
    assert.match(endorsed.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
    assert.match(endorsed.headers.get('access-control-expose-headers') ?? '', /X-Questboard-Error/);
    const read = await guild.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob', { headers: { origin: APP_ORIGIN } });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('access-control-allow-origin'), APP_ORIGIN);
  });

  it("refuses other origins with 403, the server's own included, without changing anything or allowing the page to read it", async () => {
    await guild.settle({ allowed_origins: [APP_ORIGIN] });
    const before = await guild.exported();
    for (const origin of [OTHER, SERVER_ORIGIN]) {
      const refused = await guild.endorse({ origin });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, {
        is_valid: false,
        message: `Not allowed: pages at ${origin} may not call this API; the origin is not among the allowed_origins of this API key's app.`,
      });
      assert.equal(refused.headers.get('x-questboard-error'), 'origin-not-allowed');
      assert.equal(refused.headers.get('access-control-allow-origin'), null);
      const read = await guild.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob', { headers: { origin } });
      assert.equal(read.status, 403);
    }
    assert.deepEqual(await guild.exported(), before);
  });

  it('takes requests without an Origin (from servers) whatever the list', async () => {
    await guild.settle({ allowed_origins: [] });
    assert.equal((await guild.endorse()).status, 200);
    assert.equal((await guild.endorse({ origin: APP_ORIGIN })).status, 403);
  });

  it('lets any origin preflight, since a preflight names no key; the request that follows is what is checked', async () => {
    await guild.settle({ allowed_origins: [APP_ORIGIN] });
    for (const origin of [APP_ORIGIN, OTHER]) {
      const answer = await preflight(origin);
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get('access-control-allow-origin'), origin);
      assert.equal(answer.headers.get('vary'), 'Origin');
      assert.match(/** @type {string} */ (answer.headers.get('access-control-allow-headers')), /Authorization/);
      assert.match(/** @type {string} */ (answer.headers.get('access-control-allow-methods')), /POST/);
    }
    assert.equal((await guild.endorse({ origin: OTHER })).status, 403);
  });

  it('falls back to --cors-origin for an app without allowed_origins', async () => {
    await guild.settle({ allowed_origins: null });
    const allowed = await guild.endorse({ origin: SERVER_ORIGIN });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), SERVER_ORIGIN);
    const refused = await guild.endorse({ origin: APP_ORIGIN });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /not among this server's --cors-origin\.$/);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    // The health check has no app and changes nothing: answered, readable by the server's origins only.
    const health = await guild.call('GET', '/v1/health', { headers: { origin: OTHER } });
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('access-control-allow-origin'), null);
  });

  it('refuses an allowed_origins entry that is not an origin as a browser sends it', async () => {
    const refused = await guild.call('POST', '/v1/admin/import', {
      key: ADMIN,
      body: { apps: [{ app_id: 'guild', settings: { allowed_origins: ['https://Forum.example.org/'] } }] },
    });
    assert.equal(refused.status, 400);
    assert.equal(
      refused.body.message,
      'apps.0.settings.allowed_origins.0: must be an origin as a browser sends it, scheme://host[:port], such as https://forum.example.org.',
    );
  });
});
