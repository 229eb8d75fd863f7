// `npm run serve`: bundles the Node server (src/node/serve.ts) and runs it in
// this process, so it always runs the current source. The arguments are the
// server's own (`npm run serve -- --help`).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RUNTIME_DEPENDENCIES, SERVER_BUNDLE } from './server-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bundle is written outside the project, where a bare import would find
 * no node_modules: each runtime dependency is imported by its file URL in
 * this checkout instead.
 */
const dependenciesOfThisCheckout = {
  name: 'dependencies-of-this-checkout',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      const isDependency = RUNTIME_DEPENDENCIES.some((name) => path === name || path.startsWith(`${name}/`));
      return isDependency ? { path: import.meta.resolve(path), external: true } : undefined;
    });
  },
};

const directory = await mkdtemp(join(tmpdir(), 'questboard-serve-'));
const bundle = join(directory, 'serve.mjs');
// Kept until the server has started: a data directory's PGlite runs in a worker thread
// started from this same module (src/node/pglite-thread.ts).
const removeBundle = () => rmSync(directory, { recursive: true, force: true });
process.on('exit', removeBundle);
await build({
  ...SERVER_BUNDLE,
  absWorkingDir: root,
  outfile: bundle,
  external: [],
  plugins: [dependenciesOfThisCheckout],
});
const server = await import(pathToFileURL(bundle).href);
await server.main(process.argv.slice(2));
removeBundle();
