import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { build } from 'esbuild';
import { findBrowser, CHROMIUM_ARGS } from './scripts/find-browser.js';
import { remoteServerPlugin } from './scripts/wtr-remote-server.js';
import { summaryReporter } from './scripts/summary-reporter.js';

// The worker must be one classic script on the page's own origin, as in
// production: bundle it on request so tests always run the current source.
function serviceWorkerBundle() {
  return {
    name: 'questboard-service-worker',
    async serve(context) {
      if (context.path !== '/questboard-sw.js') return undefined;
      const result = await build({
        entryPoints: ['src/worker/index.ts'],
        bundle: true,
        format: 'iife',
        write: false,
        target: 'es2022',
        tsconfig: 'tsconfig.worker.json',
      });
      return { body: result.outputFiles[0].text, type: 'js' };
    },
  };
}

export default {
  files: process.env.TEST_FILES ?? 'test/**/*.test.ts',
  nodeResolve: true,
  // One browser context is shared by every file: service workers and
  // IndexedDB are per origin, so files run one at a time.
  concurrency: 1,
  testsFinishTimeout: 300_000,
  // The summary counts a file that fails to load as a failure; .ci/run reads it.
  reporters: [defaultReporter(), summaryReporter({ file: process.env.TEST_SUMMARY_FILE })],
  testFramework: { config: { timeout: 20_000 } },
  plugins: [
    serviceWorkerBundle(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    // The reference server on a port of its own: remote tests are really cross-origin.
    remoteServerPlugin({ dataset: 'test/remote/remote-dataset.json' }),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: await findBrowser(), args: CHROMIUM_ARGS, headless: true },
    }),
  ],
};
