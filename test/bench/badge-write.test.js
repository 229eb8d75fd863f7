// Issue 40's benchmark write (BADGE_WRITE in bench/operations.js) awards a badge in every
// request of it, in whatever round the benchmarks send it: the timing's, the statement count's
// and the load's. Against the Questboard server, seeded with the benchmark's own app as both
// benchmarks seed it, and through the benchmarks' own client and rounds.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_KEY, appFor, importBody } from '../../bench/dataset.js';
import { httpClient } from '../../bench/http-client.js';
import { BADGE_WRITE, LOAD_FIRST_ROUND, operationsFor, PROBE_ROUND } from '../../bench/operations.js';
import { assertSuccess, measureRounds } from '../../bench/rounds.js';
import { startServer } from '../server/reference-server.js';
/** @import { BenchRequest, Operation } from '../../bench/operations.js' */

/** The badge a log awards to a member who has completed no task (bench/dataset.js). */
const FIRST_TASK = 'first-task';
/** Budgets no round here comes near: every round asked for runs. */
const UNBOUNDED_MS = 600_000;

/** @type {import('../server/reference-server.js').RunningServer} */
let server;
/** @type {ReturnType<typeof httpClient>} */
let client;
before(async () => {
  server = await startServer([], { env: { QUESTBOARD_ADMIN_KEYS: ADMIN_KEY } });
  client = httpClient(`http://127.0.0.1:${server.port}`);
});
after(async () => {
  client?.close();
  await server?.stop();
});

/**
 * The benchmark's app of `size` members, seeded as the server benchmark seeds it (one import
 * here), and its badge write. Apps of one run differ in size and index, as the benchmark's do.
 * @param {number} size
 * @param {number} appIndex
 */
async function seededApp(size, appIndex) {
  const app = appFor(size, appIndex);
  const body = importBody(app, 0, size, Date.now(), { bringsAdminKey: false });
  assertSuccess('the seeding', await client.send({ method: 'POST', url: '/v1/admin/import', key: ADMIN_KEY, body }));
  const operation = operationsFor(app).find((candidate) => candidate.name === BADGE_WRITE);
  assert.ok(operation?.prepare, `${BADGE_WRITE} is an operation with a preparation`);
  assert.equal(operation.kind, 'write');
  return { app, operation: /** @type {Required<Operation>} */ (operation) };
}

/**
 * The member a request of the badge write logs for.
 * @param {BenchRequest} request
 */
const memberOf = (request) => /** @type {{ account_name: string }} */ (request.body).account_name;

/**
 * The badges the member of the request holds.
 * @param {ReturnType<typeof appFor>} app
 * @param {BenchRequest} request
 */
async function badgesOf(app, request) {
  const query = new URLSearchParams({ app_id: app.appId, account_name: memberOf(request) });
  const answer = await client.send({ method: 'GET', url: `/v1/get_achievements?${query}`, key: app.apiKey });
  assertSuccess(`the badges of ${memberOf(request)}`, answer);
  return JSON.parse(answer.text).badges.map((/** @type {{ badge_id: string }} */ badge) => badge.badge_id);
}

it('awards first-task in the request itself, not before, in the rounds of each part of the benchmarks', async () => {
  const { app, operation } = await seededApp(40, 0);
  for (const round of [0, 1, 2, 3, PROBE_ROUND, LOAD_FIRST_ROUND, LOAD_FIRST_ROUND + 1, LOAD_FIRST_ROUND + 2]) {
    const request = operation.request(round);
    assertSuccess(`the preparation of round ${round}`, await client.send(operation.prepare(round)));
    assert.deepEqual(await badgesOf(app, request), [], `round ${round}: no badge before the write`);
    assertSuccess(`the write of round ${round}`, await client.send(request));
    assert.ok((await badgesOf(app, request)).includes(FIRST_TASK), `round ${round}: ${FIRST_TASK} after the write`);
  }
});

it("awards a badge to a member of each round, as the benchmark's rounds send it", async () => {
  const { app, operation } = await seededApp(41, 1);
  const timing = await measureRounds({
    operations: [operation],
    send: (request) => client.send(request),
    rounds: 3,
    warmupRounds: 2,
    minRounds: 3,
    warmupBudgetMs: UNBOUNDED_MS,
    budgetMs: UNBOUNDED_MS,
  });
  assert.equal(timing.samples[BADGE_WRITE]?.length, 3);

  const rounds = [0, 1, 2, 3, 4];
  const members = new Set(rounds.map((round) => memberOf(operation.request(round))));
  // A badge is awarded once per member: the same member twice, and a round would award nothing.
  assert.equal(members.size, rounds.length);
  for (const round of rounds) {
    assert.ok((await badgesOf(app, operation.request(round))).includes(FIRST_TASK), `round ${round}: ${FIRST_TASK} awarded`);
  }
});
