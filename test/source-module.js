// Modules of src/ as node's test runner can import them: Node runs no
// TypeScript, so they are bundled (scripts/bundle-node.js) and imported.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { bundleForNode } from '../scripts/bundle-node.js';

/**
 * One module with the exports of every path given (relative to the project root); removed when
 * the test file's process exits, not after its tests: a data directory's PGlite runs in a worker
 * thread started from this module (src/server/pglite-thread.ts), whenever a test opens one.
 * @param {...string} paths
 */
export async function importSource(...paths) {
  const bundle = await bundleForNode(...paths);
  process.on('exit', () => rmSync(dirname(bundle.file), { recursive: true, force: true }));
  return import(bundle.file);
}
