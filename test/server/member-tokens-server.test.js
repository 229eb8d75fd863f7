// Member tokens at the Questboard server over HTTP: a page on another origin
// may send X-Questboard-Member (the preflight allows it) and read a refusal's
// X-Questboard-Error (it is exposed), and no token reaches the server's log.
// The rules themselves are test/api/member-tokens.test.ts's, on every store.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startServer } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */

const SITE = 'https://site.example';

describe('member tokens over HTTP', () => {
  /** @type {string} */
  let directory;
  /** @type {RunningServer} */
  let server;
  /** @type {Awaited<ReturnType<typeof generateKeyPair>>['privateKey']} */
  let privateKey;
  /** @type {string[]} */
  const tokens = [];

  before(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'site-key', alg: 'ES256' };
    directory = await mkdtemp(join(tmpdir(), 'questboard-member-'));
    const dataset = join(directory, 'dataset.json');
    await writeFile(
      dataset,
      JSON.stringify({
        admin_keys: ['sk_admin_0123456789abcdef'],
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
    server = await startServer(['--allow-bootstrap', '--data', dataset, '--cors-origin', SITE]);
  });
  after(async () => {
    await server?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  /** @param {number} lifetimeSeconds */
  async function sign(lifetimeSeconds) {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ app_id: 'guild', sub: 'alice' })
      .setProtectedHeader({ alg: 'ES256', kid: 'site-key' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 7200 + lifetimeSeconds)
      .sign(privateKey);
    tokens.push(token);
    return token;
  }

  /**
   * @param {string} token
   * @param {string} endorsement_id
   */
  const endorse = (token, endorsement_id) =>
    fetch(`http://127.0.0.1:${server.port}/v1/endorse_account`, {
      method: 'POST',
      headers: {
        Origin: SITE,
        Authorization: 'Bearer pk_page',
        'Content-Type': 'application/json',
        'X-Questboard-Member': token,
      },
      body: JSON.stringify({ app_id: 'guild', to_account: 'bob', endorsement_id }),
    });

  it('a preflight from the site allows the X-Questboard-Member header', async () => {
    const answer = await fetch(`http://127.0.0.1:${server.port}/v1/endorse_account`, {
      method: 'OPTIONS',
      headers: {
        Origin: SITE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,x-questboard-member',
      },
    });
    assert.equal(answer.status, 204);
    const allowed = /** @type {string} */ (answer.headers.get('Access-Control-Allow-Headers')).toLowerCase().split(/,\s*/);
    assert.ok(allowed.includes('x-questboard-member'), allowed.join(', '));
  });

  it("the token's member writes; an expired token is a 401 whose X-Questboard-Error the page may read", async () => {
    const written = await endorse(await sign(3 * 3600), 'first');
    assert.equal(written.status, 200, await written.clone().text());
    const refused = await endorse(await sign(3600), 'second');
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('X-Questboard-Error'), 'member-token-expired');
    const exposed = /** @type {string} */ (refused.headers.get('Access-Control-Expose-Headers')).toLowerCase().split(/,\s*/);
    assert.ok(exposed.includes('x-questboard-error'), exposed.join(', '));
  });

  it('no token, nor its signature, reaches the log', async () => {
    assert.ok(tokens.length >= 2);
    // Stopped, the server has written its last line: every request is in the log.
    assert.equal(await server.stop(), 0);
    const log = JSON.stringify(server.log);
    for (const token of tokens) {
      for (const part of token.split('.')) assert.ok(!log.includes(part), `the log holds part of a token: ${part}`);
    }
    assert.ok(
      server.log.some((line) => line.msg === 'request' && line.status === 401),
      'the refused request was logged',
    );
  });
});
