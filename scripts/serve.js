// `npm run serve`: bundles the Node host of the /v1 handler (src/node/serve.ts)
// and runs it in this process, so it always runs the current source.
import { build } from 'esbuild';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const directory = await mkdtemp(join(tmpdir(), 'questboard-serve-'));
const bundle = join(directory, 'serve.mjs');
try {
  await build({
    absWorkingDir: root,
    entryPoints: ['src/node/serve.ts'],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: 'src/node/tsconfig.node.json',
    logLevel: 'warning',
  });
  await import(pathToFileURL(bundle).href);
} finally {
  // The module is loaded by now; the file is not needed to keep running.
  await rm(directory, { recursive: true, force: true });
}
