// `npm run start:shared`: two browsers (two browser contexts, each with storage
// of its own) on the demo, both pointed at one Questboard server, see the same
// member move when a write reaches the server: the pages follow its
// /v1/events, no reload.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findBrowser } from '../../scripts/find-browser.js';
import { importSource } from '../source-module.js';
import { startServer } from '../server/reference-server.js';
import { openPage, startDemoServer, untilDashboardReady } from './pages.js';

/** @type {import('puppeteer-core').Browser} */
let browser;
/** @type {import('../server/reference-server.js').RunningServer} */
let questboard;
/** @type {Awaited<ReturnType<typeof startDemoServer>>} */
let demo;
/** @type {string} */
let directory;
/** @type {typeof import('../../demo/dataset.js')} */
let guild;

before(async () => {
  guild = await importSource('demo/dataset.ts');
  directory = await mkdtemp(join(tmpdir(), 'questboard-shared-demo-'));
  const datasetFile = join(directory, 'guild.json');
  await writeFile(datasetFile, JSON.stringify(guild.generateDataset({ now: new Date() })));
  questboard = await startServer(['--data-dir', join(directory, 'data'), '--allow-bootstrap', '--data', datasetFile]);
  // What scripts/demo-shared.js hands Vite.
  process.env.VITE_QUESTBOARD_SERVER = `http://127.0.0.1:${questboard.port}`;
  demo = await startDemoServer();
  browser = await puppeteer.launch({ executablePath: await findBrowser(), args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await demo?.close();
  await questboard?.stop();
  delete process.env.VITE_QUESTBOARD_SERVER;
  if (directory) await rm(directory, { recursive: true, force: true });
});

/**
 * The text of the viewed member's card (alice's, by default).
 * @param {import('puppeteer-core').Page} page
 */
const cardText = (page) => page.evaluate(() => document.querySelector('qb-user-card')?.shadowRoot?.textContent ?? '');

it('shows a write that reaches the shared server in every browser, without a reload', async () => {
  const viewport = { width: 1280, height: 900 };
  const pages = [await openPage(browser, `${demo.origin}/`, viewport), await openPage(browser, `${demo.origin}/`, viewport)];
  try {
    for (const { page } of pages) await untilDashboardReady(page);
    const server = process.env.VITE_QUESTBOARD_SERVER;
    assert.equal(
      await pages[0].page.$eval('#data-home', (line) => line.textContent),
      `Data lives on the shared Questboard server (${server}); this browser keeps a copy to show while it is away.`,
    );
    assert.match(
      await pages[0].page.$eval('.intro', (intro) => intro.textContent),
      new RegExp(`runs on the Questboard server at ${server}`),
    );
    const before = await Promise.all(pages.map(({ page }) => cardText(page)));
    assert.equal(before[0], before[1], 'both browsers show the same member from the same server');

    // Another member endorses alice, through the server itself.
    const endorsed = await fetch(`${process.env.VITE_QUESTBOARD_SERVER}/v1/endorse_account`, {
      method: 'POST',
      headers: { authorization: `Bearer ${guild.DEMO_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        app_id: guild.DEMO_APP_ID,
        from_account: 'bob',
        to_account: 'alice',
        endorsement_id: 'shared-demo',
      }),
    });
    assert.equal(endorsed.status, 200, await endorsed.text());

    for (const [index, { page }] of pages.entries()) {
      const deadline = Date.now() + 15_000;
      while ((await cardText(page)) === before[index] && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.notEqual(await cardText(page), before[index], `browser ${index + 1} did not show the endorsement`);
    }
    for (const { problems } of pages) assert.deepEqual(problems, []);
  } finally {
    await Promise.all(pages.map(({ close }) => close()));
  }
});
