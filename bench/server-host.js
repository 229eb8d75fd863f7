// The server `npm run bench:server` measures: the /v1 handler on the SQL store,
// served over HTTP, with the engine named on the command line:
//   --database-url postgres://…   PostgreSQL
//   --data-dir DIR                PGlite kept in DIR
//   --memory                      PGlite in memory
// bench/server-run.js bundles it (esbuild, as scripts/wtr-api-adapter.js does)
// and runs it in a process of its own. It stands in for `npm run serve` until
// that takes the same engine flags; then the benchmark should run that instead.
//
// One addition for the report: every statement's time is added up by its text,
// and GET /_bench/statements answers (and resets) those sums, so the seeding can
// say how much of its time the database took.
import { parseArgs } from 'node:util';
import { startHttpHost } from '../src/node/http-host.js';
import { createLogger } from '../src/node/logger.js';
import { createHandler } from '../src/server/handler.js';
import { openSqlStore } from '../src/store/sql/index.js';
import { pgliteDriver } from '../src/store/sql/pglite-driver.js';
import { postgresDriver } from '../src/store/sql/postgres-driver.js';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
  },
});
const url = values['database-url'];
const driver = url !== undefined ? postgresDriver({ url }) : await pgliteDriver(values.memory ? undefined : values['data-dir']);
const statements = new Map();

/** The driver, with each statement's time added to the sum for its text. */
const timed = {
  transaction: (mode, work) =>
    driver.transaction(mode, (session) =>
      work({
        async query(query) {
          const started = performance.now();
          try {
            return await session.query(query);
          } finally {
            const text = query.text.replace(/\s+/g, ' ').trim();
            const sum = statements.get(text) ?? { count: 0, ms: 0 };
            sum.count += 1;
            sum.ms += performance.now() - started;
            statements.set(text, sum);
          }
        },
      }),
    ),
  close: () => driver.close(),
};

const store = await openSqlStore({ driver: timed });
const handle = createHandler({ store });
const host = await startHttpHost(
  async (request) => {
    if (new URL(request.url).pathname !== '/_bench/statements') return handle(request);
    const sums = [...statements].map(([text, sum]) => ({ text, ...sum }));
    statements.clear();
    return Response.json(sums);
  },
  // As the server runs by default, but for the access log: a line per request would be measured too.
  { host: '127.0.0.1', port: Number(values.port), corsOrigins: ['*'], requestTimeoutMs: 30_000, logger: createLogger('warn') },
);
console.log(`Questboard bench server (${url === undefined ? 'PGlite' : 'PostgreSQL'}) listening on ${host.url}`);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    void host
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
}
