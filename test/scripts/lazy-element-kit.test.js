// scripts/lazy-element-kit.js: an element loaded on demand takes Lit and the shared pieces from
// the embed's kit, and the build refuses any other shared code it would carry a copy of.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { lazyElementKitForEsbuild } from '../../scripts/lazy-element-kit.js';
import { readFileSync } from 'node:fs';

const { version: VERSION } = JSON.parse(readFileSync('package.json', 'utf8'));
/** @param {string} name */
const fixture = (name) => `test/scripts/fixtures/lazy-element/${name}.ts`;

/**
 * Bundles a fixture as the demo's dev server bundles a lazy element; resolves to its code.
 * @param {string} name
 */
async function bundle(name) {
  const result = await build({
    entryPoints: [fixture(name)],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [lazyElementKitForEsbuild(fixture(name))],
  });
  return result.outputFiles[0].text;
}

it('reads the kit from the embed of its own version, and carries its own code and the contract only', async () => {
  const code = await bundle('good');
  assert.match(code, new RegExp(`Symbol\\.for\\("questboard\\.kit@${VERSION.replaceAll('.', '\\.')}"\\)`));
  assert.match(code, /QuestboardElement/);
  assert.match(code, /"fixture"/, 'its own folder is bundled');
  assert.match(code, /var levelStart = /, 'the contract is bundled');
  assert.doesNotMatch(code, /lit-html|reactiveElementVersions|class LitElement/, 'no copy of Lit');
});

it('refuses a lazy element that imports Lit, or shared code, other than through the kit', async () => {
  await assert.rejects(bundle('takes-lit'), /takes-lit\.ts imports lit: .*kit\.ts only/);
  await assert.rejects(bundle('takes-client'), /takes-client\.ts imports .*client\/config\.js: .*kit\.ts only/);
});
