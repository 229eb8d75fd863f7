// npm run bench [-- --sizes=1000,10000,100000 --rounds=100 --warmup=20 --no-docs]
//                [--first-paint-rounds=40] [--first-paint-only] [--console-rounds=20] [--console-only] [--note="…"]
//
// Seeds apps of each size through the built service worker in headless
// Chromium, times every operation against /v1/health in the same run, prints
// one table per size and writes its section of docs/performance.md. First it
// times a returning visitor's first paint with the built embed
// (bench/first-paint.js), which writes a section of its own; last, the console's first screen
// after signing in, over the largest app (bench/console-first-screen.js), a section too.
// --console-only seeds the apps and times the console alone, writing its section only.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findBrowser } from '../scripts/find-browser.js';
import { writeSection } from './docs-section.js';
import { describeMachine } from './machine.js';
import {
  FIRST_PAINT_TARGET_MS,
  firstPaintMarkdown,
  formatFirstPaint,
  formatTable,
  performanceMarkdown,
  summarize,
  count,
} from './report.js';
import { measureFirstPaint } from './first-paint.js';
import { consoleMarkdown, formatConsoleFirstScreen, measureConsoleFirstScreen } from './console-first-screen.js';
import { seedInChunks } from './seed.js';
import { startServer } from './server.js';
import { readSettings } from './settings.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const workerFile = join(root, 'dist/questboard-sw.js');
const embedFile = join(root, 'dist/questboard.js');
const docsFile = join(root, 'docs/performance.md');

// The whole run must stay bounded even if a request or an import hangs.
const RUN_DEADLINE_MS = 20 * 60 * 1000;

const {
  values: options,
  sizes,
  timing: settings,
  refuse,
} = readSettings({
  defaultSizes: '1000,10000,100000',
  minSize: 2,
  options: {
    'first-paint-rounds': { type: 'string', default: '40' },
    'first-paint-only': { type: 'boolean', default: false },
    'console-rounds': { type: 'string', default: '20' },
    'console-only': { type: 'boolean', default: false },
    // Written under "Machine": what else ran on it, say.
    note: { type: 'string', default: '' },
  },
  usage:
    'usage: npm run bench -- [--sizes=1000,10000,100000] [--rounds=100] [--warmup=20] [--no-docs]\n' +
    '                        [--first-paint-rounds=40] [--first-paint-only] [--console-rounds=20] [--console-only]\n' +
    '                        [--note="what else ran"]',
});
const firstPaintRounds = Number(options['first-paint-rounds']);
const consoleRounds = Number(options['console-rounds']);
if (!(firstPaintRounds > 0) || !(consoleRounds > 0)) refuse();
/** Unkept first navigations: the HTTP cache, the compiled embed and the worker warm up. */
const FIRST_PAINT_WARMUP = 5;
const CONSOLE_WARMUP = 3;
const consoleFile = join(root, 'dist/console/index.html');

function newestSourceTime() {
  return Math.max(
    ...readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs),
  );
}

function ensureBuilt() {
  const newest = newestSourceTime();
  if ([workerFile, embedFile, consoleFile].every((file) => existsSync(file) && statSync(file).mtimeMs >= newest)) return;
  console.log('Building first: dist/questboard-sw.js or dist/questboard.js is missing or older than src/.');
  const build = spawnSync(process.execPath, [join(root, 'scripts/build.js')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed; fix it before benchmarking.');
}

/** Times one import of all the members into the app's twin, to set against the chunked seeding. */
async function importWhole(page, { size, appIndex, nowMs }) {
  const started = performance.now();
  const { status } = await page.evaluate((args) => window.bench.importChunk(args), {
    size,
    appIndex,
    start: 0,
    end: size,
    nowMs,
    whole: true,
  });
  // Refused as too large: the table says so instead of a time.
  return status === 413 ? null : (performance.now() - started) / 1000;
}

/** Imports the app's members in merge-mode chunks (bench/seed.js), each through the page. */
function seed(page, { size, appIndex, nowMs }) {
  return seedInChunks({
    size,
    importChunk: ({ start, end }) =>
      page.evaluate((args) => window.bench.importChunk(args), { size, appIndex, start, end, nowMs }),
  });
}

async function main() {
  const started = performance.now();
  ensureBuilt();
  const server = await startServer({ benchDir: join(root, 'bench'), distDir: join(root, 'dist') });
  const browser = await puppeteer.launch({
    executablePath: await findBrowser(),
    args: CHROMIUM_ARGS,
    headless: true,
    protocolTimeout: 10 * 60 * 1000,
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.bench !== undefined, { timeout: 20_000 });
    const scriptURL = await page.evaluate(() => window.bench.controlledByWorker());
    const machine = { ...describeMachine(), browser: await browser.version() };
    machine.timerStep = (await page.evaluate(() => crossOriginIsolated)) ? '5 µs (cross-origin isolated page)' : '100 µs';
    console.log(`Worker ${scriptURL} controls the page; ${machine.browser}, ${machine.cpus} CPUs (${machine.cpuModel}).`);

    const nowMs = Date.now();
    const date = () => new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
    const consoleOnly = options['console-only'];
    if (!consoleOnly) {
      console.log(`\nFirst paint of a returning visitor (${firstPaintRounds} rounds)`);
      const firstPaint = await measureFirstPaint({
        browser,
        seeder: page,
        origin: server.url,
        appIndex: sizes.length,
        nowMs,
        rounds: firstPaintRounds,
        warmup: FIRST_PAINT_WARMUP,
      });
      if (server.apiRequestsSeen() > 0) throw new Error('/v1 requests reached the static server: the worker did not answer them');
      console.log(formatFirstPaint(firstPaint.rows));
      if (!options['no-docs']) {
        const markdown = firstPaintMarkdown({
          ...firstPaint,
          warmup: FIRST_PAINT_WARMUP,
          machine,
          note: options.note,
          date: date(),
        });
        writeSection(docsFile, 'bench:first-paint', markdown);
        console.log(`Wrote its section of ${docsFile} (target: first rows within ${FIRST_PAINT_TARGET_MS} ms).`);
      }
    }
    if (options['first-paint-only']) return;

    const results = [];
    for (const [appIndex, size] of sizes.entries()) {
      console.log(`\n${size.toLocaleString('en-US')} members`);
      const seeded = await seed(page, { size, appIndex, nowMs });
      if (consoleOnly) continue;
      const timings = await page.evaluate((args) => window.bench.measure(args), { size, appIndex, ...settings });
      const rows = summarize(timings);
      if (server.apiRequestsSeen() > 0) throw new Error('/v1 requests reached the static server: the worker did not answer them');
      console.log(`${timings.rounds} rounds kept`);
      console.log(formatTable(rows));
      // After the measurements, so that they see the chunked app alone.
      const wholeSeconds = await importWhole(page, { size, appIndex, nowMs });
      console.log(
        `one import of all ${size.toLocaleString('en-US')} members: ${wholeSeconds === null ? 'refused as too large (413)' : `${wholeSeconds.toFixed(1)} s`}`,
      );
      results.push({ size, ...seeded, wholeSeconds, rounds: timings.rounds, rows });
    }

    console.log(`\nThe console's first screen after signing in (${consoleRounds} rounds)`);
    const consoleScreen = await measureConsoleFirstScreen({
      browser,
      origin: server.url,
      rounds: consoleRounds,
      warmup: CONSOLE_WARMUP,
    });
    if (server.apiRequestsSeen() > 0) throw new Error('/v1 requests reached the static server: the worker did not answer them');
    console.log(formatConsoleFirstScreen(consoleScreen));
    if (!options['no-docs']) {
      const members = count(Math.max(...sizes));
      writeSection(
        docsFile,
        'bench:console',
        consoleMarkdown({ ...consoleScreen, members, machine, note: options.note, date: date() }),
      );
    }

    if (consoleOnly) return;
    const minutes = (performance.now() - started) / 60_000;
    console.log(`\nBenchmark took ${minutes.toFixed(1)} min.`);
    if (!options['no-docs']) {
      writeSection(docsFile, 'bench', performanceMarkdown({ results, machine, settings, date: date(), minutes }));
      console.log(`\nWrote its section of ${docsFile}.`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

setTimeout(() => {
  console.error(`The benchmark did not finish within ${RUN_DEADLINE_MS / 60000} minutes.`);
  process.exit(1);
}, RUN_DEADLINE_MS).unref();

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});
