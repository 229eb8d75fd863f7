// The README's engine table is the one MDN's compatibility data gives today
// (scripts/engine-support.js): regenerate it with `npm run compat` when either changes.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { engineTable } from '../../scripts/engine-support.js';

it('the README holds the engine table drawn from browser-compat-data', async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(engineTable()), 'README.md: paste the output of `npm run compat` over its engine table');
});
