// What `npm run bench:server` prints and writes to its section of
// docs/performance.md. The latency tables are the browser benchmark's
// (report.js); seeding, deep pages, load and the targets are the server's own.
import { BADGE_WRITE } from './operations.js';
import { count, markdownTable, TARGETS } from './report.js';

/** The server's targets, for PostgreSQL at its largest size (1,000,000 members by default). */
export const SERVER_TARGETS = {
  seedSeconds: 60,
  /** A deep page may cost this many times the first page and still count as costing the same. */
  deepPage: 1.5,
  /** The mixed load's requests per second, as a share of the health-only load's. */
  loadShare: 0.25,
};

const FIRST_PAGE = 'get_leaderboard score';
/** Reads deep in a board, each with the first page of the same board; `target`: the issue's deep-page target applies. */
const DEEP_READS = [
  { name: 'get_leaderboard offset', first: FIRST_PAGE, what: 'offset at 50%' },
  { name: 'get_leaderboard offset 90%', first: FIRST_PAGE, what: 'offset at 90%', target: true },
  { name: 'get_leaderboard around', first: FIRST_PAGE, what: 'around the member numbered half the size, at any rank' },
  { name: 'get_leaderboard around 90%', first: FIRST_PAGE, what: 'around the member at 90%', target: true },
  { name: 'get_leaderboard weekly tail', first: 'get_leaderboard weekly', what: 'weekly board at 90%' },
];

/** One request's statements, beside the table: each is a round trip to the database. */
const STATEMENT_COLUMNS = [
  { header: 'statements', cell: (row) => (row.statements ? String(row.statements.count) : '') },
  { header: 'in statements ms', cell: (row) => (row.statements ? fixed(row.statements.ms) : '') },
];

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const times = (value) => `${fixed(value)}×`;
const met = (ok, bound) => (ok ? `${bound} met` : `${bound} MISSED`);

function statementSummary(statements) {
  if (!statements) return null;
  const ms = statements.reduce((sum, statement) => sum + statement.ms, 0);
  const number = statements.reduce((sum, statement) => sum + statement.count, 0);
  const top = [...statements].sort((a, b) => b.ms - a.ms).slice(0, 6);
  return { ms, count: number, top };
}

const shorten = (text, length = 110) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

export function formatSeeding(size, { importSeconds, importRequests, statements }) {
  const lines = [
    `seeded in ${fixed(importSeconds, 1)} s through ${importRequests} imports (${count(Math.round(size / importSeconds))} members/s)`,
  ];
  const summary = statementSummary(statements);
  if (summary) {
    lines.push(
      `  ${count(summary.count)} statements took ${fixed(summary.ms / 1000, 1)} s (${fixed((100 * summary.ms) / 1000 / importSeconds, 0)}% of it); the costliest:`,
    );
    for (const { text, count: n, ms } of summary.top) {
      lines.push(`  ${fixed(ms / 1000, 1).padStart(7)} s ${String(n).padStart(9)}×  ${shorten(text)}`);
    }
  }
  return lines.join('\n');
}

/** What the database alone took to insert the app's seeded rows again (bench/database-floor.js). */
const floorText = ({ seconds, postgresCpuSeconds }) =>
  `${fixed(seconds, 1)} s${postgresCpuSeconds === null ? '' : ` (PostgreSQL's CPU ${fixed(postgresCpuSeconds, 1)} s)`}`;

export function formatFloor({ size, importSeconds, floor }) {
  return `  ${count(size)} members: ${floorText(floor)}, against ${fixed(importSeconds, 1)} s through the server (${times(importSeconds / floor.seconds)})`;
}

const cpuText = (cpu) =>
  cpu === null ? '' : `server ${percent(cpu.server)}, client ${percent(cpu.client)}, PostgreSQL ${percent(cpu.postgres)}`;
/** A share in percent, with a decimal below 10% so that a small one does not read as none. */
const percent = (share) => `${fixed(100 * share, 100 * share < 10 ? 1 : 0)}%`;

export function formatLoad({ health, mixed }) {
  const line = (label, run) =>
    `  ${label}: ${count(run.requests)} requests in ${fixed(run.seconds, 1)} s, ${fixed(run.perSecond, 0)}/s, ` +
    `median ${fixed(run.median)} ms, p99 ${fixed(run.p99)} ms, ${run.errorCount} errors; CPU: ${cpuText(run.cpu)}`;
  return [
    line('health only', health),
    line('80/20 mixed', mixed),
    `  mixed ÷ health: ${percent(mixed.perSecond / health.perSecond)} of the requests per second`,
  ].join('\n');
}

function deepRows(rows) {
  const byName = new Map(rows.map((row) => [row.name, row]));
  return DEEP_READS.filter(({ name, first }) => byName.has(name) && byName.has(first)).map(({ name, first, what, target }) => {
    const ratio = byName.get(name).median / byName.get(first).median;
    return { name, what, first, median: byName.get(name).median, ratio, target };
  });
}

/** Each target, judged on PostgreSQL's largest size in the run. */
export function verdicts(results) {
  const postgres = results.filter((result) => result.engine === 'PostgreSQL');
  const largest = postgres.reduce((best, result) => (best && best.size >= result.size ? best : result), null);
  if (!largest) return { largest: null, lines: [] };
  const { rows, importSeconds, load } = largest;
  const reads = rows.filter((row) => row.kind === 'read');
  const writes = rows.filter((row) => row.kind === 'write');
  const worst = (list) => list.reduce((a, b) => (a.ratio >= b.ratio ? a : b));
  const badgeWrite = writes.find((row) => row.name === BADGE_WRITE);
  const deep = deepRows(rows).filter((row) => row.target);
  const share = load.mixed.perSecond / load.health.perSecond;
  const errors = load.health.errorCount + load.mixed.errorCount;
  const lines = [
    `seeding ${count(largest.size)} members: ${fixed(importSeconds, 1)} s, ${met(importSeconds <= SERVER_TARGETS.seedSeconds, `≤ ${SERVER_TARGETS.seedSeconds} s`)}` +
      (largest.floor ? `; the database alone inserts their rows in ${floorText(largest.floor)}` : ''),
    `reads: worst ${worst(reads).name} at ${times(worst(reads).ratio)} health, ${met(worst(reads).ratio <= TARGETS.read, `≤ ${TARGETS.read}×`)}`,
    `writes: worst ${worst(writes).name} at ${times(worst(writes).ratio)} health, ${met(worst(writes).ratio <= TARGETS.write, `≤ ${TARGETS.write}×`)}`,
    ...(badgeWrite
      ? [
          `issue 40, a write that awards a badge (${BADGE_WRITE}): ${times(badgeWrite.ratio)} health, ${met(badgeWrite.ratio <= TARGETS.write, `≤ ${TARGETS.write}×`)}`,
        ]
      : []),
    ...deep.map(
      (row) =>
        `${row.what}: ${times(row.ratio)} the first page, ${met(row.ratio <= SERVER_TARGETS.deepPage, `≤ ${SERVER_TARGETS.deepPage}×`)}`,
    ),
    `load: mixed at ${percent(share)} of health's requests per second, ${met(share >= SERVER_TARGETS.loadShare, `≥ ${SERVER_TARGETS.loadShare * 100}%`)}; ${errors} errors`,
  ];
  return { largest, lines };
}

function seedingTable(results) {
  const lines = [
    '| engine | members | imports | seconds | members/s | statements | time in statements | the database alone, s |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const { engine, size, importRequests, importSeconds, statements, floor } of results) {
    const summary = statementSummary(statements);
    const inStatements = summary
      ? `${fixed(summary.ms / 1000, 1)} s (${fixed((100 * summary.ms) / 1000 / importSeconds, 0)}%)`
      : '';
    lines.push(
      `| ${engine} | ${count(size)} | ${importRequests} | ${fixed(importSeconds, 1)} | ${count(Math.round(size / importSeconds))} | ` +
        `${summary ? count(summary.count) : ''} | ${inStatements} | ${floor ? fixed(floor.seconds, 1) : ''} |`,
    );
  }
  return lines.join('\n');
}

function costliestStatements({ engine, size, statements, importSeconds }) {
  const summary = statementSummary(statements);
  if (!summary) return '';
  const lines = [
    `The costliest statements of the seeding on ${engine}, ${count(size)} members (${fixed(importSeconds, 1)} s):`,
    '',
    '| statement | times | seconds | share of the seeding |',
    '|---|--:|--:|--:|',
  ];
  for (const { text, count: n, ms } of summary.top) {
    const cell = shorten(text, 140).replaceAll('|', '\\|');
    lines.push(`| \`${cell}\` | ${count(n)} | ${fixed(ms / 1000, 1)} | ${fixed((100 * ms) / 1000 / importSeconds, 0)}% |`);
  }
  return lines.join('\n');
}

function deepTable(rows) {
  const lines = ['| read | median ms | × first page of its board | target |', '|---|--:|--:|---|'];
  for (const row of deepRows(rows)) {
    const target = row.target ? met(row.ratio <= SERVER_TARGETS.deepPage, `≈ (≤ ${SERVER_TARGETS.deepPage}×)`) : '';
    lines.push(`| ${row.name} (${row.what}) | ${fixed(row.median)} | ${times(row.ratio)} | ${target} |`);
  }
  return lines.join('\n');
}

function loadTable(results) {
  const lines = [
    '| engine | members | requests | clients | seconds | answered | per second | median ms | p99 ms | errors | share of health per second | CPU: server, client, PostgreSQL |',
    '|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|---|',
  ];
  for (const { engine, size, load } of results) {
    for (const [label, run] of [
      ['health only', load.health],
      ['80% reads, 20% writes', load.mixed],
    ]) {
      lines.push(
        `| ${engine} | ${count(size)} | ${label} | ${run.clients} | ${fixed(run.seconds, 1)} | ${count(run.requests)} | ` +
          `${count(Math.round(run.perSecond))} | ${fixed(run.median)} | ${fixed(run.p99)} | ${run.errorCount} | ` +
          `${percent(run.perSecond / load.health.perSecond)} | ${run.cpu ? [run.cpu.server, run.cpu.client, run.cpu.postgres].map(percent).join(', ') : ''} |`,
      );
    }
  }
  return lines.join('\n');
}

function redisSection(results) {
  const withRedis = results.filter((result) => result.redis);
  if (withRedis.length === 0) return 'Not run: the run had no PostgreSQL app to copy.';
  return withRedis
    .map(({ engine, size, redis, rows }) => {
      if (redis.skipped) return `Skipped: ${redis.skipped}.`;
      const byName = new Map(rows.map((row) => [row.name, row]));
      const http = {
        'ZREVRANGE first page (100)': byName.get(FIRST_PAGE),
        'ZREVRANGE page at 90% (100)': byName.get('get_leaderboard offset 90%'),
        'ZREVRANK + ZREVRANGE around 90% (25)': byName.get('get_leaderboard around 90%'),
      };
      const lines = [
        `The ${count(redis.members)} members of ${engine}'s ${count(size)} app in one sorted set, read through ioredis ` +
          `(no HTTP), beside the same page from the server over HTTP:`,
        '',
        '| Redis read | median ms | p95 ms | the server over HTTP, median ms |',
        '|---|--:|--:|--:|',
      ];
      for (const row of redis.rows) {
        lines.push(`| ${row.name} | ${fixed(row.median, 3)} | ${fixed(row.p95, 3)} | ${fixed(http[row.name]?.median)} |`);
      }
      return lines.join('\n');
    })
    .join('\n\n');
}

export function serverMarkdown({ results, machine, settings, date, minutes }) {
  const { largest, lines } = verdicts(results);
  const outcome = largest
    ? `This run's largest PostgreSQL app had ${count(largest.size)} members. There:\n\n${lines.map((line) => `- ${line}`).join('\n')}`
    : 'This run had no PostgreSQL app, so no target was judged.';
  const latency = results.map(
    ({ engine, size, rounds, rows, deepMember }) =>
      `#### ${engine}, ${count(size)} members\n\n${rounds} rounds kept; the member at 90% of the score board: \`${deepMember}\`.\n\n` +
      `${markdownTable(rows, STATEMENT_COLUMNS)}\n\nDeep in the board against the first page:\n\n${deepTable(rows)}\n`,
  );
  const costliest = results.map(costliestStatements).filter(Boolean);

  return `## On the server: \`npm run bench:server\`

Figures written by \`npm run bench:server\` on ${date} (the run took ${minutes.toFixed(1)} min).
Rerun it to refresh them; the command rewrites this section.

### Targets

For PostgreSQL at 1,000,000 members:

- seeding through \`POST /v1/admin/import\` in under ${SERVER_TARGETS.seedSeconds} s;
- every read within ${TARGETS.read}× of health's median, every write within ${TARGETS.write}× (as in the browser), a write
  that awards a badge among them (issue 40: \`${BADGE_WRITE}\`, each request of which completes a member's
  first task and so awards one);
- a page deep in the board (at an offset of 90% of the members, or around the member there) costing what
  the first page costs (read here as within ${SERVER_TARGETS.deepPage}× of its median);
- under load, ${settings.clients} clients at ${100 - settings.writeShare * 100}% reads and ${settings.writeShare * 100}% writes served at no less than
  ${SERVER_TARGETS.loadShare * 100}% of the requests per second of the same clients asking for health alone, without one error.

${outcome}

### Method

- \`bench/server-run.js\` bundles \`bench/server-host.js\` (the Questboard server of \`src/server/serve.ts\` as
  \`questboard-server\` starts it, write limits and change feed included, with its statements timed and without
  the access log) and runs it in a process of its own on 127.0.0.1, once per engine: PGlite kept in a fresh directory, for the sizes up to ${count(settings.pgliteMax)};
  PostgreSQL, a fresh database of the run's own (dropped at the end), for every size.
- Each app is seeded through \`POST /v1/admin/import\` in merge-mode chunks of ${count(settings.chunk)} members
  (\`bench/dataset.js\`, \`bench/seed.js\`: the same members and progress as the browser benchmark). The host sums
  each statement's time by its text; the seeding's sums are below. On PostgreSQL the run then waits for the
  server's own maintenance of what the seeding wrote (\`VACUUM (ANALYZE)\` once the writes pause,
  \`src/store/sql/open-store.ts\`), which would be long done before members read a community's boards.
- "The database alone" (PostgreSQL, \`bench/database-floor.js\`): once the server has stopped, the rows its
  imports wrote for the members (members, progress, challenges, logs) are copied aside, their tables emptied,
  and the rows inserted again by PostgreSQL alone, app after app, ${count(settings.chunk)} members a transaction, with
  no server, no rules and no parameters: the floor under the seeding on this machine with these tables and
  indexes (lower than the truth: the board counts are left out).
- Timing: each round sends every operation of \`bench/operations.js\` once, one after the other over one
  keep-alive connection, health among them (\`bench/rounds.js\`). Up to ${settings.warmupRounds} warm-up rounds
  (at most ${settings.warmupBudgetMs / 1000} s) are discarded, then up to ${settings.rounds} rounds are kept,
  fewer when they take over ${settings.budgetMs / 1000} s (never fewer than ${settings.minRounds}). A time runs
  from the request to the last byte of the answer, through Node's \`http\` client; every answer is checked
  (HTTP 200, \`is_valid: true\`). Besides the browser benchmark's operations, two reads deep in the score board:
  the page at an offset of 90% of the members, and the page around the member found there.
- The badge write, \`${BADGE_WRITE}\`: a log of a task's whole quantity for a member of the dataset who has
  completed no task (one without progress, about a fifth of them), which completes their first task and so awards
  the badge \`first-task\` (a task completed) in that very write, as any member's first completed task does. The
  member is seeded with the others: nothing is sent before the write. Each round of the timing, the statement
  count and the load has a member of its own, while they last (past them a request may award nothing).
- Load: ${settings.clients} clients share ${settings.clients} keep-alive connections, each sending its next
  request when the last is answered, for ${settings.loadSeconds} s: first health alone, then
  ${100 - settings.writeShare * 100}% reads and ${settings.writeShare * 100}% writes drawn at random from the
  same operations (writes with targets of their own). Any answer but 2xx or any network error fails the run.
  Each run opens its connections first, with one health request each, not timed (a connection opened while
  the server is busy waits behind those already open). Health and most reads ask for one URL each, as many
  members opening a community's page do, so the server answers those that arrive together once (its shared
  reads, \`src/server/shared-reads.ts\`); get_userinfo and get_task_progress name a member of their own each
  time. The client runs on the same machine and takes some of its CPU.
- "statements": those the store ran for one request of the operation, sent once after the rounds, and
  their summed time (each is a round trip to the database; a write sends the statements of its flush
  together, and each of those is timed from when the one before it was answered, so no wait counts
  twice). On PostgreSQL each transaction adds BEGIN, which goes out with its first statements (a write but
  the airdrop's sends \`SET LOCAL synchronous_commit TO off\` with it: its COMMIT does not wait for the disk),
  and COMMIT, which a read does not wait for (PGlite sets the modes after BEGIN, a statement more); a POST
  with a large body (an import) or a member token runs two transactions, its key checked in one before its
  body is read.
- CPU: the seconds the server process, the client (the benchmark's own process) and every \`postgres\`
  process took during a load run, as shares of one core (the machine has ${machine.cpus}).
- Median, p95 and p99 are nearest-rank; "× health" is a median's ratio to health's median in the same rounds.

### Machine

- CPU: ${machine.cpuModel}, ${machine.cpus} logical CPUs; ${machine.memoryGiB} GiB; load average ${machine.loadAverage} when the run started
- Node ${machine.node}, ${machine.platform}; PGlite ${machine.pglite}
- PostgreSQL ${machine.postgres ?? '(not used)'} on the same machine${machine.postgresSettings ? ` (${machine.postgresSettings})` : ''}

### Seeding

${seedingTable(results)}

${costliest.join('\n\n')}

### Latency

${latency.join('\n')}
### Load

${loadTable(results)}

### Redis reference

${redisSection(results)}
`;
}
