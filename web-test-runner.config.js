import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';
import { build } from 'esbuild';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { launchOptions } from './scripts/find-browser.js';
import { remoteServerPlugin } from './scripts/wtr-remote-server.js';
import { apiAdapterPlugin } from './scripts/wtr-api-adapter.js';
import { SHIPPED_SCRIPTS } from './scripts/shipped-scripts.js';
import { summaryReporter } from './scripts/summary-reporter.js';
import { embedPagesPlugin } from './test/embed/pages.js';

// The worker must be one classic script on the page's own origin, as in
// production: bundle it on request so tests always run the current source.
function serviceWorkerBundle() {
  return {
    name: 'questboard-service-worker',
    async serve(context) {
      if (context.path !== '/questboard-sw.js') return undefined;
      const worker = SHIPPED_SCRIPTS['questboard-sw.js'];
      const result = await build({
        entryPoints: [worker.entry],
        bundle: true,
        format: worker.format,
        write: false,
        target: 'es2022',
        tsconfig: worker.tsconfig,
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

/** How long test/api/fuzz.test.ts runs: a fixed seed and a few runs, unless `npm run fuzz` asks for more. */
function fuzzSettings() {
  return {
    name: 'questboard-fuzz-settings',
    executeCommand({ command }) {
      if (command !== 'fuzz-settings') return undefined;
      return { runs: Number(process.env.FUZZ_RUNS ?? 60), seed: Number(process.env.FUZZ_SEED ?? 20261123) };
    },
  };
}

/**
 * A port the OS picked for the test runner's own server: left to itself it takes
 * the first free one from 8000 up, which two runs on one machine race for.
 */
async function portOfTheSystem() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  return port;
}

/** Which engine this run tests: QB_ENGINE=chromium (the default) or firefox. */
const engine = process.env.QB_ENGINE ?? 'chromium';
/** Which store the API suite's in-page handler is swapped for: indexeddb (none), pglite or postgres. */
const apiAdapter = apiAdapterPlugin();
if (engine !== 'chromium' && engine !== 'firefox') throw new Error(`QB_ENGINE must be chromium or firefox, not ${engine}`);

export default {
  files: process.env.TEST_FILES ?? 'test/**/*.test.ts',
  nodeResolve: true,
  port: await portOfTheSystem(),
  // One browser context is shared by every file: service workers and
  // IndexedDB are per origin, so files run one at a time.
  concurrency: 1,
  testsFinishTimeout: 300_000,
  // The summary counts a file that fails to load as a failure; scripts/test.js reads it.
  reporters: [
    defaultReporter(),
    summaryReporter({
      file: process.env.TEST_SUMMARY_FILE,
      engine: process.env.QB_API_ADAPTER ? `${engine}+${process.env.QB_API_ADAPTER}` : engine,
    }),
  ],
  middleware: [apiAdapter.forward],
  // A guard against a hang, not a speed limit: a test that restarts the reference
  // server waits for it to start again, over 20 s on a busy 2-core machine.
  testFramework: { config: { timeout: 60_000 } },
  plugins: [
    serviceWorkerBundle(),
    // The embed tests' pages, each built from a template by test/embed/pages.js.
    embedPagesPlugin(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    fuzzSettings(),
    // The reference server on a port of its own: remote tests are really cross-origin.
    remoteServerPlugin({ dataset: 'test/remote/remote-dataset.json' }),
    apiAdapter,
  ],
  // One engine per run (scripts/test-browsers.js runs each in turn): the
  // reference server is one process that tests stop and start, so two engines
  // at once in one run would pull it from under each other.
  browsers: [
    chromeLauncher({
      launchOptions: await launchOptions(engine),
      // Given puppeteer itself, the launcher honours `browser: 'firefox'`.
      puppeteer: engine === 'firefox' ? puppeteerCore : undefined,
    }),
  ],
};
