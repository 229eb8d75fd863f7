// The engine table of docs/embedding.md is the one MDN's compatibility data gives today
// (scripts/engine-support.js): regenerate it with `npm run compat` when either changes.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { engineTable } from '../../scripts/engine-support.js';

it('docs/embedding.md holds the engine table drawn from browser-compat-data', async () => {
  const embedding = await readFile(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
  assert.ok(embedding.includes(engineTable()), 'docs/embedding.md: paste the output of `npm run compat` over its engine table');
});
