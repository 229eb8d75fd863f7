// Imports point one way (CONTRIBUTING.md: Architecture): a folder of src/ may import only
// folders below it in LAYERS. This test reads every import in src/ and fails on
// one that points up or sideways, naming the file and what it imports.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** Top to bottom. Hosts may import everything below them, and none of them another host. */
export const LAYERS = [
  ['index.ts', 'embed', 'worker', 'server', 'console'],
  ['components'],
  ['client'],
  ['remote'],
  ['handler'],
  ['core'],
  ['store'],
  ['ui'],
  ['i18n'],
  ['api'],
];
const rank = new Map(LAYERS.flatMap((names, index) => names.map((name) => [name, index])));

/** @param {string} directory */
async function sourceFiles(directory) {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * The part of src/ a path belongs to: its first folder, or the file itself at the top.
 * @param {string} path
 */
const layerOf = (path) => relative(src, path).split('/')[0];

it('every import in src/ points down the layers', async () => {
  const wrong = [];
  for (const file of await sourceFiles(src)) {
    const text = await readFile(file, 'utf8');
    // `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`.
    for (const match of text.matchAll(
      /\b(?:import|export)\s[^'";]*?from\s+'([^']+)'|\bimport\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g,
    )) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier.startsWith('.')) continue;
      const from = layerOf(file);
      const to = layerOf(resolve(dirname(file), specifier));
      if (from === to) continue;
      if (!rank.has(from) || !rank.has(to)) wrong.push(`${relative(src, file)}: ${specifier} (a folder missing from LAYERS)`);
      else if (/** @type {number} */ (rank.get(to)) <= /** @type {number} */ (rank.get(from)))
        wrong.push(`${relative(src, file)} (${from}) imports ${specifier} (${to})`);
    }
  }
  assert.deepEqual(wrong, []);
});

it('the rules and the handler reach the store through its port only', async () => {
  const wrong = [];
  for (const file of await sourceFiles(src)) {
    if (!['core', 'handler'].includes(layerOf(file))) continue;
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/from\s+'([^']+)'/g)) {
      const target = relative(src, resolve(dirname(file), match[1]));
      if (target.startsWith('store/') && target !== 'store/index.js') wrong.push(`${relative(src, file)}: ${match[1]}`);
    }
  }
  assert.deepEqual(wrong, []);
});
