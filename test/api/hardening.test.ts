// Inputs that once went wrong: each test names what it guards against.
import { expect } from '@open-wc/testing';
import { ADMIN_KEY, GUIDS, WEDNESDAY, dataset, localApi, seed } from './support.js';

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
      key: ADMIN_KEY,
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
