// Issue 40's benchmark write (BADGE_WRITE in bench/operations.js) awards a badge in every
// request of it, in whatever round the benchmarks send it: the timing's, the statement count's
// and the load's. It logs for members of the dataset who have completed no task, one of its own
// for each round. Against the Questboard server, seeded with the benchmark's own app as both
// benchmarks seed it, through the benchmarks' own client.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_KEY, appFor, importBody, memberChunk } from '../../bench/dataset.js';
import { httpClient } from '../../bench/http-client.js';
import { BADGE_WRITE, LOAD_FIRST_ROUND, operationsFor, PROBE_ROUND } from '../../bench/operations.js';
import { assertSuccess } from '../../bench/rounds.js';
import { startServer } from '../server/reference-server.js';
/** @import { BenchApp } from '../../bench/dataset.js' */
/** @import { BenchRequest, Operation } from '../../bench/operations.js' */

/** The badge a log awards to a member who has completed no task (bench/dataset.js). */
const FIRST_TASK = 'first-task';
/** The timing's rounds at the benchmarks' defaults (bench/settings.js): 20 warm-up and 100 kept. */
const DEFAULT_TIMING_ROUNDS = 120;

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

/** @param {BenchApp} app */
function badgeWriteOf(app) {
  const operation = operationsFor(app).find((candidate) => candidate.name === BADGE_WRITE);
  assert.ok(operation, `${BADGE_WRITE} is an operation`);
  assert.equal(operation.kind, 'write');
  return operation;
}

/**
 * The members the seeding gives progress to.
 * @param {BenchApp} app
 */
const membersWithProgress = (app) => new Set(memberChunk(app, 0, app.size, Date.now()).progress.map((log) => log.account_name));

/**
 * The member a request of the badge write logs for.
 * @param {BenchRequest} request
 */
const memberOf = (request) => /** @type {{ account_name: string }} */ (request.body).account_name;

/**
 * The badges the member of the request holds.
 * @param {BenchApp} app
 * @param {BenchRequest} request
 */
async function badgesOf(app, request) {
  const query = new URLSearchParams({ app_id: app.appId, account_name: memberOf(request) });
  const answer = await client.send({ method: 'GET', url: `/v1/get_achievements?${query}`, key: app.apiKey });
  assertSuccess(`the badges of ${memberOf(request)}`, answer);
  return JSON.parse(answer.text).badges.map((/** @type {{ badge_id: string }} */ badge) => badge.badge_id);
}

it('awards first-task in the request itself, not before, in the rounds of each part of the benchmarks', async () => {
  // Large enough for a member without progress of its own for each round below.
  const app = appFor(200, 0);
  const nowMs = Date.now();
  const body = importBody(app, 0, app.size, nowMs, { bringsAdminKey: false });
  assertSuccess('the seeding', await client.send({ method: 'POST', url: '/v1/admin/import', key: ADMIN_KEY, body }));
  /** @type {Operation} */
  const operation = badgeWriteOf(app);
  const withProgress = membersWithProgress(app);

  const rounds = [0, 1, 2, 3, 4, PROBE_ROUND, LOAD_FIRST_ROUND, LOAD_FIRST_ROUND + 1, LOAD_FIRST_ROUND + 2];
  for (const round of rounds) {
    const request = operation.request(round);
    assert.ok(!withProgress.has(memberOf(request)), `round ${round}: a member the seeding gave no progress`);
    assert.deepEqual(await badgesOf(app, request), [], `round ${round}: no badge before the write`);
    assertSuccess(`the write of round ${round}`, await client.send(request));
    assert.ok((await badgesOf(app, request)).includes(FIRST_TASK), `round ${round}: ${FIRST_TASK} after the write`);
  }
});

it("gives each round a member of its own among those without progress, in every part of a run's rounds", () => {
  const app = appFor(1000, 1);
  const operation = badgeWriteOf(app);
  const withProgress = membersWithProgress(app);
  const timingRounds = Array.from({ length: DEFAULT_TIMING_ROUNDS }, (_, index) => index);
  const loadRounds = Array.from({ length: 50 }, (_, index) => LOAD_FIRST_ROUND + index);
  const rounds = [...timingRounds, PROBE_ROUND, ...loadRounds];
  assert.ok(app.size - withProgress.size >= rounds.length, 'the app has a member without progress for each round');

  const members = rounds.map((round) => memberOf(operation.request(round)));
  // A badge is awarded once per member: the same member twice, and a round would award nothing.
  assert.equal(new Set(members).size, rounds.length);
  for (const [index, member] of members.entries()) {
    assert.ok(!withProgress.has(member), `round ${rounds[index]}: ${member} has no progress`);
  }
});
