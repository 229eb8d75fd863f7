// The server as the package ships it (npm test builds dist/ before these run):
// the questboard-server command, and a bundle that imports nothing an
// installed package lacks.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { before, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const BUNDLE = 'dist/node/server.js';

before(() => {
  assert.ok(existsSync(new URL(`../../${BUNDLE}`, import.meta.url)), `${BUNDLE} is missing: run npm run build first`);
});

it('names bin/questboard-server.js as the questboard-server command, and ships it with dist/', () => {
  assert.deepEqual(packageJson.bin, { 'questboard-server': 'bin/questboard-server.js' });
  for (const folder of ['bin', 'dist']) assert.ok(packageJson.files.includes(folder), `package.json "files" lacks ${folder}`);
});

it('runs questboard-server --help as npx does: through the shebang of an executable file', () => {
  const launcher = `${root}${packageJson.bin['questboard-server']}`;
  assert.match(readFileSync(launcher, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  assert.ok(statSync(launcher).mode & 0o111, `${launcher} is not executable`);
  const { status, stdout, stderr } = spawnSync(launcher, ['--help'], { cwd: '/', encoding: 'utf8' });
  assert.equal(status, 0, stderr);
  assert.match(stdout, /^Usage: questboard-server \[options\]/);
});

it('imports only node: modules and the packages in "dependencies"', () => {
  const text = readFileSync(new URL(`../../${BUNDLE}`, import.meta.url), 'utf8');
  const specifiers = [
    ...text.matchAll(/^(?:import|export)\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm),
  ].map((match) => match[1] ?? match[2] ?? match[3]);
  assert.ok(specifiers.includes('pino'), 'the bundle imports pino');
  const packageOf = (specifier) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  const outside = specifiers.filter(
    (specifier) =>
      !specifier.startsWith('node:') &&
      !builtinModules.includes(specifier) &&
      !Object.hasOwn(packageJson.dependencies, packageOf(specifier)),
  );
  assert.deepEqual(outside, []);
});
