// Modules of src/ as node's test runner can import them: Node runs no
// TypeScript, so they are bundled whole (dependencies included) by esbuild
// and imported from memory.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One module with the exports of every path given (relative to the project root). */
export async function importSource(...paths) {
  const { outputFiles } = await build({
    stdin: { contents: paths.map((path) => `export * from './${path}';`).join('\n'), resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: `${root}src/node/tsconfig.node.json`,
    write: false,
    logLevel: 'warning',
  });
  return import(`data:text/javascript,${encodeURIComponent(outputFiles[0].text)}`);
}
