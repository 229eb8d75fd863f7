// The scripts a site loads by plain URL, as dist/ ships them: one table read by
// the build (scripts/build.js), the demo's dev server (vite.config.ts) and the
// test runner (web-test-runner.config.js), which bundle them from source.
import { readFileSync, readdirSync } from 'node:fs';

/**
 * @typedef {object} ShippedScript
 * @property {string} entry      the source it is bundled from
 * @property {string} tsconfig
 * @property {'iife' | 'esm'} format  iife: a classic script (`<script src>`, `register()`, `importScripts()`)
 * @property {string} [globalName]    where a classic script's exports land
 * @property {number} budgetKB        min+gzip budget the build enforces
 * @property {boolean} [lazyElement]  an element the embed loads on demand: it takes its shared code from the embed (scripts/lazy-element-kit.js)
 */

/** The tags of src/components/shared/lazy-elements.ts's LAZY_ELEMENTS, their one home. */
function lazyElementTags() {
  const source = readFileSync(new URL('../src/components/shared/lazy-elements.ts', import.meta.url), 'utf8');
  const list = /LAZY_ELEMENTS: readonly LazyElement\[\] = \[([^\]]*)\]/.exec(source);
  if (!list) throw new Error('src/components/shared/lazy-elements.ts: LAZY_ELEMENTS not found');
  return [...list[1].matchAll(/'([a-z-]+)'/g)].map((match) => match[1]);
}

/** @type {Record<string, ShippedScript>} keyed by file name under dist/ */
export const SHIPPED_SCRIPTS = {
  // A service worker must be one classic script on the page's own origin.
  'questboard-sw.js': {
    entry: 'src/worker/index.ts',
    tsconfig: 'tsconfig.worker.json',
    format: 'iife',
    globalName: 'QuestboardServiceWorker',
    // 40 KB is the product's budget, and this is over it: TEMPORARY, allowed what it weighs now.
    // The whole API runs here; badges, streaks, seasons, quests and the console's admin API have
    // come since it weighed 40.3 KB. By layer, minified: the rules 33 KB, zod 28, the contract 27,
    // the handler 23, the store 21, the fragment's words in nine other languages 13.8 (2.6 KB of
    // the gzip), the remote fallback 11. Next cuts: those languages fetched beside the worker when
    // a fragment first asks for one (kept in Cache Storage, loaded before the handler's
    // transaction); the three refusals only a server gives. Each commit that grew it says by how much.
    budgetKB: 54.95,
  },
  // What a site owner pastes in a <script src> tag.
  'questboard.js': {
    entry: 'src/embed/index.ts',
    tsconfig: 'tsconfig.json',
    format: 'iife',
    globalName: 'Questboard',
    // 25 KB is the product's budget. Within it since <qb-connect-social>, a form few pages show,
    // loads on demand like the elements after it (24.63 KB; 26.02 before).
    budgetKB: 25,
  },
  // The API handler the embed imports from beside itself where no worker serves the page:
  // the same handler as the worker's, so it shares the worker's budget and is over it as the worker is.
  'questboard-inpage.js': {
    entry: 'src/embed/in-page-server.ts',
    tsconfig: 'tsconfig.json',
    format: 'esm',
    budgetKB: 55.22,
  },
  // How a page reads a remote server's live updates (src/client/remote-changes.ts): an ES module
  // the embed imports from beside itself once a page follows a remote, which most never do.
  'questboard-live.js': { entry: 'src/client/change-stream-reader.ts', tsconfig: 'tsconfig.json', format: 'esm', budgetKB: 4 },
  // The elements' words in each language but English (built into the embed): ES modules the
  // embed imports from beside itself (src/embed/catalog-files.ts), one per language a page shows.
  ...Object.fromEntries(
    readdirSync(new URL('../src/i18n/catalogs/', import.meta.url))
      .filter((file) => file.endsWith('.ts') && file !== 'en.ts')
      .map((file) => [
        `locales/${file.replace(/\.ts$/, '.js')}`,
        // 4.6 KB: a language's words for the elements loaded on demand come in this file too, and
        // every refusal's (Russian, the longest, weighs 4.53 since ledger, retire and webhooks).
        { entry: `src/i18n/catalogs/${file}`, tsconfig: 'tsconfig.json', format: 'esm', budgetKB: 4.6 },
      ]),
  ),
  // The elements the embed loads from beside itself the first time a page shows one
  // (src/embed/lazy-element-files.ts): their own code only, Lit and the rest taken from the embed.
  ...Object.fromEntries(
    lazyElementTags().map((tag) => [
      `elements/${tag}.js`,
      { entry: `src/components/${tag}/${tag}.ts`, tsconfig: 'tsconfig.json', format: 'esm', budgetKB: 6, lazyElement: true },
    ]),
  ),
};

/** The ES modules for bundlers (dist/esm), the package's main entry. */
export const MODULES_ENTRY = 'src/index.ts';
