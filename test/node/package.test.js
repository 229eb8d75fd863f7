// The server as the package ships it (npm test builds dist/ before these run):
// the questboard-server and questboard-token commands, and bundles that import
// nothing an installed package lacks.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const BUNDLES = ['dist/node/server.js', 'dist/node/token.js'];

before(() => {
  for (const bundle of BUNDLES) {
    assert.ok(existsSync(new URL(`../../${bundle}`, import.meta.url)), `${bundle} is missing: run npm run build first`);
  }
});

it('names bin/questboard-server.js and bin/questboard-token.js as its commands, and ships them with dist/', () => {
  assert.deepEqual(packageJson.bin, {
    'questboard-server': 'bin/questboard-server.js',
    'questboard-token': 'bin/questboard-token.js',
  });
  for (const folder of ['bin', 'dist']) assert.ok(packageJson.files.includes(folder), `package.json "files" lacks ${folder}`);
});

/** Runs a command as npx does: its bin file, through the shebang of an executable file, from elsewhere. */
function runCommand(name, args) {
  const launcher = `${root}${packageJson.bin[name]}`;
  assert.match(readFileSync(launcher, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  assert.ok(statSync(launcher).mode & 0o111, `${launcher} is not executable`);
  return spawnSync(launcher, args, { cwd: '/', encoding: 'utf8' });
}

it('runs questboard-server --help as npx does', () => {
  const { status, stdout, stderr } = runCommand('questboard-server', ['--help']);
  assert.equal(status, 0, stderr);
  assert.match(stdout, /^Usage: questboard-server \[options\]/);
});

it('runs questboard-token keygen, then sign with the key it printed, as npx does', () => {
  const help = runCommand('questboard-token', ['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: questboard-token keygen/);
  const keygen = runCommand('questboard-token', ['keygen', '--alg', 'EdDSA', '--kid', 'k1']);
  assert.equal(keygen.status, 0, keygen.stderr);
  const directory = mkdtempSync(join(tmpdir(), 'questboard-package-'));
  try {
    const keyFile = join(directory, 'private.jwk');
    writeFileSync(keyFile, JSON.stringify(JSON.parse(keygen.stdout).private_jwk));
    const sign = runCommand('questboard-token', ['sign', '--app', 'guild', '--member', 'alice', '--key', keyFile]);
    assert.equal(sign.status, 0, sign.stderr);
    assert.match(sign.stdout, /^[\w-]+\.[\w-]+\.[\w-]+\n$/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

it('imports only node: modules and the packages in "dependencies"', () => {
  const text = BUNDLES.map((bundle) => readFileSync(new URL(`../../${bundle}`, import.meta.url), 'utf8')).join('\n');
  const specifiers = [
    ...text.matchAll(/^(?:import|export)\s[^;]*?from\s*"([^"]+)"|^import\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm),
  ].map((match) => match[1] ?? match[2] ?? match[3]);
  assert.ok(specifiers.includes('pino'), 'the server imports pino');
  assert.ok(specifiers.includes('jose/jwt/sign'), 'the token command imports jose');
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
