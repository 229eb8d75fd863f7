// Inputs that once went wrong: each test names what it guards against.
import { expect } from '@open-wc/testing';
import { sha256Hex } from '../../src/api/key-hash.js';
import { ADMIN_KEY, GUIDS, WEDNESDAY, dataset, localApi, registerWorker, seed, unregisterWorker, workerCall } from './support.js';

describe('hardening', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  const airdrop = (body: Record<string, unknown>, key = 'pk_ledger', headers: Record<string, string> = {}) =>
    api.call('POST', '/v1/airdrop_token_ledger', { key, body: { to_address: '0.0.2002', ...body }, headers });

  it('refuses an amount with a huge exponent at once, without building it', async () => {
    for (const quantity of ['1e100000000', '1e1000000000', '123456789012345678901']) {
      const answer = await airdrop({ quantity });
      expect(answer.body.message, quantity).to.equal('Transaction Failed Pre-Check: InsufficientPayerBalance');
    }
    const tiny = await airdrop({ quantity: '1e-100000000' });
    expect(tiny.body.message).to.equal('Transaction Failed Pre-Check: InvalidAccountAmounts');
  });

  it('refuses a fifth decimal on any quantity, large or small', async () => {
    for (const quantity of [1.00005, 100.00005, 123456.12345]) {
      const answer = await api.call('POST', '/v1/admin/log_task', {
        body: { task_id: GUIDS.posts, account_name: 'bob', quantity },
      });
      expect(answer.status, String(quantity)).to.equal(400);
      expect(answer.body.message).to.equal('quantity: must have at most 4 decimals.');
    }
    const huge = await api.call('POST', '/v1/admin/log_task', {
      body: { task_id: GUIDS.posts, account_name: 'bob', quantity: 1e12 },
    });
    expect(huge.body.message).to.equal('quantity: must be at most 1000000000.');
  });

  it('counts the query string in an Idempotency-Key fingerprint', async () => {
    const headers = { 'idempotency-key': 'q-1' };
    const first = await api.call('GET', '/v1/airdrop_token_ledger?to_address=0.0.2002&quantity=1', { key: 'pk_ledger', headers });
    expect(first.status).to.equal(200);
    const other = await api.call('GET', '/v1/airdrop_token_ledger?to_address=0.0.2002&quantity=2', { key: 'pk_ledger', headers });
    expect(other.status).to.equal(409);
  });

  it('answers 403 when an app key names another app to pay', async () => {
    const answer = await airdrop({ quantity: 1, app_id: 'other' });
    expect(answer.status).to.equal(403);
    const own = await airdrop({ quantity: 1, app_id: 'guild' });
    expect(own.status).to.equal(200);
  });

  it('compares treasury accounts by number, not by text', async () => {
    const body = dataset(WEDNESDAY);
    body.apps[0]!.treasury = { account_id: '0.0.01001', balance: '5' };
    await api.call('POST', '/v1/admin/import', { body: { apps: [body.apps[0]] } });
    const self = await airdrop({ quantity: 1, to_address: '0.0.1001' });
    expect(self.body.message).to.equal('Transaction Failed Pre-Check: AccountRepeatedInAccountAmounts');
    const paid = await airdrop({ quantity: 1 });
    expect(paid.body.tx_id).to.match(/^0\.0\.1001-/);
  });

  it('checks the key before the input: 401, not 400, for a stranger', async () => {
    const answer = await api.call('GET', '/v1/get_challenge?challenge_id=NOPE', { key: 'nobody' });
    expect(answer.status).to.equal(401);
    const importing = await api.call('POST', '/v1/admin/import', { key: 'nobody', body: '{not even json' });
    expect(importing.status).to.equal(401);
    // A small body is read before its key is checked; a refused one still answers for the key first.
    const endorsing = await api.call('POST', '/v1/endorse_account', { key: 'nobody', body: '{not even json' });
    expect(endorsing.status).to.equal(401);
    const underScoped = await api.call('POST', '/v1/endorse_account', { key: 'pk_read', body: { nope: 1 } });
    expect(underScoped.status).to.equal(403);
  });

  it('never lets an app key shadow an installation admin key, nor the reverse', async () => {
    const shadow = await api.call('POST', '/v1/admin/import', {
      key: 'pk_other',
      body: { apps: [{ app_id: 'other', api_keys: [{ key: ADMIN_KEY, scopes: ['read'] }] }] },
    });
    expect(shadow.status).to.equal(200);
    const reverse = await api.call('POST', '/v1/admin/import', { body: { admin_keys: ['pk_read'] } });
    expect(reverse.status).to.equal(409);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild')).status).to.equal(200);
    expect((await api.call('GET', '/v1/admin/export?app_id=other')).body.apps[0].api_keys).to.not.deep.include({
      key_sha256: sha256Hex(ADMIN_KEY),
      scopes: ['read'],
    });
  });

  it('answers an app admin’s import alike whether its keys are free, another app’s or the installation’s', async () => {
    const importing = (key: string) =>
      api.call('POST', '/v1/admin/import', {
        key: 'pk_other',
        body: { apps: [{ app_id: 'other', api_keys: [{ key, scopes: ['read', 'admin'] }] }] },
      });
    const free = await importing('pk_other_new_0123456789');
    for (const taken of ['pk_read', ADMIN_KEY]) {
      const answer = await importing(taken);
      expect({ status: answer.status, body: answer.body }, taken).to.deep.equal({ status: free.status, body: free.body });
    }
    expect(free.status).to.equal(200);
    // Each key stays its owner's: pk_read reads guild, and opens nothing of other's.
    expect((await api.call('GET', '/v1/get_userinfo?app_id=guild&account_name=bob', { key: 'pk_read' })).status).to.equal(200);
    expect((await api.call('GET', '/v1/admin/export?app_id=other', { key: 'pk_read' })).status).to.equal(403);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild')).status).to.equal(200);
  });

  it('does not confirm that another app owns a challenge id', async () => {
    const answer = await api.call('POST', '/v1/admin/import', {
      key: 'pk_other',
      body: { apps: [{ app_id: 'other', challenges: [{ challenge_id: GUIDS.onboarding, name: 'x', tasks: [] }] }] },
    });
    expect(answer.status).to.equal(409);
    expect(answer.body.message).to.equal('apps[0].challenges[0].challenge_id: this id is not available.');
  });

  it('accepts only four-digit years with a zone in dataset dates', async () => {
    for (const at of ['+010000-01-01T00:00:00Z', '2026-11-20', 'Fri, 20 Nov 2026 10:00:00 GMT', '2026-11-20T10:00:00']) {
      const answer = await api.call('POST', '/v1/admin/import', {
        body: { apps: [{ app_id: 'guild', progress: [{ task_id: GUIDS.posts, account_name: 'bob', quantity: 1, at }] }] },
      });
      expect(answer.status, at).to.equal(400);
      expect(answer.body.message).to.match(/^apps\.0\.progress\.0\.at: must be an ISO 8601 date-time/);
    }
  });

  it('refuses limit=0 and long endorsement ids in imports as in live calls', async () => {
    expect((await api.call('GET', '/v1/get_leaderboard?app_id=guild&limit=0')).status).to.equal(400);
    const answer = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [{ app_id: 'guild', endorsements: [{ from_account: 'alice', to_account: 'bob', endorsement_id: 'x'.repeat(65) }] }],
      },
    });
    expect(answer.status).to.equal(400);
  });

  it('announces an endorsement once: a repeat changes nothing', async () => {
    const body = { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'kind' };
    const before = api.changes.length;
    await api.call('POST', '/v1/endorse_account', { body });
    await api.call('POST', '/v1/endorse_account', { body });
    expect(api.changes.length - before).to.equal(1);
  });
});

// Ids and keys are bounded and refused the same on every store (a long one once broke
// PostgreSQL's index rows and NOTIFY, and was kept by IndexedDB and PGlite).
describe('ids and keys', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  const importApp = (app: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/v1/admin/import', { body: { apps: [app], ...extra } });
  const endorse = (fields: Record<string, unknown>) =>
    api.call('POST', '/v1/endorse_account', {
      body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'kind', ...fields },
    });
  const refused = (answer: { status: number; body: any }, message: string) => {
    expect(answer.status, answer.body?.message).to.equal(400);
    expect(answer.body).to.deep.equal({ is_valid: false, message });
  };

  it('bounds app_id at 128 characters in queries, bodies and imports', async () => {
    const long = 'a'.repeat(129);
    for (const app_id of [long, 'a'.repeat(3000), 'a'.repeat(9000)]) {
      const message = 'app_id: must be at most 128 characters.';
      refused(await api.call('GET', `/v1/get_leaderboard?app_id=${app_id}`), message);
      refused(await api.call('GET', `/v1/get_userinfo?app_id=${app_id}&account_name=alice`), message);
      refused(await api.call('GET', `/v1/admin/export?app_id=${app_id}`), message);
      refused(await endorse({ app_id }), message);
      refused(
        await api.call('POST', '/v1/connect_social', { body: { app_id, account_name: 'alice', twitter_name: 'a' } }),
        message,
      );
      refused(await importApp({ app_id }), 'apps.0.app_id: must be at most 128 characters.');
    }
    const longest = 'a'.repeat(128);
    expect((await importApp({ app_id: longest, users: [{ account_name: 'x' }] })).status).to.equal(200);
    const board = await api.call('GET', `/v1/get_leaderboard?app_id=${longest}`);
    expect(board.status).to.equal(200);
    expect(board.body.total_users).to.equal(1);
  });

  it('bounds keys at 256 characters: in a dataset, in admin_keys and in the Authorization header', async () => {
    for (const key of ['k'.repeat(257), 'k'.repeat(3000)]) {
      refused(
        await importApp({ app_id: 'guild', api_keys: [{ key, scopes: ['read'] }] }),
        'apps.0.api_keys.0.key: must be at most 256 characters.',
      );
      refused(
        await api.call('POST', '/v1/admin/import', { body: { admin_keys: [key] } }),
        'admin_keys.0: must be at most 256 characters.',
      );
      refused(
        await api.call('GET', '/v1/get_leaderboard?app_id=guild', { key }),
        'Authorization: must be at most 256 characters.',
      );
    }
    const longest = 'k'.repeat(256);
    expect((await importApp({ app_id: 'guild', api_keys: [{ key: longest, scopes: ['read'] }] })).status).to.equal(200);
    expect((await api.call('GET', '/v1/get_leaderboard?app_id=guild', { key: longest })).status).to.equal(200);
  });

  it('refuses control characters, unpaired surrogates, bidi controls and blanks in ids', async () => {
    const FORMAT = 'must not contain format characters (zero-width, soft hyphen, bidi controls)';
    const cases: [string, string][] = [
      ['nul\u0000', 'must not contain control characters'],
      ['line\nbreak', 'must not contain control characters'],
      ['del\u007f', 'must not contain control characters'],
      ['half\ud800', 'must not contain unpaired surrogates'],
      ['\udc00half', 'must not contain unpaired surrogates'],
      ['evil\u202egnp.exe', FORMAT],
      ['\u202aembedded', FORMAT],
      ['isolate\u2067x\u2069', FORMAT],
      ['   ', 'must not be only white space'],
      ['\u3000 ', 'must not be only white space'],
      ['zero\u200bwidth', FORMAT],
    ];
    for (const [id, why] of cases) {
      refused(await endorse({ endorsement_id: id }), `endorsement_id: ${why}.`);
      refused(
        await importApp({ app_id: 'guild', endorsements: [{ from_account: 'alice', to_account: 'bob', endorsement_id: id }] }),
        `apps.0.endorsements.0.endorsement_id: ${why}.`,
      );
      refused(await endorse({ app_id: id }), `app_id: ${why}.`);
      refused(await importApp({ app_id: id }), `apps.0.app_id: ${why}.`);
      refused(await importApp({ app_id: 'guild', api_keys: [{ key: id, scopes: ['read'] }] }), `apps.0.api_keys.0.key: ${why}.`);
    }
    // Letters of any script, emoji and marks a name may hold stay ids.
    for (const id of ['kind', 'très-utile', 'مفيد', '👍', 'a b'])
      expect((await endorse({ endorsement_id: id })).status, id).to.equal(200);
  });

  it('refuses an allowed origin with a wildcard, which would match no request', async () => {
    for (const origin of ['https://*.example.org', '*', 'https://*', 'https://forum.example.*']) {
      const answer = await importApp({ app_id: 'guild', settings: { allowed_origins: ['https://forum.example.org', origin] } });
      refused(
        answer,
        'apps.0.settings.allowed_origins.1: must be an origin as a browser sends it, scheme://host[:port], such as https://forum.example.org.',
      );
    }
    expect((await importApp({ app_id: 'guild', settings: { allowed_origins: ['https://forum.example.org'] } })).status).to.equal(
      200,
    );
  });
});

// A body is UTF-8 JSON: bytes that are not UTF-8 are refused, never read as U+FFFD and kept.
describe('the encoding of a request body', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));
  const endorsing = (endorsementId: (string | number[])[]) =>
    bytes('{"app_id":"guild","from_account":"alice","to_account":"bob","endorsement_id":"', ...endorsementId, '"}');
  const endorse = (body: Uint8Array, contentType = 'application/json') =>
    api.call('POST', '/v1/endorse_account', { body, headers: { 'content-type': contentType } });
  const endorsementsOfBob = async () =>
    (await api.call('GET', '/v1/admin/export?app_id=guild')).body.apps[0].endorsements.filter(
      (endorsement: { to_account: string }) => endorsement.to_account === 'bob',
    );

  it('refuses invalid UTF-8 with a 400, and keeps nothing', async () => {
    // A lone continuation byte, a truncated sequence, an overlong '/', an encoded surrogate, past U+10FFFF.
    for (const bad of [[0x80], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff]]) {
      const answer = await endorse(endorsing(['x', bad]));
      expect(answer.status, String(bad)).to.equal(400);
      expect(answer.body).to.deep.equal({ is_valid: false, message: 'The request body is not valid UTF-8.' });
    }
    expect(await endorsementsOfBob()).to.deep.equal([]);
    expect((await endorse(endorsing(['x', [0xc3, 0xa9]]))).status).to.equal(200);
    expect((await endorsementsOfBob()).map((e: { endorsement_id: string }) => e.endorsement_id)).to.deep.equal(['xé']);
  });

  it('refuses a body declared in another charset with a 415, and takes any spelling of UTF-8', async () => {
    const body = endorsing(['declared']);
    for (const type of [
      'application/json; charset=utf-16',
      'application/json; charset=ISO-8859-1',
      'application/json;charset=nonsense',
    ]) {
      const answer = await endorse(body, type);
      expect(answer.status, type).to.equal(415);
      expect(answer.body).to.deep.equal({
        is_valid: false,
        message: 'Unsupported content-type: send the body as application/json, in UTF-8.',
      });
    }
    for (const type of [
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
    ]) {
      expect((await endorse(body, type)).status, type).to.equal(200);
    }
  });
});

// The same through the service worker: the Request a fetch event hands it carries the page's bytes.
describe('the encoding of a request body, through the service worker', () => {
  before(async () => {
    await registerWorker();
    const seeded = await workerCall('POST', '/v1/admin/import?mode=replace', { body: dataset(Date.now()) });
    expect(seeded.status, seeded.text).to.equal(200);
  });
  after(unregisterWorker);

  const endorse = (body: Uint8Array, contentType = 'application/json') =>
    workerCall('POST', '/v1/endorse_account', { key: 'pk_write', body, headers: { 'content-type': contentType } });
  const endorsing = (id: number[]) =>
    new Uint8Array([
      ...new TextEncoder().encode('{"app_id":"guild","from_account":"alice","to_account":"bob","endorsement_id":"'),
      ...id,
      ...new TextEncoder().encode('"}'),
    ]);

  it('refuses invalid UTF-8 with a 400 and another charset with a 415', async () => {
    const invalid = await endorse(endorsing([0x78, 0xff]));
    expect(invalid.status).to.equal(400);
    expect(invalid.body).to.deep.equal({ is_valid: false, message: 'The request body is not valid UTF-8.' });
    const utf16 = await endorse(endorsing([0x78]), 'application/json; charset=utf-16');
    expect(utf16.status).to.equal(415);
    expect((await endorse(endorsing([0x78, 0xc3, 0xa9]), 'application/json; charset=utf-8')).status).to.equal(200);
  });
});
