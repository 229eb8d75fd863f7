// Idempotency-Key (docs/rules.md "Idempotency"): which keys are taken, how long
// a record answers, how expired ones go, and the typed client's keys and retry.
import { expect } from '@open-wc/testing';
import { isGuid } from '../../src/api/formats.js';
import { QuestboardClient } from '../../src/client/client.js';
import type { Transport } from '../../src/client/transport.js';
import { GUIDS, WEDNESDAY, localApi, seed } from './support.js';

const DAY = 24 * 3_600_000;
const KEY_RULE = 'Idempotency-Key: must be 1–255 visible ASCII characters (no spaces).';

describe('Idempotency-Key', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  const airdrop = (quantity: number, idempotencyKey?: string, key = 'pk_ledger') =>
    api.call('POST', '/v1/airdrop_token_ledger', {
      key,
      body: { to_address: '0.0.2002', quantity },
      headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
    });
  const balance = async () => (await api.call('GET', '/v1/admin/export?app_id=guild')).body.apps[0].treasury.balance;
  const records = async () => (await api.idempotencyRecords()).length;

  it('refuses an empty key, and any key that is not 1–255 visible ASCII characters, before doing anything', async () => {
    for (const key of ['', '   ', 'two words', 'tab\there', 'caf\u00e9', 'k'.repeat(256)]) {
      const answer = await airdrop(1, key);
      expect(answer.status, JSON.stringify(key)).to.equal(400);
      expect(answer.body).to.deep.equal({ is_valid: false, message: KEY_RULE });
    }
    // An empty header once stood for a key: the second, different write got 409.
    expect((await airdrop(2, '')).status).to.equal(400);
    expect(await balance()).to.equal('250.5');
    expect(await records()).to.equal(0);
  });

  it('takes every visible ASCII character, up to 255 of them', async () => {
    const visible = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    for (const key of [visible, 'k'.repeat(255), 'x']) {
      const first = await airdrop(1, key);
      expect(first.status, key).to.equal(200);
      expect((await airdrop(1, key)).text).to.equal(first.text);
    }
    expect(await balance()).to.equal('247.5');
  });

  it('takes a resend that spells its amount otherwise, or orders its parameters otherwise, as the same request', async () => {
    const post = (quantityText: string) =>
      api.call('POST', '/v1/airdrop_token_ledger', {
        key: 'pk_ledger',
        body: `{"to_address":"0.0.2002","quantity":${quantityText}}`,
        headers: { 'idempotency-key': 'spelt-1' },
      });
    const first = await post('0.10');
    expect(first.status).to.equal(200);
    for (const text of ['0.1', '1e-1', '0.100', '"0.1"']) expect((await post(text)).text, text).to.equal(first.text);
    expect((await post('0.2')).status).to.equal(409);

    const get = (query: string) =>
      api.call('GET', `/v1/airdrop_token_ledger?${query}`, { key: 'pk_ledger', headers: { 'idempotency-key': 'ordered-1' } });
    const one = await get('to_address=0.0.2002&quantity=1');
    expect(one.status).to.equal(200);
    for (const query of ['quantity=1&to_address=0.0.2002', 'quantity=1.0&to_address=0.0.2002']) {
      expect((await get(query)).text, query).to.equal(one.text);
    }
    expect((await get('quantity=2&to_address=0.0.2002')).status).to.equal(409);
    expect(await balance()).to.equal('249.4');
  });

  it('checks the API key first: a stranger with a bad Idempotency-Key gets 401', async () => {
    expect((await airdrop(1, '', 'nobody')).status).to.equal(401);
  });

  it('answers the first answer for 24 hours, then forgets it so the key may be used afresh', async () => {
    const first = await airdrop(1, 'day-1');
    expect(first.status).to.equal(200);
    api.clock.now = WEDNESDAY + DAY - 1;
    expect((await airdrop(1, 'day-1')).text).to.equal(first.text);
    expect((await airdrop(2, 'day-1')).status).to.equal(409);
    expect(await balance()).to.equal('249.5');

    api.clock.now = WEDNESDAY + DAY;
    const fresh = await airdrop(2, 'day-1');
    expect(fresh.status).to.equal(200);
    expect(fresh.body.tx_id).to.not.equal(first.body.tx_id);
    expect((await airdrop(2, 'day-1')).text).to.equal(fresh.text);
    expect((await airdrop(1, 'day-1')).status).to.equal(409);
    expect(await balance()).to.equal('247.5');
  });

  it('deletes expired records ten at a time as keyed writes go', async () => {
    const connect = (idempotencyKey: string) =>
      api.call('POST', '/v1/connect_social', {
        body: { app_id: 'guild', account_name: 'alice', twitter_name: 'alice_x' },
        headers: { 'idempotency-key': idempotencyKey },
      });
    for (let i = 0; i < 25; i++) expect((await connect(`old-${i}`)).status).to.equal(200);
    expect(await records()).to.equal(25);
    api.clock.now = WEDNESDAY + DAY + 1;
    const counts = [];
    for (let i = 0; i < 3; i++) {
      await connect(`new-${i}`);
      counts.push(await records());
    }
    // 25 expired: 15, then 5, then none left, each write adding its own.
    expect(counts).to.deep.equal([16, 7, 3]);
  });
});

describe('the typed client and Idempotency-Key', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  /** A transport over the handler in the page that records each request's key, and may lose answers. */
  function transport(loseAnswers = 0) {
    const sent: { path: string; key: string | null }[] = [];
    const over: Transport = {
      kind: 'in-page',
      id: `test ${api.name}`,
      announcesChanges: true,
      async send(path, init) {
        const headers = new Headers(init.headers);
        sent.push({ path, key: headers.get('idempotency-key') });
        const answer = await api.call(init.method!, `/${path}`, {
          key: null,
          headers: Object.fromEntries(headers),
          ...(init.body === undefined ? {} : { body: init.body as string }),
        });
        // The write committed, but its answer never came back (a worker restarted).
        if (loseAnswers-- > 0) throw new TypeError('Failed to fetch');
        return new Response(answer.text, { status: answer.status, headers: answer.headers });
      },
    };
    return { over, sent };
  }

  it('sends a fresh Idempotency-Key with every write, and the caller’s own for an airdrop', async () => {
    const { over, sent } = transport();
    const admin = new QuestboardClient({ transport: over, apiKey: 'sk_admin' });
    await admin.endorseAccount({ app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'e' });
    await admin.connectSocial({ app_id: 'guild', account_name: 'bob', twitter_name: 'bob_x' });
    await admin.admin.logTask({ task_id: GUIDS.posts, account_name: 'bob', quantity: 1 });
    await new QuestboardClient({ transport: over, apiKey: 'pk_ledger' }).airdrop({ to_address: '0.0.2002', quantity: 1 });
    const keys = sent.map(({ key }) => key!);
    expect(keys.every(isGuid), keys.join()).to.equal(true);
    expect(new Set(keys).size).to.equal(4);

    await new QuestboardClient({ transport: over, apiKey: 'pk_ledger' }).airdrop({
      to_address: '0.0.2002',
      quantity: 1,
      idempotencyKey: 'mine-1',
    });
    expect(sent.at(-1)!.key).to.equal('mine-1');
    await admin.getUserInfo({ app_id: 'guild', account_name: 'bob' });
    expect(sent.at(-1)).to.deep.equal({ path: 'v1/get_userinfo?app_id=guild&account_name=bob', key: null });
  });

  it('sends a write whose answer was lost once more with the same key, and it is done once', async () => {
    const { over, sent } = transport(1);
    const admin = new QuestboardClient({ transport: over, apiKey: 'sk_admin' });
    const progress = await admin.admin.logTask({ task_id: GUIDS.posts, account_name: 'bob', quantity: 1 });
    expect(progress.quantity_completed).to.equal(1);
    expect(sent).to.have.length(2);
    expect(sent[1]!.key).to.be.a('string').and.equal(sent[0]!.key);
    expect(
      (await api.call('GET', `/v1/get_task_progress?task_id=${GUIDS.posts}&account_name=bob`)).body.quantity_completed,
    ).to.equal(1);

    const ledger = new QuestboardClient({ transport: transport(1).over, apiKey: 'pk_ledger' });
    await ledger.airdrop({ to_address: '0.0.2002', quantity: 1 });
    expect((await api.call('GET', '/v1/admin/export?app_id=guild')).body.apps[0].treasury.balance).to.equal('249.5');
  });
});
