// Every refusal names its code in X-Questboard-Error (docs/errors.md), with the status the
// catalog (src/api/error-codes.ts) gives it and the seed's body, exactly {is_valid:false, message}:
// through the handler in the page (or the server, per QB_ADAPTERS) and the real service worker.
import { expect } from '@open-wc/testing';
import * as catalog from '../../src/api/error-codes.js';
import type { ErrorCode } from '../../src/api/errors.js';
import {
  API_ADAPTER,
  GUIDS,
  localApi,
  registerWorker,
  seed,
  unregisterWorker,
  workerCall,
  WEDNESDAY,
  type Answer,
  type Call,
  type CallOptions,
} from './support.js';

const STATUS_OF = new Map(
  Object.values(catalog).flatMap((entry) => (typeof entry === 'object' ? [[entry.code, entry.status] as const] : [])),
);

const NO_SUCH_GUID = '99999999-9999-4999-8999-999999999999';
const transfer = (to_address: string, headers: Record<string, string> = {}): CallOptions => ({
  key: 'pk_ledger',
  body: { to_address, quantity: 1 },
  headers,
});

/** A request each code answers, made on the seeded dataset of test/api/support.ts. */
const REFUSALS: { code: ErrorCode; method: string; path: string; options?: CallOptions }[] = [
  { code: 'unknown-operation', method: 'GET', path: '/v1/no_such_operation' },
  { code: 'method-not-allowed', method: 'PUT', path: '/v1/health' },
  { code: 'api-key-missing', method: 'GET', path: `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`, options: { key: null } },
  {
    code: 'api-key-invalid',
    method: 'GET',
    path: `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`,
    options: { key: 'pk_nope' },
  },
  {
    code: 'scope-missing',
    method: 'POST',
    path: '/v1/endorse_account',
    options: { key: 'pk_read', body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'e' } },
  },
  { code: 'other-app', method: 'GET', path: '/v1/get_userinfo?app_id=guild&account_name=alice', options: { key: 'pk_other' } },
  {
    code: 'unsupported-content-type',
    method: 'POST',
    path: '/v1/admin/log_task',
    options: { body: '{}', headers: { 'content-type': 'text/plain' } },
  },
  { code: 'invalid-body', method: 'POST', path: '/v1/admin/log_task', options: { body: '{"task_id":' } },
  { code: 'body-too-large', method: 'POST', path: '/v1/admin/log_task', options: { body: { padding: 'x'.repeat(17_000) } } },
  { code: 'invalid-input', method: 'GET', path: '/v1/get_challenge', options: { key: 'pk_read' } },
  {
    code: 'challenge-not-found',
    method: 'GET',
    path: `/v1/get_challenge?challenge_id=${NO_SUCH_GUID}`,
    options: { key: 'pk_read' },
  },
  {
    code: 'challenge-not-started',
    method: 'GET',
    path: `/v1/get_challenge?challenge_id=${GUIDS.future}`,
    options: { key: 'pk_read' },
  },
  {
    code: 'task-not-found',
    method: 'GET',
    path: `/v1/get_task_progress?task_id=${NO_SUCH_GUID}&account_name=alice`,
    options: { key: 'pk_read' },
  },
  { code: 'app-not-found', method: 'GET', path: '/v1/get_userinfo?app_id=nope&account_name=alice' },
  {
    code: 'member-not-found',
    method: 'GET',
    path: '/v1/get_userinfo?app_id=guild&account_name=nobody',
    options: { key: 'pk_read' },
  },
  {
    code: 'self-endorsement',
    method: 'POST',
    path: '/v1/endorse_account',
    options: { key: 'pk_write', body: { app_id: 'guild', from_account: 'alice', to_account: 'alice', endorsement_id: 'e' } },
  },
  { code: 'transfer-pre-check', method: 'POST', path: '/v1/airdrop_token_ledger', options: transfer('not-an-account') },
  {
    code: 'invalid-idempotency-key',
    method: 'POST',
    path: '/v1/airdrop_token_ledger',
    options: transfer('0.0.2002', { 'Idempotency-Key': 'has spaces' }),
  },
];

function expectRefusal(answer: Answer, code: ErrorCode): void {
  expect(answer.headers.get('X-Questboard-Error'), answer.text).to.equal(code);
  expect(answer.status, answer.text).to.equal(STATUS_OF.get(code));
  expect(Object.keys(answer.body)).to.deep.equal(['is_valid', 'message']);
  expect(answer.body.is_valid).to.equal(false);
  expect(answer.body.message).to.be.a('string').with.length.above(0);
}

function refusesWithCodes(call: () => Call): void {
  for (const { code, method, path, options } of REFUSALS) {
    it(`${code}: ${method} ${path.slice(0, 60)}`, async () => {
      expectRefusal(await call()(method, path, options), code);
    });
  }

  it('idempotency-key-reused: one Idempotency-Key for two different transfers', async () => {
    const key = { 'Idempotency-Key': `key-${crypto.randomUUID()}` };
    expect((await call()('POST', '/v1/airdrop_token_ledger', transfer('0.0.2002', key))).status).to.equal(200);
    expectRefusal(await call()('POST', '/v1/airdrop_token_ledger', transfer('0.0.2003', key)), 'idempotency-key-reused');
  });

  it('answers a success without a code', async () => {
    const answer = await call()('GET', `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`, { key: 'pk_read' });
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('X-Questboard-Error')).to.equal(null);
  });
}

describe(`error codes through the handler (${API_ADAPTER.adapter})`, () => {
  let api: ReturnType<typeof localApi>;
  before(async () => {
    api = localApi({ now: WEDNESDAY });
    const seeded = await seed(api.call, WEDNESDAY);
    expect(seeded.status, seeded.text).to.equal(200);
  });
  after(() => api.close());

  refusesWithCodes(() => api.call);
});

(API_ADAPTER.adapter === 'indexeddb' ? describe : describe.skip)('error codes through the service worker', () => {
  before(async () => {
    await registerWorker();
    const seeded = await seed(workerCall, Date.now());
    expect(seeded.status, seeded.text).to.equal(200);
  });
  after(unregisterWorker);

  refusesWithCodes(() => workerCall);
});
