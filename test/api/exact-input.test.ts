// Input read exactly as sent: amounts from the JSON number's own digits (POST and GET agree
// on every digit string), nesting bounded without recursion, `__proto__` kept as a key,
// points bounded so totals stay exact.
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { ADMIN_KEY, GUIDS, WEDNESDAY, localApi, seed, type Call } from './support.js';

const RICH = '99999999999';
const HUGE = '9007199254740999';

/** Apps whose treasuries can pay anything asked below; a ledger key for each. */
function treasuries(balances: Record<string, string>) {
  return {
    admin_keys: [ADMIN_KEY],
    apps: Object.entries(balances).map(([app_id, balance], index) => ({
      app_id,
      api_keys: [{ key: `pk_ledger_${app_id}`, scopes: ['ledger'] }],
      treasury: { account_id: `0.0.${5000 + index}`, balance },
    })),
  };
}

const balanceOf = async (call: Call, app_id: string): Promise<string> =>
  (await call('GET', `/v1/admin/export?app_id=${app_id}`)).body.apps[0].treasury.balance;

/** POST with the number written as is: JSON.stringify would have rounded it already. */
const postAirdrop = (call: Call, app_id: string, quantityText: string) =>
  call('POST', '/v1/airdrop_token_ledger', {
    key: `pk_ledger_${app_id}`,
    body: `{"to_address":"0.0.2002","quantity":${quantityText}}`,
  });
const getAirdrop = (call: Call, app_id: string, quantityText: string) =>
  call('GET', `/v1/airdrop_token_ledger?to_address=0.0.2002&quantity=${encodeURIComponent(quantityText)}`, {
    key: `pk_ledger_${app_id}`,
  });

describe('exact input', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
  });
  afterEach(() => api.close());

  it('pays a POSTed amount to the tinybar, from the number as written', async () => {
    const cases: [string, string, string][] = [
      // [balance, quantity as written, balance after]
      [RICH, '12345678901.2345678', '87654321097.7654322'],
      [RICH, '1234567890.12345678', '98765432108.87654322'],
      [HUGE, '9007199254740993', '6'],
      [RICH, '1.5e3', '99999998499'],
    ];
    for (const [index, [balance, quantity, after]] of cases.entries()) {
      const app = `rich${index}`;
      expect((await api.call('POST', '/v1/admin/import', { body: treasuries({ [app]: balance }) })).status).to.equal(200);
      const answer = await postAirdrop(api.call, app, quantity);
      expect(answer.status, `${quantity}: ${answer.text}`).to.equal(200);
      expect(await balanceOf(api.call, app), quantity).to.equal(after);
    }
  });

  it('refuses a sixteenth decimal instead of rounding it away, as the GET form does', async () => {
    expect((await api.call('POST', '/v1/admin/import', { body: treasuries({ rich: RICH }) })).status).to.equal(200);
    for (const send of [postAirdrop, getAirdrop]) {
      const answer = await send(api.call, 'rich', '1.0000000000000001');
      expect(answer.status).to.equal(400);
      expect(answer.body.message).to.equal('Transaction Failed Pre-Check: InvalidAccountAmounts');
    }
    expect(await balanceOf(api.call, 'rich')).to.equal(RICH);
  });

  it('answers POST and GET alike for every digit string: status, message and balance', async () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((list) => list.join(''));
    const amount = fc
      .record({
        whole: digits(1, 13).map((text) => text.replace(/^0+(?=\d)/, '')),
        fraction: fc.option(digits(1, 11), { nil: undefined }),
        exponent: fc.option(fc.integer({ min: -12, max: 4 }), { nil: undefined }),
      })
      .map(
        ({ whole, fraction, exponent }) =>
          `${whole}${fraction ? `.${fraction}` : ''}${exponent === undefined ? '' : `e${exponent}`}`,
      );
    expect((await api.call('POST', '/v1/admin/import', { body: treasuries({ bypost: RICH, byget: RICH }) })).status).to.equal(
      200,
    );
    await fc.assert(
      fc.asyncProperty(amount, async (quantity) => {
        const [post, get] = [await postAirdrop(api.call, 'bypost', quantity), await getAirdrop(api.call, 'byget', quantity)];
        expect(post.status, `${quantity}: ${post.text} / ${get.text}`).to.equal(get.status);
        expect(post.body.message, quantity).to.equal(get.body.message);
        expect(await balanceOf(api.call, 'bypost'), quantity).to.equal(await balanceOf(api.call, 'byget'));
      }),
      { seed: 20261123, numRuns: 80 },
    );
  });

  it('reads log_task quantities from their digits: at most four decimals, none rounded away', async () => {
    const log = (quantityText: string) =>
      api.call('POST', '/v1/admin/log_task', {
        body: `{"task_id":"${GUIDS.profile}","account_name":"bob","quantity":${quantityText}}`,
      });
    for (const refused of ['1.00001', '1.0000000000000001', '1e-5']) {
      const answer = await log(refused);
      expect(answer.status, refused).to.equal(400);
      expect(answer.body.message, refused).to.equal('quantity: must have at most 4 decimals.');
    }
    const missing = await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.profile, account_name: 'bob' } });
    expect(missing.body.message).to.equal('quantity: is required.');
    const accepted = await log('2.50000');
    expect(accepted.status, accepted.text).to.equal(200);
    expect(accepted.text).to.contain('"quantity_completed":2.5000');
  });

  it('refuses nesting past the limits with a 400, however deep, and never overflows', async () => {
    // 8,000 levels fit the 16 KiB limit of an ordinary write; an import may send far more.
    for (const [path, depth] of [
      ['/v1/endorse_account', 8_000],
      ['/v1/admin/import', 200_000],
    ] as const) {
      const deep = await api.call('POST', path, { body: `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}` });
      expect(deep.status, path).to.equal(400);
      expect(deep.body.message, path).to.equal('The request body nests deeper than 64 levels.');
    }

    const metadata = JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`);
    const imported = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          { app_id: 'other', challenges: [{ name: 'Deep', tasks: [{ name: 'Deep', quantity: 1, operator: 0, metadata }] }] },
        ],
      },
    });
    expect(imported.status).to.equal(400);
    expect(imported.body.message).to.equal('apps.0.challenges.0.tasks.0.metadata: must nest at most 32 levels.');
  });

  it('keeps __proto__ and other odd keys in metadata, through get_challenge and export → import', async () => {
    const raw =
      `{"apps":[{"app_id":"other","challenges":[{"challenge_id":"${GUIDS.otherChallenge}","name":"Other","tasks":[` +
      `{"task_id":"${GUIDS.otherTask}","name":"Odd","quantity":1,"operator":0,` +
      `"metadata":{"__proto__":{"admin":true},"constructor":"c","quantity":3.10,"nested":{"__proto__":[1]}}}]}]}]}`;
    expect((await api.call('POST', '/v1/admin/import', { body: raw })).status).to.equal(200);
    const challengeMetadata = async (call: Call) =>
      JSON.parse(
        (await call('GET', `/v1/get_challenge?challenge_id=${GUIDS.otherChallenge}`, { key: 'pk_other' })).body.tasks[0].metadata,
      );
    const expected = JSON.parse('{"__proto__":{"admin":true},"constructor":"c","quantity":3.1,"nested":{"__proto__":[1]}}');
    expect(Object.keys(await challengeMetadata(api.call))).to.deep.equal(['__proto__', 'constructor', 'quantity', 'nested']);
    expect(await challengeMetadata(api.call)).to.deep.equal(expected);
    expect(({} as { admin?: boolean }).admin).to.equal(undefined);

    const exported = await api.call('GET', '/v1/admin/export?app_id=other');
    const fresh = localApi({ now: WEDNESDAY });
    try {
      expect((await seed(fresh.call, WEDNESDAY)).status).to.equal(200);
      expect((await fresh.call('POST', '/v1/admin/import?mode=replace', { body: exported.text })).status).to.equal(200);
      expect(await challengeMetadata(fresh.call)).to.deep.equal(expected);
    } finally {
      await fresh.close();
    }
  });

  it('bounds points, so every total stays an exact integer', async () => {
    const answer = await api.call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'other', challenges: [{ name: 'Big', points: 1_000_001, tasks: [] }] }] },
    });
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.equal('apps.0.challenges.0.points: must be at most 1000000.');
  });
});
