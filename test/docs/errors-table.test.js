// docs/errors.md lists every code of the catalog (src/api/error-codes.ts) with its status, and
// nothing else; the catalog names each refusal as its code, so there is one way to spell it.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { importSource } from '../source-module.js';

const catalog = await importSource('src/api/error-codes.ts');
const refusals = Object.entries(catalog).filter(([, value]) => typeof value === 'object');

it('docs/errors.md has a row for each code, with its status, and none other', async () => {
  const text = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = [...text.matchAll(/^\| `([a-z-]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => `${code} ${status}`);
  assert.deepEqual(rows.toSorted(), refusals.map(([, { code, status }]) => `${code} ${status}`).toSorted());
});

it('names each refusal as its code, and no two alike', () => {
  const misnamed = refusals.filter(([name, { code }]) => name !== code.toUpperCase().replaceAll('-', '_'));
  assert.deepEqual(misnamed, []);
  const codes = refusals.map(([, { code }]) => code);
  assert.equal(new Set(codes).size, codes.length);
});
