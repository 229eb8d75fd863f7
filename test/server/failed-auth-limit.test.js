// Failed authentication counts against the client's address: 300 wrong keys, or 300 member
// tokens whose signature does not verify, from one address are answered 429 with Retry-After
// once over the limit, for every key it sends, while other addresses are answered as before.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startServer } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */

const ADMIN = 'sk_admin_0123456789abcdef';
const LIMIT = 100;

describe('failed authentications from one address', () => {
  /** @type {string} */
  let directory;
  /** @type {RunningServer} */
  let server;
  /** @type {string} */
  let forgedToken;

  before(async () => {
    const site = await generateKeyPair('ES256');
    const forger = await generateKeyPair('ES256');
    const publicJwk = { ...(await exportJWK(site.publicKey)), kid: 'site-key', alg: 'ES256' };
    const now = Math.floor(Date.now() / 1000);
    // Right in every claim and in its key id, signed with a key that is not the site's.
    forgedToken = await new SignJWT({ app_id: 'guild', sub: 'alice' })
      .setProtectedHeader({ alg: 'ES256', kid: 'site-key' })
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(forger.privateKey);
    directory = await mkdtemp(join(tmpdir(), 'questboard-failed-auth-'));
    const dataset = join(directory, 'dataset.json');
    await writeFile(
      dataset,
      JSON.stringify({
        admin_keys: [ADMIN],
        apps: [
          {
            app_id: 'guild',
            api_keys: [{ key: 'pk_page', scopes: ['read', 'member'] }],
            settings: { member_token_keys: [publicJwk] },
            users: [{ account_name: 'alice' }, { account_name: 'bob' }],
          },
        ],
      }),
    );
    server = await startServer(['--allow-bootstrap', '--data', dataset, '--trust-proxy']);
  });
  after(async () => {
    await server?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  /**
   * @param {string} address
   * @param {string} key
   * @param {{ path?: string, init?: RequestInit & { headers?: Record<string, string> } }} [options]
   */
  const call = async (address, key, { path = '/v1/get_userinfo?app_id=guild&account_name=alice', init = {} } = {}) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': address, ...init.headers },
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  };
  /** @typedef {Awaited<ReturnType<typeof call>>} Answer */
  /**
   * @param {string} address
   * @param {string} token
   */
  const endorseAsAlice = (address, token) =>
    call(address, 'pk_page', {
      path: '/v1/endorse_account',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-questboard-member': token },
        body: JSON.stringify({ app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'e1' }),
      },
    });

  /**
   * Sends 300 refused requests from the address, one after the other: how each was answered.
   * @param {(index: number) => Answer | Promise<Answer>} send
   */
  const threeHundred = async (send) => {
    /** @type {number[]} */
    const statuses = [];
    /** @type {Answer | undefined} */
    let last;
    for (let index = 0; index < 300; index++) {
      last = await send(index);
      statuses.push(last.status);
    }
    return { statuses, last: /** @type {Answer} */ (last) };
  };

  // The window slides: one that turns during the run frees up a share of the last one's count,
  // so up to twice the limit may fit, never fewer than the limit; then every answer is a 429.
  /** @param {Awaited<ReturnType<typeof threeHundred>>} answers */
  const assertLimited = ({ statuses, last }) => {
    const refused = statuses.indexOf(429);
    assert.ok(refused >= LIMIT && refused <= 2 * LIMIT, `the first 429 came after ${refused} failures`);
    assert.deepEqual(statuses.slice(0, refused), Array(refused).fill(401));
    assert.deepEqual(statuses.slice(refused), Array(300 - refused).fill(429));
    assert.equal(last.body.is_valid, false);
    assert.match(
      last.body.message,
      /^Too many failed authentications from the address .*: at most 100 every 60 s\. Try again in \d+ s\.$/,
    );
    assert.ok(Number(last.retryAfter) >= 1 && Number(last.retryAfter) <= 60, String(last.retryAfter));
  };

  it('answers 429 with Retry-After after 100 wrong keys, to every key, and to no other address', async () => {
    assertLimited(await threeHundred((index) => call('198.51.100.1', `sk_guess_${index}`)));
    // Over the limit, a good key is refused too: no guess is judged until the window has room.
    assert.equal((await call('198.51.100.1', 'pk_page')).status, 429);
    assert.equal((await call('198.51.100.2', 'sk_guess')).status, 401);
    assert.equal((await call('198.51.100.2', 'pk_page')).status, 200);
  });

  it('answers 429 with Retry-After after 100 member tokens whose signature does not verify', async () => {
    const first = await endorseAsAlice('198.51.100.3', forgedToken);
    assert.equal(first.status, 401, JSON.stringify(first.body));
    assertLimited(await threeHundred((index) => (index === 0 ? first : endorseAsAlice('198.51.100.3', forgedToken))));
    assert.equal((await endorseAsAlice('198.51.100.4', forgedToken)).status, 401);
  });
});
