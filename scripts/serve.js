// `npm run serve`: bundles the Node server (src/server/serve.ts) and runs it in
// this process, so it always runs the current source. The arguments are the
// server's own (`npm run serve -- --help`). QUESTBOARD_SERVER_BUNDLE names a
// bundle made already (scripts/server-bundle.js, bundleServerSource), for a
// caller that starts the server many times in one run: it is run as it is.
// `--test-hooks`, this script's own flag, runs the tests' server instead (test/hosts/test-server.ts:
// the /_test/ routes, and --template), which the shipped questboard-server never is.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleServerSource } from './server-bundle.js';

// The console's files are in this checkout's dist/, not beside a bundle in a temporary directory.
process.env.QUESTBOARD_CONSOLE_DIR ??= fileURLToPath(new URL('../dist/console/', import.meta.url));
const argv = process.argv.slice(2);
const testServer = argv.includes('--test-hooks');
let bundle = process.env.QUESTBOARD_SERVER_BUNDLE;
let removeBundle = () => {};
if (!bundle) {
  const directory = await mkdtemp(join(tmpdir(), 'questboard-serve-'));
  bundle = join(directory, 'serve.mjs');
  // Kept until the server has started: a data directory's PGlite runs in a worker thread
  // started from this same module (src/server/pglite-thread.ts).
  removeBundle = () => rmSync(directory, { recursive: true, force: true });
  process.on('exit', removeBundle);
  await bundleServerSource(bundle, { testServer });
}
const server = await import(pathToFileURL(bundle).href);
await server.main(argv.filter((arg) => arg !== '--test-hooks'));
removeBundle();
