// npm run bench:server [-- --sizes=100000,1000000 --engines=pglite,postgres --pglite-max=100000
//   --rounds=100 --warmup=20 --load-seconds=30 --clients=64 --chunk=5000 --deadline-minutes=45 --no-docs]
//
// The /v1 API on the Node server over its SQL store, over HTTP: seeds an app of
// each size through POST /v1/admin/import, times every operation of
// bench/operations.js against GET /v1/health of the same server in interleaved
// rounds, then runs a load of many clients (80% reads, 20% writes) beside a
// health-only load of the same length; on PostgreSQL, once the server has stopped, the
// database alone inserts the seeded rows again (bench/database-floor.js). PGlite takes the sizes up to
// --pglite-max, PostgreSQL (a database of the run's own) all of them. Prints
// the tables and writes its section of docs/performance.md.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../scripts/bundle-node.js';
import postgres from 'postgres';
import { createDatabase, postgresAnswers, SERVER_URL } from '../scripts/postgres.js';
import { cpuSeconds, cpuShares } from './cpu.js';
import { databaseFloor } from './database-floor.js';
import { ADMIN_KEY, appFor, importBody } from './dataset.js';
import { writeSection } from './docs-section.js';
import { httpClient } from './http-client.js';
import { loadRun } from './load.js';
import { describeMachine } from './machine.js';
import { DEEP_FRACTION, LOAD_FIRST_ROUND, operationsFor, PROBE_ROUND } from './operations.js';
import { redisReference } from './redis-reference.js';
import { count, formatTable, summarize } from './report.js';
import { assertSuccess, measureRounds } from './rounds.js';
import { seedInChunks } from './seed.js';
import { formatFloor, formatLoad, formatSeeding, serverMarkdown } from './server-report.js';
import { readSettings } from './settings.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const docsFile = join(root, 'docs/performance.md');
const ENGINES = { pglite: 'PGlite', postgres: 'PostgreSQL' };
const USAGE =
  'usage: npm run bench:server -- [--sizes=100000,1000000] [--engines=pglite,postgres] [--pglite-max=100000]\n' +
  '  [--rounds=100] [--warmup=20] [--load-seconds=30] [--clients=64] [--chunk=5000] [--deadline-minutes=45] [--no-docs]';

const {
  values: options,
  sizes,
  timing,
  refuse,
} = readSettings({
  defaultSizes: '100000,1000000',
  minSize: 10,
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    'pglite-max': { type: 'string', default: '100000' },
    'load-seconds': { type: 'string', default: '30' },
    clients: { type: 'string', default: '64' },
    chunk: { type: 'string', default: '5000' },
    'deadline-minutes': { type: 'string', default: '45' },
  },
  usage: USAGE,
});
const engines = options.engines.split(',');
const settings = {
  ...timing,
  loadSeconds: Number(options['load-seconds']),
  clients: Number(options.clients),
  chunk: Number(options.chunk),
  pgliteMax: Number(options['pglite-max']),
  /** Share of the load's requests that are writes. */
  writeShare: 0.2,
};
const deadlineMs = Number(options['deadline-minutes']) * 60_000;
if (
  engines.some((engine) => !(engine in ENGINES)) ||
  !(settings.loadSeconds > 0 && settings.clients > 0 && settings.chunk > 0 && deadlineMs > 0)
) {
  refuse();
}

// Everything the run creates is undone here: on success, on failure, at the deadline and on Ctrl-C.
const cleanups = [];
function onCleanup(what, work) {
  const entry = { what, work };
  cleanups.push(entry);
  return async () => {
    const index = cleanups.indexOf(entry);
    if (index === -1) return;
    cleanups.splice(index, 1);
    await work();
  };
}
async function cleanUp() {
  while (cleanups.length > 0) {
    const { what, work } = cleanups.pop();
    await work().catch((error) => console.error(`cleanup (${what}) failed: ${error.message}`));
  }
}

/** Bundles bench/server-host.js (scripts/bundle-node.js), removed when the run ends. */
async function bundleHost() {
  const bundle = await bundleForNode('bench/server-host.js');
  onCleanup('bundle', bundle.remove);
  return bundle.file;
}

/** Starts the bench host in a process of its own; resolves once it listens. */
async function startHost(bundle, args) {
  // The server as anyone starts it, but on a free port and without the access log (a line per
  // request would be measured too); its admin key given as an operator gives one.
  const serverArgs = ['--port', '0', '--log-level', 'warn', ...args];
  const child = spawn(process.execPath, [bundle, ...serverArgs], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, QUESTBOARD_ADMIN_KEYS: ADMIN_KEY },
  });
  const exited = once(child, 'exit');
  const stop = onCleanup('server', async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bench server did not start within 60 s')), 60_000);
    void exited.then(([code]) => reject(new Error(`the bench server exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
  });
  return { url, pid: child.pid, stop };
}

/** The engine's store for the run: a database of its own, or a PGlite directory; and how to remove it. */
async function engineStorage(engine) {
  if (engine === 'postgres') {
    const database = await createDatabase('questboard_bench');
    onCleanup('database', () => database.drop());
    return { args: ['--database-url', database.url], databaseUrl: database.url };
  }
  const directory = await mkdtemp(join(tmpdir(), 'questboard-bench-pglite-'));
  onCleanup('PGlite directory', () => rm(directory, { recursive: true, force: true }));
  return { args: ['--data-dir', directory], databaseUrl: null };
}

/** The statements' time since the last call, as the bench host sums it (absent from another server). */
async function statementSums(client) {
  const { status, text } = await client.send({ method: 'GET', url: '/_bench/statements', key: '' });
  return status === 200 ? JSON.parse(text) : null;
}

async function seed(client, app, nowMs) {
  await statementSums(client);
  const seeded = await seedInChunks({
    size: app.size,
    firstChunk: settings.chunk,
    importChunk: async ({ start, end }) => {
      const request = {
        method: 'POST',
        url: '/v1/admin/import',
        key: ADMIN_KEY,
        body: importBody(app, start, end, nowMs, { bringsAdminKey: false }),
      };
      const answer = await client.send(request, { timeoutMs: null });
      if (answer.status !== 413) assertSuccess(`import of members ${start}–${end - 1}`, answer);
      return answer;
    },
  });
  return { ...seeded, statements: await statementSums(client) };
}

/**
 * Waits for the server's own maintenance after the seeding: once its writes pause, it vacuums and
 * analyzes what they added (src/store/sql/open-store.ts). Rounds timed beside it would time the
 * VACUUM. Settled: no VACUUM or ANALYZE running on the database for three looks in a row, the
 * first well past the pause.
 */
async function maintenanceSettled(databaseUrl) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const deadline = Date.now() + 300_000;
    for (let quiet = 0; quiet < 3 && Date.now() < deadline;) {
      const [{ busy }] = await sql`
        SELECT count(*)::integer AS busy FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND (query ILIKE 'VACUUM%' OR query ILIKE 'ANALYZE%')`;
      quiet = busy === 0 ? quiet + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await sql.end();
  }
}

/**
 * The statements one request of each operation runs, and their time, as the
 * bench host sums them (null from another server). Sent after the rounds, with
 * a round of its own so that the writes are real ones.
 */
async function statementsPerRequest(client, operations) {
  const perRequest = new Map();
  for (const operation of operations) {
    if ((await statementSums(client)) === null) return null;
    assertSuccess(operation.name, await client.send(operation.request(PROBE_ROUND)));
    const sums = await statementSums(client);
    perRequest.set(operation.name, {
      count: sums.reduce((sum, statement) => sum + statement.count, 0),
      ms: sums.reduce((sum, statement) => sum + statement.ms, 0),
    });
  }
  return perRequest;
}

/** Who stands at DEEP_FRACTION of the score board. */
async function deepMemberOf(client, app) {
  const offset = String(Math.floor(app.size * DEEP_FRACTION));
  const query = new URLSearchParams({ app_id: app.appId, offset, limit: '1' });
  const answer = await client.send({ method: 'GET', url: `/v1/get_leaderboard?${query}`, key: app.apiKey });
  assertSuccess('the member deep in the board', answer);
  return JSON.parse(answer.text).leaderboard_users[0].external_user.username;
}

/** A load run, with the CPU its processes took meanwhile (as shares of one core). */
async function measuredLoad(server, run) {
  const before = cpuSeconds(server.pid);
  const result = await loadRun(run);
  return { ...result, cpu: cpuShares(before, cpuSeconds(server.pid), result.seconds) };
}

async function loadRuns(server, operations) {
  const byKind = (kind) => operations.filter((operation) => operation.kind === kind);
  const common = { base: server.url, clients: settings.clients, seconds: settings.loadSeconds };
  console.log(`  load: ${settings.clients} clients, health only, ${settings.loadSeconds} s`);
  const health = await measuredLoad(server, { ...common, mix: [{ weight: 1, operations: byKind('baseline') }], firstRound: 0 });
  console.log(`  load: ${settings.clients} clients, ${100 - settings.writeShare * 100}% reads, ${settings.loadSeconds} s`);
  const mixed = await measuredLoad(server, {
    ...common,
    mix: [
      { weight: 1 - settings.writeShare, operations: byKind('read') },
      { weight: settings.writeShare, operations: byKind('write') },
    ],
    firstRound: LOAD_FIRST_ROUND,
  });
  return { health, mixed };
}

async function runEngine(engine, bundle, nowMs) {
  const engineSizes = engine === 'pglite' ? sizes.filter((size) => size <= settings.pgliteMax) : sizes;
  if (engineSizes.length === 0) return [];
  console.log(`\n== ${ENGINES[engine]} ==`);
  const { args, databaseUrl } = await engineStorage(engine);
  const server = await startHost(bundle, args);
  const results = [];
  try {
    for (const size of engineSizes) {
      // Apps of one run have ids and keys of their own, by their index among the sizes.
      const app = appFor(size, sizes.indexOf(size));
      console.log(`\n${ENGINES[engine]}, ${size.toLocaleString('en-US')} members`);
      const seedClient = httpClient(server.url);
      let seeded;
      try {
        seeded = await seed(seedClient, app, nowMs);
      } finally {
        seedClient.close();
      }
      console.log(formatSeeding(size, seeded));
      if (databaseUrl) await maintenanceSettled(databaseUrl);

      const client = httpClient(server.url);
      let timings, deepMember, statements;
      try {
        deepMember = await deepMemberOf(client, app);
        const operations = operationsFor(app, { deepMember });
        timings = await measureRounds({ operations, send: (request) => client.send(request), ...settings });
        statements = await statementsPerRequest(client, operations);
      } finally {
        client.close();
      }
      const rows = summarize(timings).map((row) => ({ ...row, statements: statements?.get(row.name) }));
      console.log(`${timings.rounds} rounds kept (the member at ${DEEP_FRACTION * 100}%: ${deepMember})`);
      console.log(formatTable(rows));
      if (statements) {
        const each = rows.map((row) => `${row.name} ${row.statements.count} (${row.statements.ms.toFixed(2)} ms)`);
        console.log(`statements in one request (their time): ${each.join(', ')}`);
      }

      const load = await loadRuns(server, operationsFor(app, { deepMember }));
      console.log(formatLoad(load));
      const result = {
        engine: ENGINES[engine],
        size,
        appId: app.appId,
        ...seeded,
        rounds: timings.rounds,
        rows,
        load,
        deepMember,
      };
      if (engine === 'postgres' && size === Math.max(...engineSizes)) {
        result.redis = await redisReference({ databaseUrl, app, deepMember, rounds: settings.rounds });
        console.log(result.redis.skipped ? `  Redis reference skipped: ${result.redis.skipped}` : '  Redis reference done');
      }
      results.push(result);
      const errors = load.health.errorCount + load.mixed.errorCount;
      if (errors > 0) {
        const listed = [...load.health.errors, ...load.mixed.errors].map(({ what, count }) => `  ${count}× ${what}`);
        throw Object.assign(new Error(`${errors} requests of the load runs failed:\n${listed.join('\n')}`), { results });
      }
    }
  } finally {
    await server.stop();
  }
  if (databaseUrl) await measureFloors(databaseUrl, results);
  return results;
}

/** The database alone inserting each app's seeded rows again (bench/database-floor.js), once its server has stopped. */
async function measureFloors(databaseUrl, results) {
  console.log(`\nThe database alone, inserting the seeded rows again in transactions of ${count(settings.chunk)} members:`);
  const floors = await databaseFloor({ databaseUrl, appIds: results.map((result) => result.appId), chunk: settings.chunk });
  for (const result of results) {
    result.floor = floors.get(result.appId);
    console.log(formatFloor(result));
  }
}

async function machineDescription() {
  const machine = describeMachine();
  const pglite = JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'));
  machine.pglite = pglite.version;
  if (engines.includes('postgres')) {
    const sql = postgres(SERVER_URL, { max: 1, onnotice: () => undefined });
    try {
      machine.postgres = (await sql`SHOW server_version`)[0].server_version;
      // Settings that move the figures: with autovacuum off, nothing analyzes or vacuums the seeded tables.
      const settingsShown = await sql`
        SELECT name, setting, unit FROM pg_settings
        WHERE name IN ('autovacuum', 'shared_buffers', 'synchronous_commit', 'max_connections') ORDER BY name`;
      machine.postgresSettings = settingsShown
        .map(({ name, setting, unit }) => (unit === '8kB' ? `${name} ${(setting * 8) / 1024} MB` : `${name} ${setting}`))
        .join(', ');
    } finally {
      await sql.end();
    }
  }
  return machine;
}

async function main() {
  const started = performance.now();
  if (engines.includes('postgres') && !(await postgresAnswers())) {
    throw new Error(`PostgreSQL does not answer at ${SERVER_URL} (set QB_DATABASE_URL), or leave it out: --engines=pglite`);
  }
  const machine = await machineDescription();
  console.log(
    `${machine.cpuModel}, ${machine.cpus} CPUs, load ${machine.loadAverage}; Node ${machine.node}` +
      `${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}, PGlite ${machine.pglite}`,
  );
  const bundle = await bundleHost();
  const nowMs = Date.now();
  const results = [];
  for (const engine of engines) results.push(...(await runEngine(engine, bundle, nowMs)));

  const minutes = (performance.now() - started) / 60_000;
  console.log(`\nServer benchmark took ${minutes.toFixed(1)} min.`);
  if (!options['no-docs']) {
    const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
    writeSection(docsFile, 'bench:server', serverMarkdown({ results, machine, settings, date, minutes }));
    console.log(`Wrote its section of ${docsFile}.`);
  }
}

const deadline = setTimeout(() => {
  console.error(`The server benchmark did not finish within ${deadlineMs / 60_000} minutes; stopping.`);
  void cleanUp().finally(() => process.exit(1));
}, deadlineMs);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (error) {
  console.error(error.stack ?? error);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  await cleanUp();
}
