// The package as npm would publish it (npm test builds dist/ before these run): what
// `npm pack` puts in it, its license, the questboard-server and questboard-token
// commands, bundles that import nothing an installed package lacks, and an ES entry that
// exports what sites use and nothing else.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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

/**
 * Runs a command as npx does: its bin file, through the shebang of an executable file, from elsewhere.
 * @param {string} name
 * @param {string[]} args
 */
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

it("ships a server without the tests' routes and flag (test/hosts/test-server.ts)", () => {
  const server = readFileSync(new URL('../../dist/node/server.js', import.meta.url), 'utf8');
  assert.ok(server.includes('/v1/'), 'dist/node/server.js serves no /v1/: not the server');
  assert.ok(!server.includes('/_test/'), 'dist/node/server.js has /_test/ routes');
  assert.ok(!server.includes('test-hooks'), 'dist/node/server.js takes --test-hooks');
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
  /** @param {string} specifier */
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

/** The files `npm pack` would put in the tarball, as npm lists them. */
function packedFiles() {
  const { status, stdout, stderr } = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(status, 0, stderr);
  const [pack] = JSON.parse(stdout);
  return new Set(pack.files.map((/** @type {{ path: string }} */ file) => file.path));
}

it('is publishable under the MIT license, with its LICENSE file', () => {
  assert.equal(packageJson.private, undefined);
  assert.equal(packageJson.license, 'MIT');
  const license = readFileSync(`${root}LICENSE`, 'utf8');
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 Questboard contributors\n/);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

it('packs every built file, the types, manifest and themes, README, LICENSE and docs, and nothing else', () => {
  const packed = packedFiles();
  const built = readdirSync(`${root}dist`, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `${entry.parentPath.slice(root.length)}/${entry.name}`);
  assert.deepEqual(
    built.filter((file) => !packed.has(file)),
    [],
    'built files left out',
  );
  for (const file of [
    'package.json',
    'README.md',
    'LICENSE',
    ...Object.values(packageJson.bin),
    'dist/questboard.js',
    'dist/questboard-sw.js',
    'dist/questboard-inpage.js',
    'dist/types/index.d.ts',
    'dist/react.d.ts',
    'dist/vue.d.ts',
    'dist/custom-elements.json',
    'dist/themes/bootstrap.css',
    'dist/themes/pico.css',
    'dist/themes/tailwind.css',
    'docs/rules.md',
    'examples/community.json',
  ]) {
    assert.ok(packed.has(file), `${file} is not packed`);
  }
  const outside = [...packed].filter(
    (file) =>
      !/^(dist|docs|examples)\//.test(file) &&
      !['package.json', 'README.md', 'LICENSE', ...Object.values(packageJson.bin)].includes(file),
  );
  assert.deepEqual(outside, [], 'packed beyond dist/, docs/, examples/ and the top-level files');
  // The dated history of what was tried is for the engineers, not for a site's node_modules.
  assert.deepEqual(
    [...packed].filter((file) => file.startsWith('docs/decisions/')),
    [],
    'docs/decisions/ is packed',
  );
  // No source maps are built, and none may ship pointing at sources the package leaves out.
  assert.deepEqual(
    [...packed].filter((file) => file.endsWith('.map')),
    [],
  );
});

it('packs every file its entry points name', () => {
  const packed = packedFiles();
  /**
   * The files of an "exports" entry: a path, or conditions each giving one.
   * @typedef {string | { [condition: string]: ExportTarget }} ExportTarget
   * @param {ExportTarget} value
   * @returns {string[]}
   */
  const targets = (value) => (typeof value === 'string' ? [value] : Object.values(value).flatMap(targets));
  const named = [
    packageJson.main,
    packageJson.types,
    packageJson.unpkg,
    packageJson.jsdelivr,
    packageJson.customElements,
    ...Object.values(packageJson.bin),
    ...Object.entries(packageJson.exports)
      .filter(([subpath]) => !subpath.includes('*'))
      .flatMap(([, value]) => targets(value)),
  ].map((path) => path.replace(/^\.\//, ''));
  assert.deepEqual(
    named.filter((path) => !packed.has(path)),
    [],
  );
  assert.deepEqual(packageJson.exports['./themes/*.css'], './dist/themes/*.css');
});

/** The names the package's ES entry (dist/esm/index.js) exports at run time, as a bundler sees them. */
async function entryExports() {
  const { metafile } = await build({
    entryPoints: [`${root}${packageJson.exports['.'].import}`],
    bundle: true,
    packages: 'external',
    format: 'esm',
    write: false,
    metafile: true,
    outdir: tmpdir(),
    logLevel: 'silent',
  });
  return /** @type {import('esbuild').Metafile['outputs'][string]} */ (
    Object.values(metafile.outputs).find((output) => output.entryPoint)
  ).exports.sort();
}

// What a site's code may use; hooks between our own modules (setInPageServerLoader,
// announceChange, handleProblem, …) are imported from their modules, never from the entry.
it('exports from its ES entry what sites use, and no internal hook', async () => {
  assert.deepEqual(await entryExports(), [
    'LANGUAGES',
    'MemberTokens',
    'MissingApiKeyError',
    'QUESTBOARD_VERSION',
    'QbAchievements',
    'QbChallenge',
    'QbConnectSocial',
    'QbEndorseButton',
    'QbLeaderboard',
    'QbQuestTask',
    'QbSeasonPicker',
    'QbTaskProgress',
    'QbUserCard',
    'QbUserHighlights',
    'QuestboardClient',
    'QuestboardError',
    'TRUSTED_TYPES_POLICY_NAME',
    'changeAffects',
    'clientFor',
    'configure',
    'currentConfig',
    'fetchTransport',
    'inPageTransport',
    'renderLeaderboardFragment',
    'resolveTransport',
    'subscribeToChanges',
  ]);
});

it('ships each element loaded on demand with the embed’s kit, no Lit of its own', () => {
  const files = readdirSync(join(root, 'dist/elements'));
  assert.ok(files.length > 0, 'dist/elements/ is empty');
  for (const file of files) {
    const code = readFileSync(join(root, 'dist/elements', file), 'utf8');
    assert.match(code, /Symbol\.for\(`questboard\.kit@/, `${file} reads the embed's kit`);
    // Lit registers its version on first evaluation: a copy of it would say so.
    assert.doesNotMatch(code, /litHtmlVersions|reactiveElementVersions|litElementVersions/, `${file} carries Lit`);
  }
});
