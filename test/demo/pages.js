// What the demo's page tests share, whatever the engine: the demo served by
// `npm start`'s Vite config, pages that record every problem, and the reads of
// the components' states through their documented ::part API.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'vite';

/** @typedef {import('puppeteer-core').Page} Page */
/** The states of the page's Questboard elements, by tag name, in document order. @typedef {Record<string, string[]>} ComponentStates */

/** The demo as `npm start` serves it, on a free port, with a fresh dependency cache. */
export async function startDemoServer() {
  // A fresh dependency cache, as on a fresh machine: a dependency Vite found
  // only while a page loaded would reload that page mid-test.
  const cacheDir = await mkdtemp(join(tmpdir(), 'questboard-demo-vite-'));
  const server = await createServer({
    cacheDir,
    configFile: new URL('../../vite.config.ts', import.meta.url).pathname,
    root: new URL('../..', import.meta.url).pathname,
    logLevel: /** @type {import('vite').LogLevel} */ (process.env.DEMO_TEST_LOG ?? 'warn'),
    // No file watching or hot reload: a source file saved during the run must not reload a page mid-test.
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
  });
  await server.listen();
  return {
    origin: /** @type {import('vite').ResolvedServerUrls} */ (server.resolvedUrls).local[0].replace(/\/$/, ''),
    async close() {
      await server.close();
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}

/**
 * A page in a fresh browser context (its own storage, so the guild is seeded
 * from scratch) that records every console error, uncaught exception, failed
 * request and (where the engine measures them) layout shifts.
 * `colorScheme` is emulated only where the driver can (CDP: Chromium).
 * @param {import('puppeteer-core').Browser} browser
 * @param {string} url
 * @param {import('puppeteer-core').Viewport} viewport
 * @param {{ colorScheme?: string }} [options]
 */
export async function openPage(browser, url, viewport, { colorScheme } = {}) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${/** @type {Error} */ (error).message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.setViewport(viewport);
  if (colorScheme) await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: colorScheme }]);
  await page.evaluateOnNewDocument(() => {
    window.__layoutShift = 0;
    // The Layout Instability API is Chromium's; elsewhere nothing is measured.
    if (!PerformanceObserver.supportedEntryTypes.includes('layout-shift')) return;
    new PerformanceObserver((list) => {
      for (const entry of /** @type {LayoutShift[]} */ (list.getEntries())) {
        if (!entry.hadRecentInput) window.__layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems, context, close: () => context.close() };
}

/**
 * The state of every Questboard element in the page, shadow roots included, read from the
 * parts the components render for each state (their documented ::part API).
 * @param {Page} page
 */
export function componentStates(page) {
  return page.evaluate(() => {
    /** @param {Element} element */
    const stateOf = (element) => {
      const root = element.shadowRoot;
      if (!customElements.get(element.localName) || !root || root.childElementCount === 0) return 'undefined';
      if (root.querySelector('[part~="error"]')) return 'error';
      if (root.querySelector('[part~="status"]')) return 'loading';
      if (root.querySelector('[part~="empty"]')) return 'empty';
      return 'loaded';
    };
    /** @type {ComponentStates} */
    const states = {};
    /** @param {Document | ShadowRoot} root */
    const collect = (root) => {
      for (const element of root.querySelectorAll('*')) {
        if (element.localName.startsWith('qb-')) (states[element.localName] ??= []).push(stateOf(element));
        if (element.shadowRoot) collect(element.shadowRoot);
      }
    };
    collect(document);
    return states;
  });
}

/**
 * Waits until no Questboard element is still undefined or loading; then reports the states.
 * @param {Page} page
 */
export async function untilComponentsSettled(page) {
  for (;;) {
    const states = await componentStates(page);
    const all = Object.values(states).flat();
    if (all.length > 0 && all.every((state) => state !== 'loading' && state !== 'undefined')) return states;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** @param {Page} page */
export async function untilDashboardReady(page) {
  await page.waitForSelector('#dashboard[aria-busy="false"]', { timeout: 60_000 });
  return untilComponentsSettled(page);
}

/**
 * The viewer's row in <qb-leaderboard>: its text, and whether it is pinned below the list (outside the shown ranks).
 * @param {Page} page
 */
export function highlightedLeaderboardRow(page) {
  return page.evaluate(() => {
    const row = document.querySelector('qb-leaderboard')?.shadowRoot?.querySelector('.qb-lb__row--highlight');
    return row ? { text: row.textContent.replace(/\s+/g, ' ').trim(), pinned: row.closest('.qb-lb__pinned') !== null } : null;
  });
}

/**
 * Waits until the viewer's row is among the shown ranks, no longer pinned below them.
 * @param {Page} page
 */
export function untilHighlightShown(page) {
  return page.waitForFunction(
    () => {
      const row = document.querySelector('qb-leaderboard')?.shadowRoot?.querySelector('.qb-lb__row--highlight');
      return row && row.closest('.qb-lb__pinned') === null;
    },
    { timeout: 10_000 },
  );
}

/**
 * Waits until the demo's result `selector` (a form's <output>) reports `outcome`: ok or error.
 * @param {Page} page
 * @param {string} selector
 * @param {'ok' | 'error'} outcome
 */
export function untilOutcome(page, selector, outcome) {
  return page.waitForFunction(
    (/** @type {string} */ selector, /** @type {string} */ outcome) =>
      /** @type {HTMLOutputElement | null} */ (document.querySelector(selector))?.dataset.outcome === outcome,
    { timeout: 10_000 },
    selector,
    outcome,
  );
}

/**
 * Logs alice's last task of "Build in Public" (shipping), whose task and challenge points lift her into the top ten.
 * @param {Page} page
 */
export async function logAlicesLastTask(page) {
  await page.select('#log-task', '7b2c3d4e-0201-4000-8000-00000000a201');
  await page.click('#log-form button[type="submit"]');
  await untilOutcome(page, '#log-form output', 'ok');
  // A repeatable task: its completion said first, its progress started again after.
  assert.equal(
    await page.$eval('#log-form output', (output) => output.textContent),
    'alice · Ship a project: completed with its challenge: +140 points. It can be done again: 0 of 1 now.',
  );
  await untilHighlightShown(page);
}

/**
 * Clicks the endorse button of the framework page's Vue app and checks that Vue heard of the endorsement.
 * @param {Page} page
 */
export async function endorseInVueApp(page) {
  // The button is enabled once the page's member token has been signed (asynchronously).
  await page.waitForSelector('qb-endorse-button >>> button:not([disabled])', { timeout: 10_000 });
  await page.click('qb-endorse-button >>> button');
  await page.waitForFunction(() => document.querySelector('.vue-events li')?.textContent?.includes('endorsed'), {
    timeout: 10_000,
  });
  assert.equal(await page.$eval('.vue-events li', (item) => item.textContent), 'alice endorsed bob (kind)');
}

/**
 * Saves an X handle in <qb-connect-social> and waits until the challenge shows "Connect your X account" completed.
 * @param {Page} page
 * @param {string} handle
 */
export async function connectHandle(page, handle) {
  await page.type('qb-connect-social >>> input', handle);
  await page.click('qb-connect-social >>> button');
  await page.waitForFunction(
    () =>
      [...(document.querySelector('qb-challenge')?.shadowRoot?.querySelectorAll('qb-task-progress') ?? [])].some((element) =>
        /Connect your X account\s*✓\s*Completed/.test(element.shadowRoot?.textContent ?? ''),
      ),
    { timeout: 10_000 },
  );
}

/**
 * Fails unless every Questboard element on the page loaded.
 * @param {ComponentStates} states
 */
export function assertAllLoaded(states) {
  assert.ok(
    Object.values(states)
      .flat()
      .every((state) => state === 'loaded'),
    JSON.stringify(states),
  );
}
