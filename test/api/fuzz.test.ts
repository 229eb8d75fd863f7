// A fuzz suite over every operation: generated methods, paths, queries, headers and
// bodies (valid ones bent out of shape, and hostile classics) against the handler over
// real IndexedDB. Whatever comes in, the answer is the JSON error shape or a success,
// never a 5xx, and a refused request changes nothing (the export before equals the
// export after). `npm test` runs a fixed seed and a bounded number of runs;
// `npm run fuzz` runs many more (FUZZ_RUNS, FUZZ_SEED) for release checks.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import fc from 'fast-check';
import { ADMIN_KEY, API_ADAPTER, GUIDS, HOSTILE_NAME, WEDNESDAY, localApi, seed, type Answer, type Call } from './support.js';

const OPERATIONS = [
  'health',
  'get_challenge',
  'endorse_account',
  'get_userinfo',
  'get_endorsement',
  'get_leaderboard',
  'connect_social',
  'get_task_progress',
  'airdrop_token_ledger',
  'admin/log_task',
  'admin/import',
  'admin/export',
];
const FIELDS = [
  'app_id',
  'account_name',
  'from_account',
  'to_account',
  'endorsement_id',
  'twitter_name',
  'task_id',
  'challenge_id',
  'quantity',
  'to_address',
  'leaderboard_type',
  'limit',
  'offset',
  'around',
  'widget_response',
  'locale',
  'mode',
  'apps',
  'admin_keys',
  'users',
  'tasks',
  'metadata',
  '__proto__',
  'constructor',
];
const KEYS = ['pk_read', 'pk_write', 'pk_ledger', 'pk_guild_admin', ADMIN_KEY, 'pk_other', 'nope', ''];

/** Values that have broken parsers and rule engines before, beside fast-check's own. */
const hostileText = fc.constantFrom(
  '',
  ' ',
  '\u200b',
  '\ud800',
  'e\u0301',
  '\u202ealice',
  'alice\u0000',
  HOSTILE_NAME,
  'x'.repeat(20_000),
  '1e400',
  '-0',
  '0.00001',
  '9007199254740993',
  '12345678901.2345678',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  GUIDS.onboarding,
  GUIDS.posts,
  GUIDS.otherTask,
  '0.0.1001',
  '0.0.2002',
  'guild',
  'other',
  'alice',
  'bob',
  'zed',
);
const scalar = fc.oneof(
  hostileText,
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1e9, 1e21, 2 ** 53, 0.1, 1.23456789, null, true, false),
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
);
const bodyObject = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), value, { maxKeys: 6 });
/** Raw body texts: JSON of the above, nesting no parser should recurse into, and junk. */
const bodyText = fc.oneof(
  { weight: 6, arbitrary: bodyObject.map((body) => JSON.stringify(body)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '[1]',
      'null',
      '"text"',
      '{"a":1,"a":2}',
      `{"metadata":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
      '{"__proto__":{"admin":true}}',
      '{"quantity":1.0000000000000001}',
    ),
  },
  { weight: 1, arbitrary: fc.string() },
);
const query = fc.dictionary(
  fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })),
  fc.oneof(hostileText, fc.string()),
  {
    maxKeys: 5,
  },
);

interface Generated {
  method: string;
  path: string;
  query: Record<string, string>;
  key: string | null;
  contentType: string | null;
  idempotencyKey: string | null;
  body: string;
}

/** A request of generated parts: mostly refused at the door (method, path, key, type, JSON). */
const anyRequest: fc.Arbitrary<Generated> = fc.record({
  // No TRACE, CONNECT or TRACK: the browser's Request refuses them before any handler sees them.
  method: fc.constantFrom('GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'get', 'post', 'PROPFIND'),
  path: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...OPERATIONS).map((name) => `/v1/${name}`) },
    { weight: 1, arbitrary: fc.string().map((text) => `/v1/${encodeURIComponent(text)}`) },
  ),
  query,
  key: fc.option(fc.constantFrom(...KEYS), { nil: null }),
  contentType: fc.option(
    fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'APPLICATION/JSON'),
    {
      nil: null,
    },
  ),
  // Any text a header can carry (the browser refuses the rest before a handler sees it).
  idempotencyKey: fc.option(
    fc.oneof(
      fc.string().filter((text) => /^[\x20-\x7e]*$/.test(text)),
      fc.constantFrom('', 'k1', 'k1', 'x'.repeat(300)),
    ),
    {
      nil: null,
    },
  ),
  body: bodyText,
});

/** Metadata a site may attach to a task: nested deep, keyed oddly. */
const metadata = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.integer({ min: 1, max: 4_000 }).map((depth) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  fc.constant(JSON.parse('{"__proto__":{"x":1},"constructor":"c","toString":1}')),
);

/** One valid request per operation, for the generator to bend. */
const VALID: Array<{
  method: string;
  path: string;
  key: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}> = [
  { method: 'GET', path: '/v1/get_challenge', key: 'pk_read', query: { challenge_id: GUIDS.onboarding } },
  {
    method: 'POST',
    path: '/v1/endorse_account',
    key: 'pk_write',
    body: { app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: 'kind' },
  },
  { method: 'GET', path: '/v1/get_userinfo', key: 'pk_read', query: { app_id: 'guild', account_name: 'alice' } },
  {
    method: 'GET',
    path: '/v1/get_leaderboard',
    key: 'pk_read',
    query: { app_id: 'guild', leaderboard_type: 'score', limit: '10', around: 'bob' },
  },
  {
    method: 'POST',
    path: '/v1/connect_social',
    key: 'pk_write',
    body: { app_id: 'guild', account_name: 'carol', twitter_name: 'carol_x' },
  },
  { method: 'GET', path: '/v1/get_task_progress', key: 'pk_read', query: { task_id: GUIDS.posts, account_name: 'alice' } },
  { method: 'POST', path: '/v1/airdrop_token_ledger', key: 'pk_ledger', body: { to_address: '0.0.2002', quantity: 1.5 } },
  { method: 'GET', path: '/v1/airdrop_token_ledger', key: 'pk_ledger', query: { to_address: '0.0.2002', quantity: '0.25' } },
  {
    method: 'POST',
    path: '/v1/admin/log_task',
    key: 'pk_guild_admin',
    body: { task_id: GUIDS.posts, account_name: 'bob', quantity: 1 },
  },
  { method: 'GET', path: '/v1/admin/export', key: ADMIN_KEY, query: { app_id: 'guild' } },
];

/** A valid request with up to three fields of its body or query replaced, or a task of an import given odd metadata. */
const bentRequest: fc.Arbitrary<Generated> = fc.oneof(
  fc
    .record({
      valid: fc.constantFrom(...VALID),
      changes: fc.dictionary(fc.constantFrom(...FIELDS), value, { minKeys: 1, maxKeys: 3 }),
      idempotencyKey: fc.option(fc.constantFrom('k1', 'k2', ''), { nil: null }),
    })
    .map(({ valid, changes, idempotencyKey }) => {
      const textChanges = Object.fromEntries(
        Object.entries(changes).map(([name, change]) => [name, typeof change === 'string' ? change : JSON.stringify(change)]),
      );
      return {
        method: valid.method,
        path: valid.path,
        key: valid.key,
        contentType: 'application/json',
        idempotencyKey,
        query: valid.query ? { ...valid.query, ...textChanges } : {},
        body: JSON.stringify(valid.body ? { ...valid.body, ...changes } : {}),
      };
    }),
  fc.record({ metadata, mode: fc.constantFrom('merge', 'replace') }).map(({ metadata: taskMetadata, mode }) => ({
    method: 'POST',
    path: '/v1/admin/import',
    key: ADMIN_KEY,
    contentType: 'application/json',
    idempotencyKey: null,
    query: { mode },
    body: JSON.stringify({
      apps: [
        {
          app_id: 'other',
          challenges: [
            {
              challenge_id: GUIDS.otherChallenge,
              name: 'Other',
              tasks: [{ task_id: GUIDS.otherTask, name: 'Odd', quantity: 1, operator: 0, metadata: taskMetadata }],
            },
          ],
        },
      ],
    }),
  })),
);

const request = fc.oneof(anyRequest, bentRequest);

/** Values the runner passes in: a fixed seed and a few runs unless `npm run fuzz` asks for more. */
async function settings(): Promise<{ runs: number; seed: number }> {
  return executeServerCommand('fuzz-settings');
}

describe('fuzz: every operation, generated requests', () => {
  it('answers the JSON error shape or a success, never a 5xx, and a refusal changes nothing', async function () {
    const { runs, seed: fuzzSeed } = await settings();
    this.timeout(30_000 + runs * 1_000);
    const api = localApi({ now: WEDNESDAY });
    try {
      expect((await seed(api.call, WEDNESDAY)).status).to.equal(200);
      const snapshot = async () =>
        (await Promise.all(['guild', 'other'].map((app) => api.call('GET', `/v1/admin/export?app_id=${app}`)))).map(
          (answer) => answer.text,
        );

      const outcome = await fc.check(
        fc.asyncProperty(request, async (generated) => {
          const before = await snapshot();
          const answer = await send(api.call, generated);
          expect(answer.status, answer.text).to.be.below(500);
          // Over HTTP (the server adapters) an answer to HEAD carries no body, by the protocol.
          const bodiless = generated.method === 'HEAD' && API_ADAPTER.base !== null;
          if (answer.status >= 400) {
            if (!bodiless) {
              expect(answer.body, answer.text).to.be.an('object');
              expect(answer.body.is_valid, answer.text).to.equal(false);
              expect(answer.body.message, answer.text).to.be.a('string').and.not.equal('');
            }
            expect(
              await snapshot(),
              `${generated.method} ${generated.path} changed state but answered ${answer.status}`,
            ).to.deep.equal(before);
          }
        }),
        { seed: fuzzSeed, numRuns: runs, endOnFailure: true },
      );
      // fast-check's own report prints the whole counterexample, which may be megabytes of nesting.
      if (outcome.failed) {
        const example = JSON.stringify(outcome.counterexample?.[0]);
        throw new Error(
          `${(outcome.errorInstance as Error | undefined)?.message?.slice(0, 600)}\n` +
            `counterexample (${example.length} characters): ${example.slice(0, 600)}…\n` +
            `replay with FUZZ_SEED=${outcome.seed} (path ${outcome.counterexamplePath})`,
        );
      }
    } finally {
      await api.close();
    }
  });
});

function send(call: Call, generated: Generated): Promise<Answer> {
  const search = new URLSearchParams(generated.query).toString();
  const headers: Record<string, string> = {};
  if (generated.contentType !== null) headers['content-type'] = generated.contentType;
  if (generated.idempotencyKey !== null) headers['idempotency-key'] = generated.idempotencyKey;
  const upper = generated.method.toUpperCase();
  const hasBody = upper !== 'GET' && upper !== 'HEAD';
  return call(generated.method, `${generated.path}${search ? `?${search}` : ''}`, {
    key: generated.key,
    headers,
    body: hasBody ? generated.body : undefined,
  });
}
