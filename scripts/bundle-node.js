// Bundles a TypeScript entry of src/ for Node, so scripts and tests run the
// current source. Packages stay external and the bundle is written inside the
// project (node_modules/.cache), where it finds them: PGlite loads its
// WebAssembly from beside its own module.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * One module with the exports of every entry given (paths relative to the
 * project root). Returns the bundle's path and a function that removes it.
 * @param {...string} entries
 */
export async function bundleForNode(...entries) {
  const cache = join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const directory = await mkdtemp(join(cache, 'questboard-'));
  const file = join(directory, 'bundle.mjs');
  await build({
    absWorkingDir: root,
    stdin: { contents: entries.map((path) => `export * from './${path}';`).join('\n'), resolveDir: root, loader: 'ts' },
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: 'src/server/tsconfig.node.json',
    logLevel: 'warning',
  });
  return { file, remove: () => rm(directory, { recursive: true, force: true }) };
}
