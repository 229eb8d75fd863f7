// Runs the browser tests (web-test-runner) once per engine, one after the
// other: Chromium, then Firefox. Both always run, so one engine's failures
// never hide the other's; the exit code is non-zero if either failed.
// Without Firefox installed, a developer's run says loudly that it skipped
// that engine; CI (CI=true) never skips: .ci/run installs firefox-esr.
//
// Then the API suite runs again in Chromium against the Questboard server on
// each SQL store (QB_ADAPTERS, default pglite,postgres; see
// scripts/wtr-api-adapter.js), but for the tests of the IndexedDB adapter
// itself. Without a PostgreSQL server (scripts/postgres.js) a developer's run
// says loudly that it skipped that adapter; CI never skips it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { findFirefox } from './find-browser.js';
import { postgresAnswers, SERVER_URL } from './postgres.js';

// The package exports no bin path; its entry point lives in the same dist/.
const wtr = join(dirname(createRequire(import.meta.url).resolve('@web/test-runner')), 'bin.js');
const engines = (process.env.QB_ENGINES ?? 'chromium,firefox').split(',').filter(Boolean);
const adapters = (process.env.QB_ADAPTERS ?? 'pglite,postgres').split(',').filter(Boolean);
/** The API suite but for the IndexedDB adapter's own tests (its versions and upgrades). */
const ADAPTER_FILES = 'test/api/!(database-versions|migration).test.ts';
let failed = false;

function skip(message) {
  if (process.env.CI) {
    console.error(`\n✗ ${message}\n`);
    failed = true;
  } else {
    console.warn(`\n${'!'.repeat(78)}\n! SKIPPED: ${message}\n${'!'.repeat(78)}\n`);
  }
}

async function run(title, env) {
  console.log(`\n── browser tests ${title} ──\n`);
  // The API suite sends request lines longer than Node's default 16 KB limit:
  // the server answers them 431, which the test runner's own server must let through.
  const child = spawn(process.execPath, ['--max-http-header-size=1048576', wtr, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) failed = true;
}

for (const engine of engines) {
  if (engine === 'firefox' && !findFirefox()) {
    skip('Firefox is not installed, so the browser tests did NOT run in Firefox (apt-get install -y firefox-esr).');
    continue;
  }
  await run(`in ${engine}`, { QB_ENGINE: engine });
}

for (const adapter of adapters) {
  if (adapter === 'postgres' && !(await postgresAnswers())) {
    skip(`PostgreSQL does not answer at ${SERVER_URL}, so the API suite did NOT run on the server's PostgreSQL store.`);
    continue;
  }
  await run(`of the API on the server's ${adapter} store, in chromium`, {
    QB_ENGINE: 'chromium',
    QB_API_ADAPTER: adapter,
    TEST_FILES: process.env.TEST_FILES ?? ADAPTER_FILES,
  });
}
process.exit(failed ? 1 : 0);
