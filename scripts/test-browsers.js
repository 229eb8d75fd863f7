// Runs the browser tests (web-test-runner) once per engine, one after the
// other: Chromium, then Firefox. Both always run, so one engine's failures
// never hide the other's; the exit code is non-zero if either failed.
// Without Firefox installed, a developer's run says loudly that it skipped
// that engine; CI (CI=true) never skips: .ci/run installs firefox-esr.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { findFirefox } from './find-browser.js';

// The package exports no bin path; its entry point lives in the same dist/.
const wtr = join(dirname(createRequire(import.meta.url).resolve('@web/test-runner')), 'bin.js');
const engines = (process.env.QB_ENGINES ?? 'chromium,firefox').split(',');
let failed = false;

for (const engine of engines) {
  if (engine === 'firefox' && !findFirefox()) {
    const message = 'Firefox is not installed, so the browser tests did NOT run in Firefox (apt-get install -y firefox-esr).';
    if (process.env.CI) {
      console.error(`\n✗ ${message}\n`);
      failed = true;
    } else {
      console.warn(`\n${'!'.repeat(78)}\n! SKIPPED ENGINE: ${message}\n${'!'.repeat(78)}\n`);
    }
    continue;
  }
  console.log(`\n── browser tests in ${engine} ──\n`);
  const child = spawn(process.execPath, [wtr, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, QB_ENGINE: engine },
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
