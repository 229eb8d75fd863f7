// The demo's controls and a site's endorse button, clicked in Firefox (Debian's
// firefox-esr, driven by puppeteer over WebDriver BiDi): every write goes
// through the service worker, whose Request has no body stream there. The
// Chromium file (demo-page.test.js) covers looks, axe and screenshots; this
// one proves the same pages work in a second engine.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { findFirefox } from '../../scripts/find-browser.js';
import {
  assertAllLoaded,
  connectHandle,
  endorseInVueApp,
  highlightedLeaderboardRow,
  logAlicesLastTask,
  openPage,
  startDemoServer,
  untilComponentsSettled,
  untilDashboardReady,
  untilOutcome,
} from './pages.js';

const DESKTOP = { width: 1440, height: 1000 };
const firefox = findFirefox();
// CI never skips an engine; a developer without Firefox is told by name.
const skip = firefox || process.env.CI ? false : 'Firefox is not installed (apt-get install -y firefox-esr)';

describe('the demo in Firefox', { timeout: 180_000, skip }, () => {
  /** @type {Awaited<ReturnType<typeof startDemoServer>>} */
  let demo;
  /** @type {import('puppeteer-core').Browser} */
  let browser;

  before(async () => {
    demo = await startDemoServer();
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: firefox ?? undefined,
      headless: true,
      // English number formats whatever the machine's locale: the checks read "10,000".
      extraPrefsFirefox: { 'intl.accept_languages': 'en-US', 'intl.locale.requested': 'en-US' },
    });
  });

  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('serves the dashboard through the service worker, and every presenter control that writes works', async () => {
    const { page, problems, close } = await openPage(browser, `${demo.origin}/`, DESKTOP);
    try {
      const states = await untilDashboardReady(page);
      assertAllLoaded(states);
      assert.equal(
        await page.$eval('#transport-note', (note) => note.textContent),
        'This tab reaches the API through the service worker.',
      );

      // log_task: alice's last task of "Build in Public" lifts her into the top ten.
      assert.equal((await highlightedLeaderboardRow(page))?.pinned, true, 'alice starts below the top ten');
      await logAlicesLastTask(page);

      // endorse_account, as the viewer.
      await page.click('#endorse-form button[type="submit"]');
      await untilOutcome(page, '#endorse-form output', 'ok');
      assert.match(await page.$eval('#endorse-form output', (output) => output.textContent), /^alice endorsed bob as /);

      // airdrop_token_ledger, paid from the treasury.
      await page.click('#airdrop-form button[type="submit"]');
      await untilOutcome(page, '#airdrop-form output', 'ok');
      await page.waitForFunction(() => document.querySelector('#treasury-balance')?.textContent === '9,997.5', {
        timeout: 10_000,
      });

      // connect_social, through the element's own form.
      await connectHandle(page, 'alice_builds');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it("clicks a site's endorse button in a Vue app and the write lands", async () => {
    const { page, problems, close } = await openPage(browser, `${demo.origin}/demo/framework.html`, DESKTOP);
    try {
      await page.waitForSelector('#app[aria-busy="false"]', { timeout: 60_000 });
      const states = await untilComponentsSettled(page);
      assert.ok(
        states['qb-endorse-button']?.every((state) => state === 'loaded'),
        JSON.stringify(states),
      );
      await endorseInVueApp(page);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
