// The questboard-token command (src/server/token-cli.ts) from source: keygen's
// key pair goes into an app's settings as it is printed, sign's token is
// accepted by the handler for a key with the `member` scope, and every command
// line it cannot run is refused with exit code 2 (with the usage), every key
// file it cannot use with 1.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { memoryServerPerTest } from './memory-server.js';
import { importSource } from '../source-module.js';

/**
 * @type {typeof import('../../src/server/token-cli.js') & typeof import('../../src/server/server-store.js') &
 *   typeof import('../../src/handler/handler.js')}
 */
let source;
/** @type {string} */
let directory;
before(async () => {
  source = await importSource('src/server/token-cli.ts', 'src/server/server-store.ts', 'src/handler/handler.ts');
  directory = await mkdtemp(join(tmpdir(), 'questboard-token-'));
});
after(() => rm(directory, { recursive: true, force: true }));

/**
 * Runs the command as the bin does, collecting what it prints.
 * @param {...string} argv
 */
async function run(...argv) {
  const printed = { stdout: '', stderr: '' };
  const code = await source.main(argv, {
    stdout: (/** @type {string} */ text) => (printed.stdout += text),
    stderr: (/** @type {string} */ text) => (printed.stderr += text),
  });
  return { code, ...printed };
}

/**
 * @param {string} name
 * @param {unknown} content a string is written as it is, anything else as JSON
 */
async function keyFile(name, content) {
  const path = join(directory, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** @param {string} token */
const claimsOf = (token) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
/** @param {string} token */
const headerOf = (token) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));

describe('questboard-token keygen → sign → the handler', () => {
  const server = memoryServerPerTest(() => source);

  /**
   * @param {string} path
   * @param {{ key?: string, body?: unknown, token?: string }} options
   */
  const call = (path, { key, body, token }) =>
    server.handle(
      new Request(`http://q.test/v1/${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          ...(token ? { 'X-Questboard-Member': token } : {}),
        },
        body: JSON.stringify(body),
      }),
    );

  for (const alg of ['ES256', 'EdDSA']) {
    it(`${alg}: the printed public_jwk imports as it is, and the signed token writes as its member`, async () => {
      const generated = await run('keygen', '--alg', alg);
      assert.equal(generated.code, 0, generated.stderr);
      const { private_jwk, public_jwk } = JSON.parse(generated.stdout);
      assert.equal(public_jwk.d, undefined, 'the public half holds no private part');
      assert.equal(typeof private_jwk.d, 'string');
      assert.match(public_jwk.kid, /^[A-Za-z0-9_-]{43}$/, 'the default kid is the key’s RFC 7638 thumbprint');
      assert.equal(private_jwk.kid, public_jwk.kid);

      const imported = await call('admin/import', {
        key: 'sk_admin',
        body: {
          admin_keys: ['sk_admin'],
          apps: [
            {
              app_id: 'guild',
              api_keys: [{ key: 'pk_member', scopes: ['read', 'member'] }],
              settings: { member_token_keys: [public_jwk] },
              users: [{ account_name: 'alice' }, { account_name: 'bob' }],
            },
          ],
        },
      });
      assert.equal(imported.status, 200, await imported.text());

      // keygen's whole output is a key file too.
      const signed = await run(
        'sign',
        '--app',
        'guild',
        '--member',
        'alice',
        '--key',
        await keyFile(`${alg}.json`, generated.stdout),
        '--ttl',
        '30m',
      );
      assert.equal(signed.code, 0, signed.stderr);
      const token = signed.stdout.trim();
      assert.deepEqual(headerOf(token), { alg, kid: public_jwk.kid, typ: 'JWT' });
      const claims = claimsOf(token);
      assert.equal(claims.app_id, 'guild');
      assert.equal(claims.sub, 'alice');
      assert.equal(claims.exp - claims.iat, 1800);

      const endorsed = await call('endorse_account', {
        key: 'pk_member',
        token,
        body: { app_id: 'guild', to_account: 'bob', endorsement_id: 'cli' },
      });
      assert.equal(endorsed.status, 200, await endorsed.text());
      const asBob = await call('endorse_account', {
        key: 'pk_member',
        token,
        body: { app_id: 'guild', from_account: 'bob', to_account: 'alice', endorsement_id: 'cli' },
      });
      assert.equal(asBob.status, 403);
    });
  }

  it('a key file holding only the private JWK signs too; --kid names the key', async () => {
    const { private_jwk } = JSON.parse((await run('keygen', '--kid', 'site-2026')).stdout);
    assert.equal(private_jwk.kid, 'site-2026');
    const signed = await run(
      'sign',
      '--app',
      'guild',
      '--member',
      'zoe\u0308',
      '--key',
      await keyFile('private.jwk', private_jwk),
    );
    assert.equal(signed.code, 0, signed.stderr);
    const claims = claimsOf(signed.stdout.trim());
    assert.equal(claims.exp - claims.iat, 3600, 'an hour unless --ttl says otherwise');
    assert.equal(claims.sub, 'zo\u00eb', 'the member in its one form (NFC), as the API keeps names');
  });
});

describe('questboard-token refuses', () => {
  /** @type {string} */
  let privateFile;
  /** @type {string} */
  let publicFile;
  before(async () => {
    const { private_jwk, public_jwk } = JSON.parse((await run('keygen')).stdout);
    privateFile = await keyFile('refusals-private.jwk', private_jwk);
    publicFile = await keyFile('refusals-public.jwk', public_jwk);
  });

  /** @type {[string[], RegExp][]} */
  const usage = [
    [['frobnicate'], /unknown command "frobnicate"/],
    [['keygen', '--alg', 'HS256'], /--alg must be ES256 or EdDSA, got "HS256"/],
    [['keygen', '--kid', ' '], /--kid needs a value/],
    [['keygen', '--bits', '2048'], /Unknown option '--bits'/],
    [['sign', '--member', 'alice', '--key', 'k'], /--app is required/],
    [['sign', '--app', 'guild', '--key', 'k'], /--member is required/],
    [['sign', '--app', 'guild', '--member', 'alice'], /--key is required/],
    [['sign', '--app', 'guild', '--member', 'alice ', '--key', 'k'], /--member must not start or end with white space/],
    [['sign', '--app', 'guild', '--member', 'alice', '--key', 'k', '--ttl', '25h'], /--ttl must be .* at most 24h, got "25h"/],
    [['sign', '--app', 'guild', '--member', 'alice', '--key', 'k', '--ttl', '0s'], /--ttl must be/],
    [['sign', '--app', 'guild', '--member', 'alice', '--key', 'k', '--ttl', '1d'], /--ttl must be/],
  ];
  for (const [argv, message] of usage) {
    it(`${argv.join(' ')}: exit code 2, with the usage`, async () => {
      const { code, stdout, stderr } = await run(...argv.map((arg) => (arg === 'k' ? privateFile : arg)));
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, message);
      assert.match(stderr, /Usage: questboard-token keygen/);
    });
  }

  /** @type {Array<[string, () => string | Promise<string>, RegExp]>} */
  const keys = [
    ['a missing file', () => join(directory, 'nowhere.jwk'), /^questboard-token: --key .*nowhere\.jwk: ENOENT/],
    ['a file that is not JSON', () => keyFile('junk.jwk', 'not json'), /--key .*junk\.jwk: .*JSON/],
    ['the public key', () => publicFile, /this JWK is a public key; signing takes the private one/],
    [
      'a JWK without kid',
      async () => keyFile('nokid.jwk', { ...JSON.parse(await readFile(privateFile, 'utf8')), kid: undefined }),
      /the JWK has no kid/,
    ],
    [
      'an RSA key',
      () => keyFile('rsa.jwk', { kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQAB', kid: 'r' }),
      /not a P-256 \(ES256\) or Ed25519 \(EdDSA\) JWK/,
    ],
    [
      'a broken private key',
      () => keyFile('broken.jwk', { kty: 'OKP', crv: 'Ed25519', x: 'AAAA', d: 'AAAA', kid: 'b' }),
      /the JWK cannot be used/,
    ],
  ];
  for (const [title, file, message] of keys) {
    it(`${title}: exit code 1, in one line`, async () => {
      const { code, stdout, stderr } = await run('sign', '--app', 'guild', '--member', 'alice', '--key', await file());
      assert.equal(code, 1);
      assert.equal(stdout, '');
      assert.match(stderr, message);
      assert.equal(stderr.trim().split('\n').length, 1);
    });
  }

  it('--help and no command print the usage, exit code 0', async () => {
    for (const argv of [['--help'], [], ['sign', '--help']]) {
      const { code, stdout } = await run(...argv);
      assert.equal(code, 0);
      assert.match(stdout, /^Usage: questboard-token keygen/);
    }
  });
});
