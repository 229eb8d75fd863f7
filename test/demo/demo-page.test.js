// The demo as a visitor sees it: `npm start`'s Vite dev server (this repo's
// vite.config.ts, with the worker bundled on request) and headless Chromium.
// It runs in Node, not in the test runner's page, because it must drive whole
// pages at top level: register the real worker at `/`, reload, resize, and
// take screenshots. Run: `node --test test/demo/`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findBrowser } from '../../scripts/find-browser.js';
import {
  assertAllLoaded,
  connectHandle,
  endorseInVueApp,
  highlightedLeaderboardRow,
  logAlicesLastTask,
  openPage as openDemoPage,
  startDemoServer,
  untilComponentsSettled,
  untilDashboardReady,
  untilHighlightShown,
  untilOutcome,
} from './pages.js';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SCREENSHOTS = new URL('../../screenshots/', import.meta.url);
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP = { width: 1440, height: 1000 };
const COMPONENTS = ['qb-user-card', 'qb-challenge', 'qb-leaderboard', 'qb-connect-social', 'qb-endorse-button'];

/** @typedef {import('puppeteer-core').Page} Page */
/** @typedef {import('puppeteer-core').Viewport} Viewport */
/** @type {Awaited<ReturnType<typeof startDemoServer>>} */
let demo;
/** @type {import('puppeteer-core').Browser} */
let browser;

before(async () => {
  demo = await startDemoServer();
  // English number formats whatever the machine's locale: the checks read "10,000".
  browser = await puppeteer.launch({
    executablePath: await findBrowser(),
    args: [...CHROMIUM_ARGS, '--lang=en-US'],
    headless: true,
  });
  await mkdir(SCREENSHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await demo?.close();
});

/**
 * @param {string} path
 * @param {Viewport} viewport
 * @param {{ colorScheme?: string }} [options]
 */
const openPage = (path, viewport, { colorScheme = 'light' } = {}) =>
  openDemoPage(browser, `${demo.origin}${path}`, viewport, { colorScheme });

/**
 * axe-core's violations for the whole page, shadow roots included, as readable lines.
 * @param {Page} page
 */
async function accessibilityViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  return page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}

/**
 * The same page at phone width (width only: switching to a mobile device would reload it).
 * @param {Page} page
 * @param {string} name
 */
async function phoneScreenshot(page, name) {
  await page.setViewport({ width: PHONE.width, height: PHONE.height });
  await page.waitForFunction((width) => document.documentElement.clientWidth === width, {}, PHONE.width);
  await screenshot(page, name);
}

/**
 * @param {Page} page
 * @param {string} name
 */
async function screenshot(page, name) {
  // Colours ease in after a colour-scheme switch: capture the settled page, not a blend.
  await page.waitForFunction(() => document.getAnimations().length === 0, { timeout: 10_000 });
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });
}

describe('the demo page', { timeout: 180_000 }, () => {
  it('seeds the guild on first visit and brings every component to its loaded state without a console error', async () => {
    const { page, problems, close } = await openPage('/', DESKTOP);
    try {
      const states = await untilDashboardReady(page);
      for (const tag of COMPONENTS) {
        assert.ok(states[tag]?.length, `the page shows a <${tag}>`);
        assert.ok(
          states[tag].every((state) => state === 'loaded'),
          `every <${tag}> loaded: ${states[tag].join(', ')}`,
        );
      }
      assert.match(await page.$eval('#status', (status) => status.textContent), /just created/);
      assert.equal(
        await page.$eval('#transport-note', (note) => note.textContent),
        'This tab reaches the API through the service worker.',
      );
      assert.ok((await page.$$('#fragment-slot .qb-lb__row')).length > 0, 'the fragment panel shows leaderboard rows');
      assert.ok((await page.$$eval('#member-names option', (options) => options.length)) >= 400, 'every member can be picked');
      assert.ok(
        (await page.evaluate(() => window.__layoutShift)) < 0.02,
        `layout shift while loading: ${await page.evaluate(() => window.__layoutShift)}`,
      );
      assert.deepEqual(await accessibilityViolations(page), [], 'axe, light');
      await screenshot(page, 'desktop-light');
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      await screenshot(page, 'desktop-dark');
      assert.deepEqual(await accessibilityViolations(page), [], 'axe, dark');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('moves the leaderboard when the presenter logs progress', async () => {
    const { page, problems, close } = await openPage('/', DESKTOP);
    try {
      await untilDashboardReady(page);
      const before = await highlightedLeaderboardRow(page);
      assert.ok(before?.text.includes('alice') && before.pinned, `alice is below the top ten: ${JSON.stringify(before)}`);
      await logAlicesLastTask(page);
      const after = await highlightedLeaderboardRow(page);
      assert.ok(after?.text.includes('alice') && !after.pinned, `alice is in the top ten: ${JSON.stringify(after)}`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('exports the guild to a file and restores it from that file', async () => {
    const { page, problems, context, close } = await openPage('/', DESKTOP);
    const downloads = await mkdtemp(join(tmpdir(), 'questboard-demo-export-'));
    try {
      const cdp = await browser.target().createCDPSession();
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads, browserContextId: context.id });
      await untilDashboardReady(page);
      const before = await highlightedLeaderboardRow(page);

      await page.click('#export-button');
      await untilOutcome(page, '#data-result', 'ok');
      /** @type {string[]} */
      let exported = [];
      while (exported.length === 0) {
        exported = (await readdir(downloads)).filter((name) => name.endsWith('.json'));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      await page.click('#log-form button[type="submit"]');
      await untilHighlightShown(page);

      const fileInput = /** @type {import('puppeteer-core').ElementHandle<HTMLInputElement>} */ (await page.$('#import-file'));
      await fileInput.uploadFile(join(downloads, exported[0]));
      await page.waitForFunction(() => /^Restored/.test(document.querySelector('#data-result')?.textContent ?? ''), {
        timeout: 30_000,
      });
      await page.waitForFunction(
        (text) => {
          const row = document.querySelector('qb-leaderboard')?.shadowRoot?.querySelector('.qb-lb__row--highlight');
          return row?.textContent.replace(/\s+/g, ' ').trim() === text;
        },
        { timeout: 10_000 },
        /** @type {{ text: string }} */ (before).text,
      );
      assert.deepEqual(await highlightedLeaderboardRow(page), before, 'the board is as it was when exported');
      assert.deepEqual(problems, []);
    } finally {
      await close();
      await rm(downloads, { recursive: true, force: true });
    }
  });

  it('pays out coins from the treasury and shows the ledger pre-check failure', async () => {
    const { page, problems, close } = await openPage('/', DESKTOP);
    try {
      await untilDashboardReady(page);
      assert.equal(await page.$eval('#treasury-balance', (balance) => balance.textContent), '10,000');
      await page.click('#airdrop-form button[type="submit"]');
      await untilOutcome(page, '#airdrop-form output', 'ok');
      assert.match(
        await page.$eval('#airdrop-form output', (output) => output.textContent),
        /^Sent 2\.5 coins to 0\.0\.2002\. Transaction 0\.0\.1001-\d+-\d+$/,
      );
      await page.waitForFunction(() => document.querySelector('#treasury-balance')?.textContent === '9,997.5', {
        timeout: 10_000,
      });

      await page.click('#airdrop-too-much');
      await untilOutcome(page, '#airdrop-form output', 'error');
      assert.equal(
        await page.$eval('#airdrop-form output', (output) => output.textContent),
        'Transaction Failed Pre-Check: InsufficientPayerBalance',
      );
      assert.equal(await page.$eval('#treasury-balance', (balance) => balance.textContent), '9,997.5');
      // The refused transfer is a 400, which Chromium logs as a failed resource; nothing else may appear.
      assert.deepEqual(problems, ['console.error: Failed to load resource: the server responded with a status of 400 ()']);
    } finally {
      await close();
    }
  });

  it('writes as the member it views as, and visibly refuses an endorsement as someone else', async () => {
    const { page, problems, close } = await openPage('/', DESKTOP);
    /** The guild's endorsements of a kind, [from, to], read with the admin key through the worker that serves the page. */
    /** @param {string} kind */
    const endorsementsOf = (kind) =>
      page.evaluate(async (kind) => {
        const answer = await fetch('/v1/admin/export?app_id=guild', { headers: { authorization: 'Bearer sk_demo_admin' } });
        const { apps } = await answer.json();
        /** @type {{ endorsement_id: string, from_account: string, to_account: string }[]} */
        const endorsements = apps[0].endorsements;
        return endorsements.filter((e) => e.endorsement_id === kind).map((e) => [e.from_account, e.to_account]);
      }, kind);
    try {
      await untilDashboardReady(page);
      await page.click('#endorse-as-other');
      await untilOutcome(page, '#endorse-form output', 'error');
      assert.equal(
        await page.$eval('#endorse-form output', (output) => output.textContent),
        'Refused (403) as Αθηνά: Not allowed: with a member key, from_account must be the member the token names (or be left out).',
      );

      // View as bob: the page signs in as bob, and the endorsement is his.
      await page.click("#featured-members button[title='bob']");
      await page.waitForFunction(() => document.querySelector('#endorse-form [data-viewer-name]')?.textContent === 'bob');
      await page.$eval('#endorse-form input[name="to_account"]', (input) => (input.value = 'alice'));
      /** @param {string[][]} pairs */
      const bobEndorsedAlice = (pairs) => pairs.some(([from, to]) => from === 'bob' && to === 'alice');
      let kind;
      for (const option of await page.$$eval('#endorse-kind option', (options) => options.map((o) => o.value))) {
        if (!bobEndorsedAlice(await endorsementsOf(option))) kind ??= option;
      }
      assert.ok(kind, 'a kind of endorsement bob has not given alice in the seed');
      await page.select('#endorse-kind', kind);
      await page.click('#endorse-form button[type="submit"]');
      await untilOutcome(page, '#endorse-form output', 'ok');
      assert.ok(bobEndorsedAlice(await endorsementsOf(kind)), 'the endorsement is from bob, whom the token names');
      // The refusal is a 403, which Chromium logs as a failed resource; nothing else may appear.
      assert.deepEqual(problems, ['console.error: Failed to load resource: the server responded with a status of 403 ()']);
    } finally {
      await close();
    }
  });

  it('completes "Connect your X account" when the member saves a handle', async () => {
    const { page, problems, close } = await openPage('/', DESKTOP);
    const connectTask = () =>
      page.evaluate(() => {
        const tasks = document.querySelector('qb-challenge')?.shadowRoot?.querySelectorAll('qb-task-progress') ?? [];
        const task = [...tasks].find((element) => element.shadowRoot?.textContent?.includes('Connect your X account'));
        return task?.shadowRoot?.textContent?.replace(/\s+/g, ' ').trim();
      });
    try {
      await untilDashboardReady(page);
      assert.equal(await connectTask(), 'Connect your X account 0 of 1');
      await connectHandle(page, 'alice_builds');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('runs the same API inside the page where no worker may serve it', async () => {
    const { page, problems, close } = await openPage('/?worker=none', DESKTOP);
    try {
      const states = await untilDashboardReady(page);
      assertAllLoaded(states);
      assert.match(
        await page.$eval('#transport-note', (note) => note.textContent),
        /in-page handler \(service worker disabled\)/,
      );
      assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('fits a phone screen in light and dark', async () => {
    const { page, problems, close } = await openPage('/', PHONE);
    try {
      await untilDashboardReady(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, 'nothing sticks out sideways');
      assert.ok((await page.evaluate(() => window.__layoutShift)) < 0.02, 'no layout shift while loading');
      await screenshot(page, 'phone-light');
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
      await screenshot(page, 'phone-dark');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('shows a hostile member name as text in every component, and nothing runs', async () => {
    const { page, problems, close } = await openPage('/', DESKTOP);
    try {
      await untilDashboardReady(page);
      const hostile = '"><img src=x onerror=alert(1)>';
      await page.click(`#featured-members button[title='${hostile.replace(/'/g, "\\'")}']`);
      await page.waitForFunction(
        (name) =>
          document.querySelector('qb-user-card')?.shadowRoot?.querySelector('[part~="name"]')?.textContent?.trim() === name,
        { timeout: 10_000 },
        hostile,
      );
      const states = await untilComponentsSettled(page);
      assert.ok(
        Object.values(states)
          .flat()
          .every((state) => state !== 'error'),
        JSON.stringify(states),
      );
      const injected = await page.evaluate(() => {
        /** @type {string[]} */
        const found = [];
        /** @param {Document | ShadowRoot} root */
        const collect = (root) => {
          for (const element of root.querySelectorAll('img, [onerror]')) found.push(element.outerHTML);
          for (const element of root.querySelectorAll('*')) if (element.shadowRoot) collect(element.shadowRoot);
        };
        collect(document);
        return found;
      });
      assert.deepEqual(injected, [], 'no element was made from the name');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('the script-tag embed page', { timeout: 180_000 }, () => {
  it('fills its containers and elements through the pasted script tag alone', async () => {
    // As the presenter goes: the dashboard first (it creates the guild), then the embed page.
    const { page, problems, close } = await openPage('/', DESKTOP);
    /** @type {string[]} */
    const transportLines = [];
    page.on('console', (message) => {
      if (message.text().startsWith('[questboard] transport')) transportLines.push(message.text());
    });
    try {
      await page.waitForSelector('#dashboard[aria-busy="false"]', { timeout: 60_000 });
      await page.goto(`${demo.origin}/demo/embed.html`, { waitUntil: 'load' });
      await page.waitForFunction(
        () => {
          const containers = [...document.querySelectorAll('[data-questboard-leaderboard]')];
          return containers.length === 2 && containers.every((container) => container.querySelector('.qb-lb__row'));
        },
        { timeout: 60_000 },
      );
      const states = await untilComponentsSettled(page);
      assert.deepEqual(Object.keys(states).sort(), ['qb-challenge', 'qb-task-progress', 'qb-user-card', 'qb-user-highlights']);
      assertAllLoaded(states);
      assert.equal(await page.evaluate(() => typeof window.Questboard?.configure), 'function');
      assert.deepEqual(transportLines, ['[questboard] transport: service-worker (worker controls this page)']);
      assert.equal(
        await page.$$eval(
          '[data-questboard-leaderboard] script, [data-questboard-leaderboard] [onerror]',
          (found) => found.length,
        ),
        0,
      );
      assert.ok((await page.evaluate(() => window.__layoutShift)) < 0.02, 'no layout shift while loading');
      assert.deepEqual(await accessibilityViolations(page), []);
      await screenshot(page, 'embed-desktop');
      await phoneScreenshot(page, 'embed-phone');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});

describe('the framework page', { timeout: 180_000 }, () => {
  it('renders the components in a Vue app and hands their events to Vue', async () => {
    const { page, problems, close } = await openPage('/demo/framework.html', DESKTOP);
    try {
      await page.waitForSelector('#app[aria-busy="false"]', { timeout: 60_000 });
      const states = await untilComponentsSettled(page);
      for (const tag of ['qb-user-card', 'qb-challenge', 'qb-leaderboard', 'qb-endorse-button']) {
        assert.ok(
          states[tag]?.every((state) => state === 'loaded'),
          `<${tag}>: ${states[tag]?.join(', ')}`,
        );
      }
      assert.ok((await page.evaluate(() => window.__layoutShift)) < 0.02, 'no layout shift while loading');
      await endorseInVueApp(page);
      assert.deepEqual(await accessibilityViolations(page), []);
      await screenshot(page, 'framework-desktop');
      await phoneScreenshot(page, 'framework-phone');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
