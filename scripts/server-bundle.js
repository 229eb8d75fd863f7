// The Node server (src/server) as one ES module: shipped as dist/node/server.js
// (run by bin/questboard-server.js) and run from source by `npm run serve`.
// One esbuild configuration for both, and for the questboard-token command
// (dist/node/token.js, run by bin/questboard-token.js).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * What an installed package has beside the bundle, so these stay imports (the
 * database drivers load files of their own and cannot be bundled anyway).
 * Everything else is bundled in: the source.
 */
export const RUNTIME_DEPENDENCIES = Object.keys(packageJson.dependencies);

/** esbuild's options for the server bundle, less where it is written. */
/** @type {import('esbuild').BuildOptions} */
export const SERVER_BUNDLE = {
  entryPoints: ['src/server/serve.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: 'src/server/tsconfig.node.json',
  // Also marks their subpaths (`pkg/…`) external.
  external: RUNTIME_DEPENDENCIES,
  logLevel: 'warning',
};

/** The questboard-token command: the same configuration, its own entry. */
export const TOKEN_CLI_BUNDLE = { ...SERVER_BUNDLE, entryPoints: ['src/server/token-cli.ts'] };

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A bundle written outside the project, where a bare import would find no
 * node_modules: each runtime dependency is imported by its file URL in this
 * checkout instead.
 * @type {import('esbuild').Plugin}
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

/** The server the tests start: the same, with the /_test/ routes (never shipped). */
export const TEST_SERVER_ENTRY = 'test/hosts/test-server.ts';

/**
 * Bundles the server of this checkout's source into `outfile` (anywhere), as `npm run serve` runs
 * it; `testServer`: the tests' server instead (TEST_SERVER_ENTRY).
 * @param {string} outfile
 * @param {{ testServer?: boolean }} [options]
 */
export async function bundleServerSource(outfile, { testServer = false } = {}) {
  await build({
    ...SERVER_BUNDLE,
    ...(testServer ? { entryPoints: [TEST_SERVER_ENTRY] } : {}),
    absWorkingDir: root,
    outfile,
    external: [],
    plugins: [dependenciesOfThisCheckout],
  });
}
