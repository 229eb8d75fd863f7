// `npm run serve`: bundles the Node server (src/node/serve.ts) and runs it in
// this process, so it always runs the current source. The arguments are the
// server's own (`npm run serve -- --help`).
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
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
let server;
try {
  await build({
    ...SERVER_BUNDLE,
    absWorkingDir: root,
    outfile: bundle,
    external: [],
    plugins: [dependenciesOfThisCheckout],
  });
  server = await import(pathToFileURL(bundle).href);
} finally {
  // The module is loaded by now; the file is not needed to keep running.
  await rm(directory, { recursive: true, force: true });
}
await server.main(process.argv.slice(2));
