// The server's write limits (src/handler/rate-limits.ts over src/store/sql/rate-counters.ts),
// through the handler itself with a pinned clock, on PGlite and on PostgreSQL: a write past a
// limit is answered 429 with Retry-After, and fits again exactly when Retry-After says; the
// defaults, an app's own limits and a limit turned off; a refused write changes nothing; a
// write refused for another reason is not counted. The handler reads ahead as the server's does
// (src/handler/read-ahead.ts), so a key's writes after its first are counted ahead, with its key's
// read: each of these holds for them too. And the client's address as the host takes it
// (src/server/client-address.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createDatabase, postgresAnswers } from '../../scripts/postgres.js';
import { skipWithoutPostgres } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';

const ADMIN = 'sk_limits_admin_key';
const KEY = 'pk_limits';
/** A page's key: it writes only as the member its token names. */
const MEMBER_KEY = 'pk_limits_member';
const KID = 'limits-1';
/** The start of a minute: every default window starts here. */
const START = Date.UTC(2026, 0, 5, 12, 0, 0);

/**
 * @type {typeof import('../../src/handler/handler.js') & typeof import('../../src/handler/rate-limits.js') &
 *   typeof import('../../src/handler/read-ahead.js') & typeof import('../../src/store/sql/index.js') &
 *   typeof import('../../src/server/client-address.js')}
 */
let source;
before(async () => {
  source = await importSource(
    'src/handler/handler.ts',
    'src/handler/rate-limits.ts',
    'src/handler/read-ahead.ts',
    'src/store/sql/index.ts',
    'src/server/client-address.ts',
  );
});

/**
 * A handler over the store with the server's limiter and a clock the test moves.
 * @param {import('../../src/store/sql/index.js').SqlStoreOptions} storeOptions
 */
async function limitedServer(storeOptions) {
  const store = await source.openSqlStore(storeOptions);
  const clock = { now: START };
  const now = () => new Date(clock.now);
  const limiter = source.createRateLimiter(source.sqlRateCounters);
  const handle = source.createHandler({ store, now, limiter, readAhead: source.createReadAhead(now, limiter) });
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  /**
   * A member token for `sub`, issued now by the handler's clock.
   * @param {string} sub
   */
  const tokenFor = (sub) => {
    const iat = Math.floor(clock.now / 1000);
    return new SignJWT({ app_id: 'guild' })
      .setProtectedHeader({ alg: 'ES256', kid: KID })
      .setSubject(sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .sign(privateKey);
  };
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ key?: string, body?: unknown, address?: string, token?: string }} [options]
   */
  const call = async (method, path, { key = KEY, body, address = '203.0.113.7', token } = {}) => {
    const request = new Request(`http://q.test${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(token === undefined ? {} : { 'x-questboard-member': token }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await handle(request, { clientAddress: address });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  };
  let endorsements = 0;
  /** @param {{ key?: string, address?: string }} [options] */
  const endorse = (options = {}) =>
    call('POST', '/v1/endorse_account', {
      ...options,
      body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: `e${++endorsements}` },
    });
  /**
   * @param {string} member
   * @param {string} to_account
   * @param {string} address
   */
  const endorseAsMember = async (member, to_account, address) =>
    call('POST', '/v1/endorse_account', {
      key: MEMBER_KEY,
      token: await tokenFor(member),
      address,
      body: { app_id: 'guild', to_account, endorsement_id: `e${++endorsements}` },
    });
  /** @param {Record<string, { writes: number, window_seconds: number } | null> | null} rate_limits */
  const setLimits = async (rate_limits) => {
    const answer = await call('POST', '/v1/admin/import', {
      key: ADMIN,
      body: { apps: [{ app_id: 'guild', settings: { rate_limits } }] },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  };
  const exported = async () => (await call('GET', '/v1/admin/export?app_id=guild', { key: ADMIN })).body;
  const imported = await call('POST', '/v1/admin/import', {
    key: ADMIN,
    body: {
      admin_keys: [ADMIN],
      apps: [
        {
          app_id: 'guild',
          api_keys: [
            { key: KEY, scopes: ['read', 'write'] },
            { key: MEMBER_KEY, scopes: ['read', 'member'] },
          ],
          settings: { member_token_keys: [{ ...(await exportJWK(publicKey)), kid: KID }] },
          users: [{ account_name: 'alice' }, { account_name: 'bob' }],
        },
      ],
    },
  });
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  return { clock, call, endorse, endorseAsMember, setLimits, exported, close: () => store.close() };
}

/** @type {Record<string, () => Promise<{ options: import('../../src/store/sql/index.js').SqlStoreOptions, drop: () => Promise<void> }>>} */
const engines = {
  pglite: async () => ({ options: { memory: true }, drop: async () => {} }),
  postgres: async () => {
    const database = await createDatabase('questboard_limits');
    return { options: { databaseUrl: database.url }, drop: () => database.drop() };
  },
};

for (const [engine, open] of Object.entries(engines)) {
  describe(`write limits on ${engine}`, () => {
    /** @type {Awaited<ReturnType<typeof limitedServer>>} */
    let server;
    /** @type {Awaited<ReturnType<typeof open>> | undefined} */
    let database;
    let skip = false;
    before(async () => {
      if (engine === 'postgres' && !(await postgresAnswers())) {
        skip = true;
        return;
      }
      database = await open();
      server = await limitedServer(database.options);
    });
    after(async () => {
      await server?.close();
      await database?.drop();
    });
    /**
     * @param {string} name
     * @param {(s: Awaited<ReturnType<typeof limitedServer>>) => Promise<void>} body
     */
    const test = (name, body) =>
      it(name, async (t) => {
        if (skip) return skipWithoutPostgres(t);
        // Each test starts on a day of its own, so no window of another test is still open.
        server.clock.now = START + 86_400_000 * test.day++;
        await body(server);
      });
    test.day = 0;

    test("counts a member's writes against the member, from whatever address they come", async (s) => {
      await s.setLimits({ per_key: null, per_ip: null, per_member: { writes: 2, window_seconds: 60 } });
      assert.equal((await s.endorseAsMember('alice', 'bob', '203.0.113.1')).status, 200);
      assert.equal((await s.endorseAsMember('alice', 'bob', '203.0.113.2')).status, 200);
      const refused = await s.endorseAsMember('alice', 'bob', '203.0.113.3');
      assert.equal(refused.status, 429);
      assert.match(refused.body.message, /^Too many writes by the member 'alice': at most 2 every 60 s\./);
      assert.equal((await s.endorseAsMember('bob', 'alice', '203.0.113.3')).status, 200);
    });

    test('answers 429 with Retry-After past a limit, and takes the write again exactly when it says', async (s) => {
      await s.setLimits({ per_key: { writes: 3, window_seconds: 60 } });
      for (let i = 0; i < 3; i++) assert.equal((await s.endorse()).status, 200);
      const refused = await s.endorse();
      assert.equal(refused.status, 429);
      // Three in this minute: the next fits once a third of the next minute has passed, when
      // this minute weighs two thirds (2 + 1 ≤ 3): 80 s from the start.
      assert.equal(refused.retryAfter, '80');
      assert.deepEqual(refused.body, {
        is_valid: false,
        message: 'Too many writes with this API key: at most 3 every 60 s. Try again in 80 s.',
      });
      const start = s.clock.now;
      s.clock.now = start + 79_000;
      const early = await s.endorse();
      assert.equal(early.status, 429);
      assert.equal(early.retryAfter, '1');
      s.clock.now = start + 80_000;
      assert.equal((await s.endorse()).status, 200);
      // The window slides: the next write waits for more of the old minute to pass.
      const next = await s.endorse();
      assert.equal(next.status, 429);
      assert.equal(next.retryAfter, '20');
      s.clock.now = start + 100_000;
      assert.equal((await s.endorse()).status, 200);
    });

    test('lets no burst of twice the limit straddle the edge of a window', async (s) => {
      await s.setLimits({ per_key: { writes: 4, window_seconds: 60 } });
      s.clock.now += 59_000;
      for (let i = 0; i < 4; i++) assert.equal((await s.endorse()).status, 200);
      s.clock.now += 2_000;
      assert.equal((await s.endorse()).status, 429);
    });

    test('counts each client address on its own, and the key over all of them', async (s) => {
      await s.setLimits({ per_key: { writes: 5, window_seconds: 3600 }, per_ip: { writes: 2, window_seconds: 3600 } });
      assert.equal((await s.endorse({ address: '198.51.100.1' })).status, 200);
      assert.equal((await s.endorse({ address: '198.51.100.1' })).status, 200);
      const refused = await s.endorse({ address: '198.51.100.1' });
      assert.equal(refused.status, 429);
      assert.match(refused.body.message, /^Too many writes from the address 198\.51\.100\.1: at most 2 every 3600 s\. /);
      assert.equal((await s.endorse({ address: '198.51.100.2' })).status, 200);
      assert.equal((await s.endorse({ address: '198.51.100.2' })).status, 200);
      // An address refused at its own limit used none of the key's: three more fit the key's five.
      assert.equal((await s.endorse({ address: '198.51.100.3' })).status, 200);
      const overKey = await s.endorse({ address: '198.51.100.4' });
      assert.equal(overKey.status, 429);
      assert.match(overKey.body.message, /^Too many writes with this API key: at most 5 every 3600 s\./);
    });

    test('applies the defaults to an app without limits of its own, and an app may turn one off', async (s) => {
      await s.setLimits(null);
      const { per_ip } = source.DEFAULT_RATE_LIMITS;
      for (let i = 0; i < per_ip.writes; i++) assert.equal((await s.endorse()).status, 200, `write ${i + 1}`);
      const refused = await s.endorse();
      assert.equal(refused.status, 429);
      assert.match(refused.body.message, new RegExp(`at most ${per_ip.writes} every ${per_ip.window_seconds} s`));
      await s.setLimits({ per_ip: null });
      assert.equal((await s.endorse()).status, 200);
    });

    test('counts a write ahead by the limits its key was last limited by, and anew when they changed since', async (s) => {
      await s.setLimits({ per_key: { writes: 3, window_seconds: 3600 } });
      for (let i = 0; i < 3; i++) assert.equal((await s.endorse()).status, 200, `write ${i + 1}`);
      assert.equal((await s.endorse()).status, 429);
      // Counted ahead by the limit of 3 the key's last write was limited by, the next would be refused.
      await s.setLimits({ per_key: { writes: 5, window_seconds: 3600 } });
      assert.equal((await s.endorse()).status, 200, 'counted by the new limit');
      assert.equal((await s.endorse()).status, 200, 'counted once');
      assert.equal((await s.endorse()).status, 429);
      await s.setLimits({ per_key: { writes: 10, window_seconds: 3600 } });
      assert.equal((await s.endorse()).status, 200, 'the 6th write, by a limit of 10');
      // Lowered: counted ahead by the limit of 10, the 7th would be taken.
      await s.setLimits({ per_key: { writes: 6, window_seconds: 3600 } });
      assert.equal((await s.endorse()).status, 429, 'counted by the lowered limit');
    });

    test('changes nothing for a refused write: the export is the same', async (s) => {
      await s.setLimits({ per_key: { writes: 1, window_seconds: 3600 } });
      assert.equal((await s.endorse()).status, 200);
      const before = await s.exported();
      const refused = await s.call('POST', '/v1/connect_social', {
        body: { app_id: 'guild', account_name: 'carol', twitter_name: 'carol_x' },
      });
      assert.equal(refused.status, 429);
      assert.equal((await s.endorse()).status, 429);
      assert.deepEqual(await s.exported(), before);
    });

    test('does not count a write refused for another reason: a bad key, a bad body', async (s) => {
      await s.setLimits({ per_key: { writes: 2, window_seconds: 3600 }, per_ip: { writes: 2, window_seconds: 3600 } });
      for (let i = 0; i < 5; i++) assert.equal((await s.endorse({ key: 'pk_unknown' })).status, 401);
      for (let i = 0; i < 5; i++) {
        const invalid = await s.call('POST', '/v1/endorse_account', { body: { app_id: 'guild', from_account: 'alice' } });
        assert.equal(invalid.status, 400);
      }
      assert.equal((await s.endorse()).status, 200);
      assert.equal((await s.endorse()).status, 200);
      assert.equal((await s.endorse()).status, 429);
    });

    test('does not limit reads, nor the installation admin keys', async (s) => {
      await s.setLimits({ per_key: { writes: 1, window_seconds: 3600 }, per_ip: { writes: 1, window_seconds: 3600 } });
      assert.equal((await s.endorse()).status, 200);
      assert.equal((await s.endorse()).status, 429);
      for (let i = 0; i < 3; i++) {
        assert.equal((await s.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob')).status, 200);
        const endorsed = await s.call('POST', '/v1/endorse_account', {
          key: ADMIN,
          body: { app_id: 'guild', from_account: 'bob', to_account: 'alice', endorsement_id: `admin-${i}` },
        });
        assert.equal(endorsed.status, 200);
      }
    });
  });
}

describe("the client's address", () => {
  /** @param {Parameters<typeof source.clientAddressOf>} args */
  const addressOf = (...args) => source.clientAddressOf(...args);

  it('is the socket address without --trust-proxy, whatever X-Forwarded-For says', () => {
    assert.equal(addressOf('192.0.2.10', '198.51.100.9', false), '192.0.2.10');
  });

  it("is the last X-Forwarded-For entry with --trust-proxy: the proxy's own, never the client's", () => {
    assert.equal(addressOf('10.0.0.2', '198.51.100.66, 203.0.113.5', true), '203.0.113.5');
    assert.equal(addressOf('10.0.0.2', ['198.51.100.66', '203.0.113.5'], true), '203.0.113.5');
    assert.equal(addressOf('10.0.0.2', 'not-an-address', true), '10.0.0.2');
    assert.equal(addressOf('10.0.0.2', undefined, true), '10.0.0.2');
  });

  it('counts IPv4 mapped into IPv6 as IPv4, and IPv6 by its /64', () => {
    assert.equal(addressOf('::ffff:192.0.2.10', undefined, false), '192.0.2.10');
    assert.equal(addressOf('2001:db8:0:12:aaaa::1', undefined, false), '2001:db8:0:12::/64');
    assert.equal(addressOf('2001:0db8::1', undefined, false), '2001:db8:0:0::/64');
    assert.equal(addressOf('::1', undefined, false), '0:0:0:0::/64');
  });
});
