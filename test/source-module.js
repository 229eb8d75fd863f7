// Modules of src/ as node's test runner can import them: Node runs no
// TypeScript, so they are bundled (scripts/bundle-node.js) and imported.
import { after } from 'node:test';
import { bundleForNode } from '../scripts/bundle-node.js';

/** One module with the exports of every path given (relative to the project root); removed after the file's tests. */
export async function importSource(...paths) {
  const bundle = await bundleForNode(...paths);
  after(() => bundle.remove());
  return import(bundle.file);
}
