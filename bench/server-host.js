// The server `npm run bench:server` measures: the Questboard server itself
// (src/server/serve.ts, with the flags of questboard-server), started as it
// starts for anyone, with one addition for the report: every statement's time
// is added up by its text, and GET /_bench/statements answers (and resets)
// those sums, so the seeding can say how much of its time the database took.
// bench/server-run.js bundles it (scripts/bundle-node.js) and runs it in a
// process of its own.
import { createLogger } from '../src/server/logger.js';
import { parseServeOptions } from '../src/server/options.js';
import { start, stopOnSignals } from '../src/server/serve.js';
import { sharesChanges } from '../src/server/server-store.js';
import { openSqlStore } from '../src/store/sql/index.js';
import { pgliteDriver } from '../src/store/sql/pglite-driver.js';
import { postgresDriver } from '../src/store/sql/postgres-driver.js';

const options = parseServeOptions(process.argv.slice(2), process.env);
const { storage } = options;
const driver =
  'databaseUrl' in storage
    ? postgresDriver({ url: storage.databaseUrl, max: storage.connections })
    : await pgliteDriver('dataDir' in storage ? storage.dataDir : undefined);
const statements = new Map();

/**
 * The driver, with each statement's time added to the sum for its text. A transaction's
 * statements sent together (a write's flush pipelines them) are answered one after the
 * other: each is timed from when it was sent or the one before it was answered, whichever
 * is later, so the sums never count one wait twice.
 */
const timed = {
  transaction: (mode, work, durability) =>
    driver.transaction(
      mode,
      (session) => {
        let lastAnswered = 0;
        return work({
          commit: () => session.commit?.(),
          async query(query) {
            const sent = performance.now();
            try {
              return await session.query(query);
            } finally {
              const answered = performance.now();
              const sum = statements.get(query.text) ?? { count: 0, ms: 0 };
              sum.count += 1;
              sum.ms += answered - Math.max(sent, lastAnswered);
              lastAnswered = answered;
              statements.set(query.text, sum);
            }
          },
        });
      },
      durability,
    ),
  // Beside the requests, not timed as theirs.
  maintain: driver.maintain,
  close: () => driver.close(),
};

const logger = createLogger(options.logLevel);
const running = await start(options, logger, {
  store: await openSqlStore({ driver: timed, announceChanges: sharesChanges(storage) }),
  wrapHandle: (handle) => async (request) => {
    if (new URL(request.url).pathname !== '/_bench/statements') return handle(request);
    // Summed by their text as sent, its spacing tidied only here: tidied as each statement ran,
    // the tidying took some 5% of the server's time under the benchmark's load.
    const sums = new Map();
    for (const [sent, { count, ms }] of statements) {
      const text = sent.replace(/\s+/g, ' ').trim();
      const sum = sums.get(text) ?? { text, count: 0, ms: 0 };
      sum.count += count;
      sum.ms += ms;
      sums.set(text, sum);
    }
    statements.clear();
    return Response.json([...sums.values()]);
  },
});
// Said whatever the log level: bench/server-run.js waits for this line.
console.log(`Questboard bench server listening on ${running.host.url}`);
stopOnSignals(() => running, logger);
