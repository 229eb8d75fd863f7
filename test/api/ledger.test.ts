// The coin transfer: both request forms, the pre-checks, exact amounts,
// parallel transfers against one balance, and idempotent retries; and the ledger's
// history the admin API reads (GET /v1/admin/ledger).
import { expect } from '@open-wc/testing';
import { accountChecksum } from '../../src/api/formats.js';
import { ADMIN_KEY, WEDNESDAY, localApi, registerWorker, unregisterWorker, workerCall as call } from './support.js';

const TX_ID = /^0\.0\.1001-\d+-\d{9}$/;

async function fund(balance: string) {
  const answer = await call('POST', '/v1/admin/import?mode=replace', {
    body: {
      admin_keys: [ADMIN_KEY],
      apps: [
        { app_id: 'bank', api_keys: [{ key: 'pk_bank', scopes: ['ledger'] }], treasury: { account_id: '0.0.1001', balance } },
      ],
    },
  });
  expect(answer.status, answer.text).to.equal(200);
}

const send = (quantity: unknown, to_address = '0.0.2002', headers: Record<string, string> = {}) =>
  call('POST', '/v1/airdrop_token_ledger', { key: 'pk_bank', body: { to_address, quantity }, headers });

const balance = async () => {
  const exported = await call('GET', '/v1/admin/export?app_id=bank');
  return exported.body.apps[0].treasury.balance;
};

describe('airdrop_token_ledger', () => {
  before(registerWorker);
  after(unregisterWorker);

  it('POST with a JSON body pays and answers a unique tx_id', async () => {
    await fund('10');
    const first = await send(1.5);
    expect(first.status).to.equal(200);
    expect(Object.keys(first.body)).to.have.members(['tx_id', 'is_valid', 'message']);
    expect(first.body.tx_id).to.match(TX_ID);
    expect(first.body).to.include({ is_valid: true, message: null });
    const second = await send(1.5);
    expect(second.body.tx_id).not.to.equal(first.body.tx_id);
    expect(await balance()).to.equal('7');
  });

  it('GET with query parameters does the same', async () => {
    await fund('10');
    const answer = await call('GET', '/v1/airdrop_token_ledger?to_address=0.0.2002&quantity=2.25', { key: 'pk_bank' });
    expect(answer.status).to.equal(200);
    expect(answer.body.tx_id).to.match(TX_ID);
    expect(await balance()).to.equal('7.75');
  });

  it('sends 0.1 three times from 0.3 exactly, and the fourth fails', async () => {
    await fund('0.3');
    for (let i = 0; i < 3; i++) expect((await send(0.1)).status, `transfer ${i + 1}`).to.equal(200);
    const fourth = await send(0.1);
    expect(fourth.status).to.equal(400);
    expect(fourth.body).to.deep.equal({ is_valid: false, message: 'Transaction Failed Pre-Check: InsufficientPayerBalance' });
    expect(await balance()).to.equal('0');
  });

  it('50 parallel transfers against a balance for 20: exactly 20 succeed, balance exactly 0', async () => {
    await fund('20');
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(1)));
    const paid = answers.filter((answer) => answer.status === 200);
    expect(paid).to.have.length(20);
    expect(new Set(paid.map((answer) => answer.body.tx_id)).size).to.equal(20);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect(refused.body.message).to.equal('Transaction Failed Pre-Check: InsufficientPayerBalance');
    }
    expect(await balance()).to.equal('0');
  });

  it('words pre-check failures with the SDK codes', async () => {
    await fund('5');
    const cases: [unknown, string, string][] = [
      [1, 'alice', 'InvalidAccountId'],
      [1, '0.0', 'InvalidAccountId'],
      [1, '0.0.2002-abcde', 'InvalidAccountId'],
      [0, '0.0.2002', 'InvalidAccountAmounts'],
      [-1, '0.0.2002', 'InvalidAccountAmounts'],
      [0.000000001, '0.0.2002', 'InvalidAccountAmounts'],
      [1, '0.0.1001', 'AccountRepeatedInAccountAmounts'],
      [6, '0.0.2002', 'InsufficientPayerBalance'],
    ];
    for (const [quantity, to, code] of cases) {
      const answer = await send(quantity, to);
      expect(answer.status, `${String(quantity)} to ${to}`).to.equal(400);
      expect(answer.body).to.deep.equal({ is_valid: false, message: `Transaction Failed Pre-Check: ${code}` });
    }
    expect(await balance()).to.equal('5');
  });

  it('accepts an address with its HIP-15 checksum and 8 decimals', async () => {
    await fund('5');
    expect(accountChecksum('0.0.123')).to.equal('vfmkw');
    const answer = await send(0.00000001, `0.0.2002-${accountChecksum('0.0.2002')}`);
    expect(answer.status, answer.text).to.equal(200);
    expect(await balance()).to.equal('4.99999999');
  });

  it('a retry with the same Idempotency-Key answers the first answer without paying twice', async () => {
    await fund('5');
    const first = await send(1, '0.0.2002', { 'idempotency-key': 'retry-1' });
    const retry = await send(1, '0.0.2002', { 'idempotency-key': 'retry-1' });
    expect(retry.status).to.equal(200);
    expect(retry.text).to.equal(first.text);
    expect(await balance()).to.equal('4');
    const parallel = await Promise.all([1, 2, 3].map(() => send(1, '0.0.2002', { 'idempotency-key': 'retry-2' })));
    expect(new Set(parallel.map((answer) => answer.body.tx_id)).size).to.equal(1);
    expect(await balance()).to.equal('3');
    const conflict = await send(2, '0.0.2002', { 'idempotency-key': 'retry-1' });
    expect(conflict.status).to.equal(409);
    expect(conflict.body.is_valid).to.equal(false);
  });

  it('needs the ledger scope', async () => {
    await fund('5');
    const answer = await call('POST', '/v1/airdrop_token_ledger', { key: 'pk_nope', body: { to_address: '0.0.2', quantity: 1 } });
    expect(answer.status).to.equal(401);
  });
});

describe('GET /v1/admin/ledger', () => {
  let api: ReturnType<typeof localApi>;
  let clock: { now: number };
  beforeEach(async () => {
    clock = { now: WEDNESDAY };
    api = localApi(clock);
    const funded = await api.call('POST', '/v1/admin/import', {
      body: {
        admin_keys: [ADMIN_KEY],
        apps: [
          {
            app_id: 'bank',
            api_keys: [{ key: 'pk_bank', scopes: ['ledger', 'read', 'write'] }],
            treasury: { account_id: '0.0.1001', balance: '10' },
          },
          { app_id: 'unfunded' },
        ],
      },
    });
    expect(funded.status, funded.text).to.equal(200);
  });
  afterEach(() => api.close());

  /** A transfer a minute after the one before, so the history's order is theirs. */
  const pay = async (quantity: number, headers: Record<string, string> = {}) => {
    clock.now += 60_000;
    return api.call('POST', '/v1/airdrop_token_ledger', { key: 'pk_bank', body: { to_address: '0.0.2002', quantity }, headers });
  };
  const ledger = (query = '') => api.call('GET', `/v1/admin/ledger?app_id=bank${query}`);

  it('answers the balance and no transfers before the first', async () => {
    const answer = await ledger();
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body).to.deep.include({ treasury: { account_id: '0.0.1001', balance: '10' }, transfers: [] });
    const unfunded = await api.call('GET', '/v1/admin/ledger?app_id=unfunded');
    expect(unfunded.body).to.deep.include({ treasury: null, transfers: [] });
  });

  it('lists each transfer paid, newest first, with the balance after it, a page at a time', async () => {
    const paid = [];
    for (const quantity of [1, 2.5, 0.25]) paid.push((await pay(quantity)).body.tx_id);
    expect((await pay(100)).status, 'a refused transfer').to.equal(400);
    expect((await pay(1, { 'idempotency-key': 'once' })).status).to.equal(200);
    expect((await pay(1, { 'idempotency-key': 'once' })).status, 'its retry').to.equal(200);
    const answer = await ledger();
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body.treasury.balance).to.equal('5.25');
    const { transfers } = answer.body;
    expect(transfers.map((transfer: { amount: string }) => transfer.amount)).to.deep.equal(['1', '0.25', '2.5', '1']);
    expect(transfers.map((transfer: { balance: string }) => transfer.balance)).to.deep.equal(['5.25', '6.25', '6.5', '9']);
    expect(transfers.slice(1).map((transfer: { tx_id: string }) => transfer.tx_id)).to.deep.equal(paid.reverse());
    expect(transfers[3]).to.deep.equal({
      at: WEDNESDAY + 60_000,
      tx_id: paid[2],
      from_account: '0.0.1001',
      to_address: '0.0.2002',
      amount: '1',
      balance: '9',
    });
    const page = await ledger('&offset=1&limit=2');
    expect(page.body).to.deep.include({ offset: 1, limit: 2 });
    expect(page.body.transfers.map((transfer: { amount: string }) => transfer.amount)).to.deep.equal(['0.25', '2.5']);
  });

  it('is refused 403 to a key without the admin scope, 400 for a bad page', async () => {
    const refused = await api.call('GET', '/v1/admin/ledger?app_id=bank', { key: 'pk_bank' });
    expect(refused.status).to.equal(403);
    expect(refused.body.is_valid).to.equal(false);
    const bad = await ledger('&limit=0');
    expect(bad.status).to.equal(400);
    expect(bad.headers.get('content-type')).to.match(/^application\/json/);
    expect(bad.body).to.deep.equal({ is_valid: false, message: 'limit: must be at least 1.' });
    expect((await api.call('GET', '/v1/admin/ledger')).status, 'no app named').to.equal(400);
  });
});
