// The browser tests (web-test-runner), one run per engine, one after the
// other: Chromium, then Firefox (QB_ENGINES). Without Firefox installed, a
// developer's run says loudly that it skipped that engine; CI (CI=true) never
// skips: .ci/run installs firefox-esr.
//
// Then the API suite runs again in Chromium against the Questboard server on
// each SQL store (QB_ADAPTERS, default pglite,postgres; see
// scripts/wtr-api-adapter.js), but for the tests of the IndexedDB adapter
// itself. Without a PostgreSQL server (scripts/postgres.js) a developer's run
// says loudly that it skipped that adapter; CI never skips it.
//
// TEST_FILES narrows every run to some files. Run directly
// (`node scripts/test-browsers.js [web-test-runner options]`) it runs these
// stages alone, with scripts/test.js's closing line; scripts/test.js runs
// them between the build and the node tests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { findFirefox } from './find-browser.js';
import { postgresAnswers, SERVER_URL } from './postgres.js';
import { runStages } from './stage-runner.js';

// The package exports no bin path; its entry point lives in the same dist/.
const wtr = join(dirname(createRequire(import.meta.url).resolve('@web/test-runner')), 'bin.js');
/** The API suite but for the IndexedDB adapter's own tests (its versions and upgrades). */
const ADAPTER_FILES = 'test/api/!(database-versions|migration).test.ts';

const list = (value) => value.split(',').filter(Boolean);

/**
 * The stages of scripts/stage-runner.js that run the browser tests, each
 * counting its tests from scripts/summary-reporter.js's file in `summaryDir`.
 * @param {{ summaryDir: string, engines?: string[], adapters?: string[], files?: string, wtrArgs?: string[] }} options
 */
export async function browserStages({
  summaryDir,
  engines = list(process.env.QB_ENGINES ?? 'chromium,firefox'),
  adapters = list(process.env.QB_ADAPTERS ?? 'pglite,postgres'),
  files = process.env.TEST_FILES,
  wtrArgs = [],
}) {
  const stage = (name, env, skip) => {
    const summary = join(summaryDir, `${name.replaceAll(/\W+/g, '-')}.json`);
    return {
      name,
      // The API suite sends request lines longer than Node's default 16 KB limit:
      // the server answers them 431, which the test runner's own server must let through.
      command: process.execPath,
      args: ['--max-http-header-size=1048576', wtr, ...wtrArgs],
      env: { ...env, TEST_SUMMARY_FILE: summary },
      skip,
      count: () => {
        try {
          const [totals] = Object.values(JSON.parse(readFileSync(summary, 'utf8')));
          return { passed: totals.passed, failed: totals.failed };
        } catch {
          return { passed: 0, failed: 0 }; // no summary: the runner failed before its tests
        }
      },
    };
  };
  const stages = engines.map((engine) =>
    stage(
      `browsers ${engine}`,
      { QB_ENGINE: engine, ...(files && { TEST_FILES: files }) },
      engine === 'firefox' && !findFirefox()
        ? 'Firefox is not installed, so the browser tests did NOT run in Firefox (apt-get install -y firefox-esr).'
        : undefined,
    ),
  );
  for (const adapter of adapters) {
    const missingPostgres = adapter === 'postgres' && !(await postgresAnswers());
    stages.push(
      stage(
        `browsers chromium, API on ${adapter}`,
        { QB_ENGINE: 'chromium', QB_API_ADAPTER: adapter, TEST_FILES: files ?? ADAPTER_FILES },
        missingPostgres
          ? `PostgreSQL does not answer at ${SERVER_URL}, so the API suite did NOT run on the server's PostgreSQL store.`
          : undefined,
      ),
    );
  }
  return stages;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const summaryDir = mkdtempSync(join(tmpdir(), 'questboard-browsers-'));
  process.on('exit', () => rmSync(summaryDir, { recursive: true, force: true }));
  await runStages(await browserStages({ summaryDir, wtrArgs: process.argv.slice(2) }));
}
