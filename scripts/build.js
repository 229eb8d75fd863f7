// npm run build: writes dist/ (the CDN contract and the npm package), then
// prints every shipped script's size and fails when a budget is exceeded.
//
//   dist/questboard-sw.js      the service worker: one classic script, no import
//   dist/questboard.js         the script-tag embed: one classic script
//   dist/questboard-inpage.js  the handler the embed imports from beside itself where no worker serves
//   dist/esm/**                ES modules for bundlers (lit, idb, zod external)
//   dist/types/**              .d.ts for dist/esm
//   dist/custom-elements.json  the custom elements manifest
//   dist/react.d.ts, vue.d.ts  the elements' types for React 19's JSX and Vue's templates, from the manifest
//   dist/themes/*.css          ready-made themes mapping --qb-* onto Bootstrap, Pico and Tailwind (src/themes)
//   dist/node/server.js        the Node server, run by bin/questboard-server.js (package.json "bin")
//   dist/node/token.js         member token keys and tokens, run by bin/questboard-token.js (package.json "bin")
//   dist/console/*             the community manager's console (src/console), served by the server at /console/
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { build as esbuild } from 'esbuild';
import { build } from 'vite';
import { reactTypes, vueTypes } from './framework-types.js';
import { lazyElementKit } from './lazy-element-kit.js';
import { minifyCssTemplates } from './minify-css-templates.js';
import { SERVER_BUNDLE, TOKEN_CLI_BUNDLE } from './server-bundle.js';
import { MODULES_ENTRY, SHIPPED_SCRIPTS } from './shipped-scripts.js';
import { reportSizes } from './size-report.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

// Peer-style dependencies stay imports in dist/esm so a site bundles one copy.
const EXTERNAL_PACKAGES = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', 'idb', 'zod'];
const isExternal = (id) => EXTERNAL_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`));

function sharedConfig(tsconfig) {
  return {
    configFile: false,
    root,
    tsconfig,
    publicDir: false,
    logLevel: 'warn',
  };
}

/**
 * A script a site loads by URL, served as is: a classic script (iife) for `<script src>`,
 * `navigator.serviceWorker.register()` and `importScripts()`, or an ES module that the embed
 * import()s from beside itself.
 */
async function buildShippedScript(fileName, { entry, tsconfig, format, globalName, lazyElement }) {
  const classic = format === 'iife';
  await build({
    ...sharedConfig(tsconfig),
    // Libraries such as lit read it; a page has no bundler to replace it.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [minifyCssTemplates(), ...(lazyElement ? [lazyElementKit(entry)] : [])],
    build: {
      outDir: dist,
      emptyOutDir: false,
      target: 'es2022',
      minify: true,
      reportCompressedSize: false,
      lib: { entry, formats: [classic ? 'iife' : 'es'], name: globalName, fileName: () => fileName },
      // Vite leaves whitespace in ES library output for bundlers to minify; this file is served as is.
      ...(classic ? {} : { rolldownOptions: { output: { minify: true } } }),
    },
  });
  if (classic) assertClassicScript(join(dist, fileName));
}

// A static import or an untranspiled decorator would only fail in the browser,
// at registration: parse the output as a classic script here instead.
function assertClassicScript(path) {
  try {
    new Script(readFileSync(path, 'utf8'), { filename: path });
  } catch (error) {
    throw new Error(`${path} is not a classic script: ${error.message}`);
  }
}

// Compiler helpers (decorators) would otherwise land under a versioned
// `_virtual/_@oxc-project_runtime@x.y.z/helpers/esm/` path.
function moduleFileName(chunk) {
  return chunk.name.includes('@oxc-project') ? `helpers/${basename(chunk.name)}.js` : '[name].js';
}

async function buildModules() {
  await build({
    ...sharedConfig('tsconfig.json'),
    build: {
      outDir: join(dist, 'esm'),
      emptyOutDir: false,
      target: 'es2022',
      // Bundlers minify the application as a whole; readable modules help them and the reader.
      minify: false,
      reportCompressedSize: false,
      lib: { entry: MODULES_ENTRY, formats: ['es'] },
      rolldownOptions: {
        external: isExternal,
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: moduleFileName },
      },
    },
  });
}

const serverFile = join(dist, 'node', 'server.js');
const tokenCliFile = join(dist, 'node', 'token.js');

/** Not scripts a site loads (so not in SHIPPED_SCRIPTS): Node programs, their runtime dependencies left as imports. */
async function buildNodePrograms() {
  await esbuild({ ...SERVER_BUNDLE, absWorkingDir: root, outfile: serverFile });
  await esbuild({ ...TOKEN_CLI_BUNDLE, absWorkingDir: root, outfile: tokenCliFile });
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

// TypeScript 7's own tsc, by path: node_modules/.bin/tsc may be TypeScript 5's (the alias vue-tsc needs).
const TSC = join(root, 'node_modules/typescript/bin/tsc');

function emitDeclarations() {
  run(process.execPath, [TSC, '-p', 'tsconfig.build.json']);
}

// The analyzer also rewrites package.json unless its `customElements` field
// already names this output, which it does.
function analyzeCustomElements() {
  run(join(root, 'node_modules/.bin/cem'), [
    'analyze',
    '--litelement',
    '--globs',
    'src/components/**/*.ts',
    '--exclude',
    'src/components/**/*.test.ts',
    '--outdir',
    'dist',
    '--quiet',
  ]);
}

const manifestFile = join(dist, 'custom-elements.json');

/**
 * Points the manifest at what the package ships (dist/esm/**.js, not src/**.ts) and drops
 * what the analyzer reads from our helpers' parameters: the definition in defineElement's own
 * `customElements.define(tag, …)` and the event in QuestboardElement.emit's
 * `new CustomEvent(name, …)`. A custom element's name always has a hyphen, and so has every
 * event of ours (qb-…); a parameter name has none.
 */
function shipManifest() {
  const shipped = (value) => {
    const match = /^\/?src\/(.+)\.[jt]s$/.exec(value);
    const target = match && `dist/esm/${match[1]}.js`;
    return target && existsSync(join(root, target)) ? target : value;
  };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'), (key, value) =>
    (key === 'path' || key === 'module') && typeof value === 'string' ? shipped(value) : value,
  );
  for (const module of manifest.modules) {
    module.exports = module.exports?.filter((entry) => entry.kind !== 'custom-element-definition' || entry.name.includes('-'));
    for (const declaration of module.declarations ?? []) {
      if (declaration.events) declaration.events = declaration.events.filter((event) => event.name.includes('-'));
    }
  }
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
}

const consoleDirectory = join(dist, 'console');
const CONSOLE_ENTRY = 'src/console/index.ts';

/**
 * The console: a bundle of its own that the embed never loads, with lit inside (the server
 * serves it as is), each language's words a chunk loaded on demand. Hashed names let the
 * server have browsers keep them for good; index.html names the entry's.
 */
async function buildConsole() {
  const { metafile } = await esbuild({
    entryPoints: [CONSOLE_ENTRY],
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    target: 'es2022',
    tsconfig: 'tsconfig.json',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    outdir: consoleDirectory,
    entryNames: 'console-[hash]',
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    metafile: true,
  });
  const [entry] = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === CONSOLE_ENTRY);
  const page = readFileSync(join(root, 'src/console/index.html'), 'utf8');
  writeFileSync(join(consoleDirectory, 'index.html'), page.replace('./index.ts', `./${basename(entry)}`));
  return join(root, entry);
}

const themesDirectory = join(dist, 'themes');

/** The theme files are plain CSS a site links by URL: shipped as written. */
function copyThemes() {
  cpSync(join(root, 'src', 'themes'), themesDirectory, { recursive: true });
}

/** `questboard/react` and `questboard/vue`: the ES entry's types plus every element's, for each framework. */
function writeFrameworkTypes() {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  writeFileSync(join(dist, 'react.d.ts'), reactTypes(manifest));
  writeFileSync(join(dist, 'vue.d.ts'), vueTypes(manifest));
}

function listFiles(directory) {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function main() {
  rmSync(dist, { recursive: true, force: true });
  const shipped = [];

  for (const [fileName, script] of Object.entries(SHIPPED_SCRIPTS)) {
    await buildShippedScript(fileName, script);
    shipped.push({ path: join(dist, fileName), budgetKB: script.budgetKB });
  }

  await buildModules();
  emitDeclarations();
  shipped.push(...listFiles(join(dist, 'esm')).map((path) => ({ path })));

  analyzeCustomElements();
  shipManifest();
  shipped.push({ path: manifestFile });
  writeFrameworkTypes();

  await buildNodePrograms();
  shipped.push({ path: serverFile }, { path: tokenCliFile });

  shipped.push({ path: await buildConsole() });

  copyThemes();
  shipped.push(...listFiles(themesDirectory).map((path) => ({ path })));

  const overBudget = reportSizes(shipped, root);
  for (const { path, gzip, budgetKB } of overBudget) {
    console.error(`error: ${path} is ${gzip} bytes min+gzip, over its budget of ${budgetKB} KB (${budgetKB * 1000} bytes).`);
  }
  if (overBudget.length > 0) process.exit(1);
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
