// Member tokens and the `member` scope (src/core/member-token.ts,
// src/handler/member-access.ts), on every store the API suite runs on: the
// handler in the page over IndexedDB with a pinned clock, or the Questboard
// server over HTTP on PGlite or PostgreSQL (the clock sent with each request);
// and through the real service worker with the real clock. Key pairs and
// tokens are made here with jose, as a site's backend would make its own, and
// the property test holds the API's verifier to jose's jwtVerify.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import fc from 'fast-check';
import { openDB } from 'idb';
import { CompactSign, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import {
  API_ADAPTER,
  GUIDS,
  itOnIndexedDb,
  localApi,
  registerWorker,
  seed,
  unregisterWorker,
  WEDNESDAY,
  workerCall,
  type Answer,
  type Call,
} from './support.js';

const NOW_S = Math.floor(WEDNESDAY / 1000);
const HOUR_S = 3600;

interface SigningKey {
  kid: string;
  alg: 'ES256' | 'EdDSA';
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(kid: string, alg: SigningKey['alg'] = 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg } };
}

/** A token as a site's backend signs it: alice of guild for an hour from NOW_S; a claim or header given as undefined is left out. */
function sign(key: SigningKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ app_id: 'guild', sub: 'alice', iat: NOW_S, exp: NOW_S + HOUR_S, ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, ...header })
    .sign(key.privateKey);
}

const base64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** guild takes member tokens signed with `keys`; `other` has a member key but no keys. */
const memberSettings = (keys: JWK[]) => ({
  apps: [
    {
      app_id: 'guild',
      api_keys: [{ key: 'pk_member', scopes: ['read', 'member'] }],
      settings: { member_token_keys: keys },
    },
    { app_id: 'other', api_keys: [{ key: 'pk_other_member', scopes: ['read', 'member'] }] },
  ],
});

const tokenHeader = (token: string | null): Record<string, string> => (token === null ? {} : { 'X-Questboard-Member': token });

function endorse(call: Call, token: string | null, body: Record<string, unknown> = {}, key = 'pk_member') {
  return call('POST', '/v1/endorse_account', {
    key,
    headers: tokenHeader(token),
    body: { app_id: 'guild', to_account: 'bob', endorsement_id: 'helpful', ...body },
  });
}

function connect(call: Call, token: string | null, body: Record<string, unknown> = {}, key = 'pk_member') {
  return call('POST', '/v1/connect_social', {
    key,
    headers: tokenHeader(token),
    body: { app_id: 'guild', twitter_name: 'new_handle', ...body },
  });
}

function expectRefused(answer: Answer, code: string, message: string): void {
  expect(answer.status, answer.text).to.equal(401);
  expect(answer.headers.get('X-Questboard-Error')).to.equal(code);
  expect(answer.body).to.deep.equal({ is_valid: false, message });
}

const exportOf = async (call: Call, app = 'guild') => {
  const answer = await call('GET', `/v1/admin/export?app_id=${app}`);
  expect(answer.status, answer.text).to.equal(200);
  return answer.body.apps[0];
};

const MESSAGES = {
  missing:
    "Missing member token: a key with the 'member' scope writes only with the header X-Questboard-Member: <token>, signed for the signed-in member by the site's backend.",
  notCompact: 'Malformed member token: it is not a signed JWT in compact form (three base64url parts: header.payload.signature).',
  badClaims:
    'Malformed member token: its claims must hold app_id and sub as text, and iat and exp (and nbf, if any) as NumericDates in seconds.',
  badSub: 'Malformed member token: its sub is not an account name the API accepts.',
  expired: "Expired member token: its exp has passed; the site's backend signs a new one.",
  notYetValid: 'Member token not yet valid: its nbf or iat lies ahead of this clock by more than 30 seconds.',
  badSignature: "Invalid member token: its signature does not verify with the app's key that its kid names.",
  algorithmNotAllowed: 'Invalid member token: it must be signed with ES256 or EdDSA.',
  keyMismatch: 'Invalid member token: its alg is not the algorithm of the key its kid names.',
  tooLong: 'Invalid member token: its exp is more than 24 hours after its iat; member tokens live a day at most.',
  unknownKey:
    "Unknown member token key: the token's kid names none of the app's member_token_keys (a key rotated out, or no kid at all).",
  otherApp: "Member token for another app: its app_id is not this API key's app.",
  notEnabled:
    "Member tokens are not enabled for this app: its settings hold no member_token_keys, so a key with the 'member' scope cannot write.",
};

describe('member tokens', () => {
  let es: SigningKey;
  let ed: SigningKey;
  /** Registered nowhere, but under es's kid: its signatures must not verify. */
  let impostor: SigningKey;
  let api: ReturnType<typeof localApi>;

  before(async () => {
    es = await signingKey('site-2026');
    ed = await signingKey('site-ed', 'EdDSA');
    impostor = await signingKey('site-2026');
  });

  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
    const enabled = await api.call('POST', '/v1/admin/import', { body: memberSettings([es.publicJwk, ed.publicJwk]) });
    expect(enabled.status, enabled.text).to.equal(200);
  });
  afterEach(() => api.close());

  it("endorses as the token's member: from_account may be left out, or name that member", async () => {
    const answer = await endorse(api.call, await sign(es));
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body).to.deep.equal({ is_valid: true, message: null });
    const named = await endorse(api.call, await sign(ed, { sub: 'carol' }), { from_account: 'carol' });
    expect(named.status, named.text).to.equal(200);
    const { endorsements } = await exportOf(api.call);
    expect(endorsements.map((e: any) => [e.from_account, e.to_account])).to.deep.equal([
      ['alice', 'bob'],
      ['carol', 'bob'],
    ]);
  });

  it('connects a profile for its own account only', async () => {
    expect((await connect(api.call, await sign(es))).status).to.equal(200);
    expect(
      (await connect(api.call, await sign(es, { sub: 'bob' }), { account_name: 'bob', twitter_name: 'bobby' })).status,
    ).to.equal(200);
    const users = (await exportOf(api.call)).users;
    expect(users.find((user: any) => user.account_name === 'alice').twitter_name).to.equal('new_handle');
    expect(users.find((user: any) => user.account_name === 'bob').twitter_name).to.equal('bobby');
  });

  it("alice's token cannot endorse as bob, nor connect bob's profile: 403, and nothing changes", async () => {
    const before = await exportOf(api.call);
    const asBob = await endorse(api.call, await sign(es), { from_account: 'bob', to_account: 'carol' });
    expect(asBob.status, asBob.text).to.equal(403);
    expect(asBob.body.message).to.equal(
      'Not allowed: with a member key, from_account must be the member the token names (or be left out).',
    );
    const bobsProfile = await connect(api.call, await sign(es), { account_name: 'bob' });
    expect(bobsProfile.status, bobsProfile.text).to.equal(403);
    expect(bobsProfile.body.message).to.equal(
      'Not allowed: with a member key, account_name must be the member the token names (or be left out).',
    );
    expect(await exportOf(api.call)).to.deep.equal(before);
  });

  it('a name in the body is compared in its one form (NFC), as the token names it', async () => {
    const composed = 'zo\u00eb';
    expect((await connect(api.call, await sign(es, { sub: 'zoe\u0308' }), { account_name: composed })).status).to.equal(200);
    expect((await exportOf(api.call)).users.map((user: any) => user.account_name)).to.include(composed);
  });

  describe('refusals: 401, a message that says which, and the code in X-Questboard-Error', () => {
    const cases: Array<{
      title: string;
      token: () => Promise<string | null>;
      code: string;
      message: string;
      key?: string;
      app_id?: string;
    }> = [
      { title: 'no token', token: async () => null, code: 'member-token-missing', message: MESSAGES.missing },
      { title: 'an empty token', token: async () => '', code: 'member-token-missing', message: MESSAGES.missing },
      { title: 'not a JWT', token: async () => 'not.a.token', code: 'member-token-malformed', message: MESSAGES.notCompact },
      {
        title: 'two parts',
        token: async () => (await sign(es)).split('.').slice(0, 2).join('.'),
        code: 'member-token-malformed',
        message: MESSAGES.notCompact,
      },
      {
        title: 'signed claims that are not a JSON object',
        token: () =>
          new CompactSign(new TextEncoder().encode('[1]')).setProtectedHeader({ alg: 'ES256', kid: es.kid }).sign(es.privateKey),
        code: 'member-token-malformed',
        message: MESSAGES.notCompact,
      },
      { title: 'no sub', token: () => sign(es, { sub: undefined }), code: 'member-token-malformed', message: MESSAGES.badClaims },
      { title: 'no exp', token: () => sign(es, { exp: undefined }), code: 'member-token-malformed', message: MESSAGES.badClaims },
      { title: 'no iat', token: () => sign(es, { iat: undefined }), code: 'member-token-malformed', message: MESSAGES.badClaims },
      {
        title: 'no app_id',
        token: () => sign(es, { app_id: undefined }),
        code: 'member-token-malformed',
        message: MESSAGES.badClaims,
      },
      {
        title: 'app_id not text',
        token: () => sign(es, { app_id: 7 }),
        code: 'member-token-malformed',
        message: MESSAGES.badClaims,
      },
      {
        title: 'exp as text',
        token: () => sign(es, { exp: String(NOW_S + HOUR_S) }),
        code: 'member-token-malformed',
        message: MESSAGES.badClaims,
      },
      {
        title: 'sub not an account name',
        token: () => sign(es, { sub: 'alice ' }),
        code: 'member-token-malformed',
        message: MESSAGES.badSub,
      },
      {
        title: 'exp passed (beyond the 30 s of tolerance)',
        token: () => sign(es, { iat: NOW_S - HOUR_S, exp: NOW_S - 31 }),
        code: 'member-token-expired',
        message: MESSAGES.expired,
      },
      {
        title: 'nbf ahead',
        token: () => sign(es, { nbf: NOW_S + 31 }),
        code: 'member-token-not-yet-valid',
        message: MESSAGES.notYetValid,
      },
      {
        title: 'iat ahead',
        token: () => sign(es, { iat: NOW_S + 60, exp: NOW_S + HOUR_S }),
        code: 'member-token-not-yet-valid',
        message: MESSAGES.notYetValid,
      },
      {
        title: "another key's signature under a known kid",
        token: () => sign(impostor),
        code: 'member-token-invalid',
        message: MESSAGES.badSignature,
      },
      {
        title: 'claims changed after signing',
        token: async () => {
          const [header, , signature] = (await sign(es)).split('.');
          const claims = { app_id: 'guild', sub: 'bob', iat: NOW_S, exp: NOW_S + HOUR_S };
          return `${header}.${base64url(claims)}.${signature}`;
        },
        code: 'member-token-invalid',
        message: MESSAGES.badSignature,
      },
      {
        title: 'HS256 (a shared secret)',
        token: () =>
          new SignJWT({ app_id: 'guild', sub: 'alice', iat: NOW_S, exp: NOW_S + HOUR_S })
            .setProtectedHeader({ alg: 'HS256', kid: 'site-2026' })
            .sign(new TextEncoder().encode('a secret every visitor could read from the page')),
        code: 'member-token-invalid',
        message: MESSAGES.algorithmNotAllowed,
      },
      {
        title: "alg 'none' (unsigned)",
        token: async () =>
          `${base64url({ alg: 'none', kid: 'site-2026' })}.${base64url({ app_id: 'guild', sub: 'alice', iat: NOW_S, exp: NOW_S + HOUR_S })}.`,
        code: 'member-token-invalid',
        message: MESSAGES.algorithmNotAllowed,
      },
      {
        title: 'an EdDSA token naming the P-256 key',
        token: () => sign({ ...ed, kid: es.kid }),
        code: 'member-token-invalid',
        message: MESSAGES.keyMismatch,
      },
      {
        title: 'a lifetime over 24 hours',
        token: () => sign(es, { exp: NOW_S + 24 * HOUR_S + 1 }),
        code: 'member-token-invalid',
        message: MESSAGES.tooLong,
      },
      {
        title: 'an unknown kid',
        token: () => sign({ ...es, kid: 'gone' }),
        code: 'member-token-unknown-key',
        message: MESSAGES.unknownKey,
      },
      {
        title: 'no kid',
        token: () => sign(es, {}, { kid: undefined }),
        code: 'member-token-unknown-key',
        message: MESSAGES.unknownKey,
      },
      {
        title: 'a token for another app',
        token: () => sign(es, { app_id: 'other' }),
        code: 'member-token-other-app',
        message: MESSAGES.otherApp,
      },
      {
        title: 'an app without member_token_keys',
        token: () => sign(es, { app_id: 'other' }),
        key: 'pk_other_member',
        app_id: 'other',
        code: 'member-tokens-not-enabled',
        message: MESSAGES.notEnabled,
      },
    ];
    for (const refusal of cases) {
      it(refusal.title, async () => {
        const token = await refusal.token();
        const body = { app_id: refusal.app_id ?? 'guild', to_account: 'zed' };
        expectRefused(await endorse(api.call, token, body, refusal.key), refusal.code, refusal.message);
        expectRefused(await connect(api.call, token, { app_id: body.app_id }, refusal.key), refusal.code, refusal.message);
      });
    }
  });

  it('a refused token is refused before its body is read: a bad body still answers 401', async () => {
    const answer = await api.call('POST', '/v1/endorse_account', {
      key: 'pk_member',
      headers: { 'X-Questboard-Member': 'junk', 'content-type': 'text/plain' },
      body: 'not json',
    });
    expectRefused(answer, 'member-token-malformed', MESSAGES.notCompact);
  });

  it('expiry follows the clock: 30 s of tolerance past exp, then expired', async () => {
    const token = await sign(es, { exp: NOW_S + HOUR_S });
    api.clock.now = WEDNESDAY + (HOUR_S + 29) * 1000;
    expect((await endorse(api.call, token)).status).to.equal(200);
    api.clock.now = WEDNESDAY + (HOUR_S + 31) * 1000;
    expectRefused(await endorse(api.call, token, { endorsement_id: 'later' }), 'member-token-expired', MESSAGES.expired);
  });

  it('nbf follows the clock: valid from 30 s before it', async () => {
    const token = await sign(es, { nbf: NOW_S + 600 });
    api.clock.now = WEDNESDAY + 569 * 1000;
    expectRefused(await endorse(api.call, token), 'member-token-not-yet-valid', MESSAGES.notYetValid);
    api.clock.now = WEDNESDAY + 571 * 1000;
    expect((await endorse(api.call, token)).status).to.equal(200);
  });

  it('a rotated key: both verify while listed, and an import without the old kid stops its tokens', async () => {
    const next = await signingKey('site-2027', 'EdDSA');
    const both = await api.call('POST', '/v1/admin/import', { body: memberSettings([es.publicJwk, next.publicJwk]) });
    expect(both.status, both.text).to.equal(200);
    const old = await sign(es);
    expect((await endorse(api.call, old)).status).to.equal(200);
    expect((await endorse(api.call, await sign(next), { endorsement_id: 'new' })).status).to.equal(200);

    const rotated = await api.call('POST', '/v1/admin/import', { body: memberSettings([next.publicJwk]) });
    expect(rotated.status, rotated.text).to.equal(200);
    expectRefused(await endorse(api.call, old, { endorsement_id: 'after' }), 'member-token-unknown-key', MESSAGES.unknownKey);
    expect((await endorse(api.call, await sign(next), { endorsement_id: 'after' })).status).to.equal(200);
    expect((await exportOf(api.call)).settings.member_token_keys).to.deep.equal([next.publicJwk]);
  });

  it('an import that leaves member_token_keys out keeps them; an empty list turns member tokens off', async () => {
    const untouched = await api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'guild', name: 'Renamed' }] } });
    expect(untouched.status, untouched.text).to.equal(200);
    expect((await endorse(api.call, await sign(es))).status).to.equal(200);
    expect((await api.call('POST', '/v1/admin/import', { body: memberSettings([]) })).status).to.equal(200);
    expectRefused(
      await endorse(api.call, await sign(es), { endorsement_id: 'off' }),
      'member-tokens-not-enabled',
      MESSAGES.notEnabled,
    );
    expect((await exportOf(api.call)).settings).not.to.have.property('member_token_keys');
  });

  it('an export holds the public keys, and imports again as it came', async () => {
    const exported = await exportOf(api.call);
    expect(exported.settings.member_token_keys).to.deep.equal([es.publicJwk, ed.publicJwk]);
    const restore = await api.call('POST', '/v1/admin/import?mode=replace', { body: { apps: [exported] } });
    expect(restore.status, restore.text).to.equal(200);
    expect(await exportOf(api.call)).to.deep.equal(exported);
    expect((await endorse(api.call, await sign(ed))).status).to.equal(200);
  });

  it('a member key still cannot log tasks, airdrop or administer, even with a valid token', async () => {
    const headers = tokenHeader(await sign(es));
    const before = await exportOf(api.call);
    const logged = await api.call('POST', '/v1/admin/log_task', {
      key: 'pk_member',
      headers,
      body: { task_id: GUIDS.posts, account_name: 'alice', quantity: 1 },
    });
    expect(logged.status, logged.text).to.equal(403);
    expect(logged.body.message).to.equal("Not allowed: this API key does not carry the 'admin' scope.");
    const paid = await api.call('POST', '/v1/airdrop_token_ledger', {
      key: 'pk_member',
      headers,
      body: { to_address: '0.0.2002', quantity: 1 },
    });
    expect(paid.status, paid.text).to.equal(403);
    expect(paid.body.message).to.equal("Not allowed: this API key does not carry the 'ledger' scope.");
    const imported = await api.call('POST', '/v1/admin/import', { key: 'pk_member', headers, body: memberSettings([]) });
    expect(imported.status, imported.text).to.equal(403);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild', { key: 'pk_member', headers })).status).to.equal(403);
    expect(await exportOf(api.call)).to.deep.equal(before);
  });

  it('a member key reads as its read scope allows, with or without a token', async () => {
    const answer = await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob', { key: 'pk_member' });
    expect(answer.status, answer.text).to.equal(200);
  });

  it("a key with 'write' acts as it always has: a token sent with it is not read", async () => {
    const answer = await endorse(api.call, 'not even a token', { from_account: 'carol' }, 'pk_write');
    expect(answer.status, answer.text).to.equal(200);
    const asOther = await endorse(api.call, await sign(es), { from_account: 'carol', endorsement_id: 'x' }, 'pk_write');
    expect(asOther.status, asOther.text).to.equal(200);
  });

  it('a member key of another app cannot write in this one, whatever its token says', async () => {
    const answer = await endorse(api.call, await sign(es), {}, 'pk_other_member');
    expectRefused(answer, 'member-tokens-not-enabled', MESSAGES.notEnabled);
  });

  it("an Idempotency-Key's fingerprint holds the member: another member reusing it is a 409, not alice's answer", async () => {
    const first = await api.call('POST', '/v1/endorse_account', {
      key: 'pk_member',
      headers: { ...tokenHeader(await sign(es)), 'Idempotency-Key': 'k1' },
      body: { app_id: 'guild', to_account: 'bob', endorsement_id: 'helpful' },
    });
    expect(first.status, first.text).to.equal(200);
    const carol = await api.call('POST', '/v1/endorse_account', {
      key: 'pk_member',
      headers: { ...tokenHeader(await sign(es, { sub: 'carol' })), 'Idempotency-Key': 'k1' },
      body: { app_id: 'guild', to_account: 'bob', endorsement_id: 'helpful' },
    });
    expect(carol.status, carol.text).to.equal(409);
    const again = await api.call('POST', '/v1/endorse_account', {
      key: 'pk_member',
      headers: { ...tokenHeader(await sign(es, { iat: NOW_S + 1 })), 'Idempotency-Key': 'k1' },
      body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'helpful' },
    });
    expect(again.status, again.text).to.equal(200);
  });

  itOnIndexedDb('no token is kept in IndexedDB, in any store', async () => {
    const token = await sign(es);
    const answer = await api.call('POST', '/v1/endorse_account', {
      key: 'pk_member',
      headers: { ...tokenHeader(token), 'Idempotency-Key': 'k-store' },
      body: { app_id: 'guild', to_account: 'bob', endorsement_id: 'kept?' },
    });
    expect(answer.status, answer.text).to.equal(200);
    expect(await databaseText(api.name))
      .not.to.contain(token.split('.')[2])
      .and.not.to.contain(token.split('.')[1]);
  });

  itOnIndexedDb('in a page without WebCrypto (http:, not a secure context) a member write is a 501 that says why', async () => {
    const token = await sign(es);
    const own = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    let answer: Answer;
    try {
      answer = await endorse(api.call, token);
    } finally {
      if (own) Object.defineProperty(globalThis, 'crypto', own);
      else delete (globalThis as { crypto?: Crypto }).crypto;
    }
    expect(answer.status, answer.text).to.equal(501);
    expect(answer.body.message).to.equal(
      'Member tokens cannot be checked here: this page is not a secure context (https), where WebCrypto verifies them.',
    );
  });

  describe('member_token_keys in an import', () => {
    const importKeys = (keys: unknown[]) =>
      api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'guild', settings: { member_token_keys: keys } }] } });

    it('a private key (with d) is refused with a 400 that says so, and changes nothing', async () => {
      const before = await exportOf(api.call);
      const privateJwk = { ...(await exportJWK(es.privateKey)), kid: 'site-2026' };
      const answer = await importKeys([privateJwk]);
      expect(answer.status, answer.text).to.equal(400);
      expect(answer.body.message).to.equal(
        "apps.0.settings.member_token_keys.0.d: is the private key: member_token_keys take the public key only (keep the private one on the site's backend).",
      );
      expect(await exportOf(api.call)).to.deep.equal(before);
    });

    const faults: Array<[string, (jwk: JWK) => unknown, string]> = [
      ['no kid', ({ kid: _kid, ...jwk }) => jwk, 'apps.0.settings.member_token_keys.0.kid: is required.'],
      [
        'an RSA key',
        (jwk) => ({ ...jwk, kty: 'RSA' }),
        'apps.0.settings.member_token_keys.0.kty: must be EC (a P-256 key, ES256) or OKP (an Ed25519 key, EdDSA).',
      ],
      [
        'kty not of its curve',
        (jwk) => ({ ...jwk, kty: 'OKP' }),
        'apps.0.settings.member_token_keys.0.kty: must be EC for crv P-256.',
      ],
      ['a P-256 key without y', ({ y: _y, ...jwk }) => jwk, 'apps.0.settings.member_token_keys.0.y: is required.'],
      [
        'alg not of its curve',
        (jwk) => ({ ...jwk, alg: 'EdDSA' }),
        'apps.0.settings.member_token_keys.0.alg: must be ES256 for crv P-256.',
      ],
      ['HS256', (jwk) => ({ ...jwk, alg: 'HS256' }), 'apps.0.settings.member_token_keys.0.alg: must be one of ES256, EdDSA.'],
      [
        'a short x',
        (jwk) => ({ ...jwk, x: 'AAAA' }),
        'apps.0.settings.member_token_keys.0.x: must be 32 bytes in base64url (43 characters).',
      ],
      ['an unknown member', (jwk) => ({ ...jwk, n: 'AQAB' }), "apps.0.settings.member_token_keys.0: unknown field 'n'."],
    ];
    for (const [title, change, message] of faults) {
      it(`a key with ${title} is a 400`, async () => {
        const answer = await importKeys([change(es.publicJwk)]);
        expect(answer.status, answer.text).to.equal(400);
        expect(answer.body.message).to.equal(message);
      });
    }

    it('a kid twice is a 400', async () => {
      const answer = await importKeys([es.publicJwk, { ...ed.publicJwk, kid: es.kid }]);
      expect(answer.status, answer.text).to.equal(400);
      expect(answer.body.message).to.equal('apps.0.settings.member_token_keys.1.kid: appears twice.');
    });

    it('a key whose point is not on its curve passes the import, and its tokens are refused, not a 500', async () => {
      const offCurve = { ...es.publicJwk, y: es.publicJwk.x };
      expect((await importKeys([offCurve])).status).to.equal(200);
      expectRefused(
        await endorse(api.call, await sign(es)),
        'member-token-invalid',
        "Invalid member token: the app's key its kid names cannot be used here (not a point of its curve, or a curve this engine lacks).",
      );
    });
  });

  it('property: random tokens and bodies from a member key — a refusal never changes anything, only a genuine token writes, and jose agrees on every token', async function () {
    const { runs, seed: fuzzSeed } = await executeServerCommand<{ runs: number; seed: number }, void>('fuzz-settings');
    this.timeout(30_000 + runs * 1_000);
    const snapshot = async () =>
      (await Promise.all(['guild', 'other'].map((app) => api.call('GET', `/v1/admin/export?app_id=${app}`)))).map(
        (answer) => answer.text,
      );
    // Mostly what a site would send, so that the rules past the signature are reached too; now and then anything.
    const often = <T, U>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
      fc.oneof({ weight: 4, arbitrary: usual }, { weight: 1, arbitrary: odd });
    const name = often(
      fc.constantFrom('alice', 'carol', 'zoe\u0308'),
      fc.oneof(fc.constantFrom('bob', 'zed', '', ' alice', 'x'.repeat(70), undefined), fc.string()),
    );
    /** Seconds from NOW_S: mostly within the hour around it, where the tolerances lie. */
    const time = often(
      fc.integer({ min: -3600, max: 3600 }).map((offset) => NOW_S + offset),
      fc.oneof(
        fc.constantFrom(undefined, 'soon', null, NOW_S + 30, NOW_S - 30, NOW_S + 86_400),
        fc.integer({ min: -2 * 86_400, max: 2 * 86_400 }).map((offset) => NOW_S + offset),
      ),
    );
    const signed = fc.record({
      signer: often(fc.constantFrom('es' as const, 'ed' as const), fc.constant('impostor' as const)),
      /** null: the signer's own kid. */
      kid: often(fc.constant(null), fc.constantFrom('site-2026', 'site-ed', 'gone', undefined)),
      claims: fc.record({
        app_id: often(fc.constant('guild'), fc.oneof(fc.constantFrom('other', undefined), fc.string(), fc.integer())),
        sub: name,
        iat: often(fc.constant(NOW_S), time),
        exp: often(
          fc.integer({ min: 0, max: 3600 }).map((offset) => NOW_S + offset),
          time,
        ),
        nbf: fc.option(time, { nil: undefined }),
      }),
    });
    const tokenSpec = fc.oneof(
      { weight: 6, arbitrary: signed.map((spec) => ({ kind: 'signed' as const, ...spec })) },
      { weight: 1, arbitrary: fc.option(fc.string(), { nil: null }).map((text) => ({ kind: 'text' as const, text })) },
      {
        weight: 1,
        arbitrary: fc
          .record({ at: fc.nat(), char: fc.constantFrom('A', '-', '.', '_') })
          .map((flip) => ({ kind: 'flipped' as const, ...flip })),
      },
    );
    const field = fc.oneof(name, fc.constantFrom('guild', 'other', 'helpful', 'handle_1', '@x'), fc.integer(), fc.constant(null));
    /** A valid body of either operation, with up to three fields replaced, added or dropped. */
    const body = fc
      .record({
        changes: fc.dictionary(
          fc.constantFrom('app_id', 'from_account', 'to_account', 'endorsement_id', 'account_name', 'twitter_name', '__proto__'),
          fc.option(field, { nil: undefined }),
          { maxKeys: 3 },
        ),
      })
      .map(({ changes }) => ({
        app_id: 'guild',
        to_account: 'bob',
        endorsement_id: 'helpful',
        twitter_name: 'handle_1',
        ...changes,
      }));
    const request = fc.record({
      path: fc.constantFrom('/v1/endorse_account', '/v1/connect_social'),
      key: often(fc.constant('pk_member'), fc.constantFrom('pk_other_member', 'pk_read')),
      token: tokenSpec,
      body,
    });
    const signers = { es, ed, impostor };
    type TokenSpec = typeof tokenSpec extends fc.Arbitrary<infer Spec> ? Spec : never;
    const tokenOf = async (spec: TokenSpec): Promise<string | null> => {
      if (spec.kind === 'text') return spec.text;
      if (spec.kind === 'flipped') {
        const token = await sign(es);
        const at = spec.at % token.length;
        return token.slice(0, at) + spec.char + token.slice(at + 1);
      }
      const key = signers[spec.signer];
      // Odd claim types on purpose: the verifier must refuse them.
      return new SignJWT(spec.claims as JWTPayload)
        .setProtectedHeader({ alg: key.alg, kid: spec.kid === null ? key.kid : spec.kid })
        .sign(key.privateKey);
    };

    const outcome = await fc.check(
      fc.asyncProperty(request, async (generated) => {
        const before = await snapshot();
        // What a header can carry: the browser refuses the rest before a handler sees it.
        const token = (await tokenOf(generated.token))?.replace(/[^\x21-\x7e]/g, '') ?? '';
        const answer = await api.call('POST', generated.path, {
          key: generated.key,
          headers: tokenHeader(token === '' ? null : token),
          body: generated.body,
        });
        expect(answer.status, answer.text).to.be.below(500);
        if (generated.key === 'pk_member' && token !== '') {
          expect(passedTokenRules(answer), `jose and the API disagree on ${token}: ${answer.text}`).to.equal(
            await joseAccepts(token, [es.publicJwk, ed.publicJwk], new Date(api.clock.now)),
          );
        }
        if (answer.status >= 400) {
          expect(answer.body.is_valid, answer.text).to.equal(false);
          expect(await snapshot(), `${generated.path} changed state but answered ${answer.status}`).to.deep.equal(before);
        } else {
          const spec = generated.token;
          expect(generated.key, answer.text).to.equal('pk_member');
          expect(spec.kind === 'signed' && spec.signer !== 'impostor' && spec.claims.app_id, answer.text).to.equal('guild');
        }
      }),
      { seed: fuzzSeed, numRuns: runs, endOnFailure: true },
    );
    if (outcome.failed) {
      throw new Error(
        `${(outcome.errorInstance as Error | undefined)?.message?.slice(0, 600)}\n` +
          `counterexample: ${JSON.stringify(outcome.counterexample?.[0]).slice(0, 600)}\n` +
          `replay with FUZZ_SEED=${outcome.seed} (path ${outcome.counterexamplePath})`,
      );
    }
  });
});

/**
 * The reference the API's verifier (src/core/member-token.ts, WebCrypto directly) is held to:
 * jose's jwtVerify with the same rules, and app_id and sub as text.
 */
async function joseAccepts(token: string, keys: JWK[], currentDate: Date): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(
      token,
      ({ kid }) => {
        const jwk = keys.find((key) => key.kid === kid);
        if (jwk === undefined) throw new Error('unknown kid');
        return jwk;
      },
      {
        algorithms: ['ES256', 'EdDSA'],
        requiredClaims: ['app_id', 'sub', 'iat', 'exp'],
        currentDate,
        clockTolerance: 30,
        maxTokenAge: 24 * HOUR_S,
      },
    );
    return typeof payload.app_id === 'string' && typeof payload.sub === 'string';
  } catch {
    return false;
  }
}

/** The refusals of rules past jose's (the token is well signed and current, but for the wrong app, member or lifetime). */
const PAST_JOSE = [MESSAGES.otherApp, MESSAGES.badSub, MESSAGES.tooLong];

/** Whether an answer to a member key's write says its token passed the rules jose checks. */
function passedTokenRules(answer: Answer): boolean {
  return answer.status !== 401 || PAST_JOSE.includes(answer.body.message);
}

/** Every record of every store of a database, as one text. */
async function databaseText(name: string): Promise<string> {
  const db = await openDB(name);
  try {
    const stores = [...db.objectStoreNames];
    const records = await Promise.all(stores.map((store) => db.getAll(store)));
    const meta = db.objectStoreNames.contains('meta') ? await db.getAllKeys('meta') : [];
    return JSON.stringify({ records, meta });
  } finally {
    db.close();
  }
}

// The worker answers with its own clock (the real one): tokens are signed for now.
(API_ADAPTER.adapter === 'indexeddb' ? describe : describe.skip)('member tokens through the service worker', () => {
  let es: SigningKey;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    es = await signingKey('worker-key');
    await registerWorker();
    expect((await seed(workerCall, Date.now())).status).to.equal(200);
    const enabled = await workerCall('POST', '/v1/admin/import', { body: memberSettings([es.publicJwk]) });
    expect(enabled.status, enabled.text).to.equal(200);
  });
  after(unregisterWorker);

  const signNow = (claims: Record<string, unknown> = {}) => sign(es, { iat: now(), exp: now() + HOUR_S, ...claims });

  it("verifies as the handler in the page does: the token's member writes, another is refused", async () => {
    const token = await signNow();
    const answer = await endorse(workerCall, token, {}, 'pk_member');
    expect(answer.status, answer.text).to.equal(200);
    const asBob = await endorse(workerCall, token, { from_account: 'bob', to_account: 'carol' });
    expect(asBob.status, asBob.text).to.equal(403);
    expectRefused(
      await endorse(workerCall, await signNow({ iat: now() - 2 * HOUR_S, exp: now() - HOUR_S })),
      'member-token-expired',
      MESSAGES.expired,
    );
    expectRefused(await endorse(workerCall, await signNow({ app_id: 'other' })), 'member-token-other-app', MESSAGES.otherApp);
    expect(await databaseText('questboard')).not.to.contain(token.split('.')[2]);
    const { endorsements } = await exportOf(workerCall);
    expect(endorsements.map((e: any) => e.from_account)).to.deep.equal(['alice']);
  });
});
