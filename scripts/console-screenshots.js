// `npm run screenshots:console` (after `npm run build`): the community manager's console as a
// manager sees it, for the docs and for issue 42's checks. It starts the built Questboard server
// (bin/questboard-server.js) on PGlite in a temporary directory with the sample community and some
// activity made through the API, signs in through the console's form, and photographs every
// section on a desktop (1280×800) and a phone (390×844), light and dark, into
// docs/screenshots/console/<section>-<desktop|phone>[-dark].png. It exits non-zero when a section
// scrolls sideways, logs a console error or has an axe violation. Nothing is left running.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findBrowser } from './find-browser.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(root, 'docs/screenshots/console');
const ADMIN_KEY = 'sk_screenshots_operator_0123456789';
const APP = 'riverside';
/** The console's sections, in its navigation's order (src/console/sections.ts). */
const SECTIONS = ['overview', 'challenges', 'members', 'reviews', 'seasons', 'keys', 'webhooks', 'ledger', 'data', 'audit'];
const WIDTHS = {
  desktop: { width: 1280, height: 800, deviceScaleFactor: 1 },
  phone: { width: 390, height: 844, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
};
const SCHEMES = ['light', 'dark'];
/** Bound on any wait: a section that never settles fails the run instead of hanging it. */
const WAIT_MS = 60_000;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

if (!existsSync(join(root, 'dist/node/server.js')) || !existsSync(join(root, 'dist/console/index.html'))) {
  process.stderr.write('console-screenshots: dist/ is missing or incomplete: run npm run build first.\n');
  process.exit(1);
}

/** What to stop at the end, last started first, whether the run succeeds or not. */
const stops = [];
let failed = false;
// Interrupted (Ctrl-C, a CI timeout): the server and Chromium are stopped all the same.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    process.exit(130);
  });
try {
  const server = await startServer();
  stops.push(server.stop);
  const receiver = await startReceiver();
  stops.push(receiver.stop);
  await makeActivity(server.origin, receiver.url);
  const browser = await puppeteer.launch({ executablePath: await findBrowser(), args: CHROMIUM_ARGS, headless: true });
  stops.push(() => browser.close());
  mkdirSync(OUT, { recursive: true });
  for (const [width, viewport] of Object.entries(WIDTHS)) {
    for (const scheme of SCHEMES) {
      const faults = await photograph(browser, server.origin, width, viewport, scheme);
      if (faults.length) failed = true;
      for (const fault of faults) process.stdout.write(`FAULT ${fault}\n`);
    }
  }
} catch (error) {
  failed = true;
  process.stderr.write(`console-screenshots: ${error?.stack ?? error}\n`);
} finally {
  for (const stop of stops.reverse()) await stop().catch((error) => process.stderr.write(`while stopping: ${error}\n`));
}
process.exitCode = failed ? 1 : 0;

/** The built server on an OS-picked port, on PGlite in a fresh temporary directory, with the sample community. */
async function startServer() {
  const dataDir = await mkdtemp(join(tmpdir(), 'questboard-screenshots-'));
  const child = spawn(
    process.execPath,
    [
      'bin/questboard-server.js',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--data',
      'examples/community.json',
      '--allow-private-webhooks',
    ],
    { cwd: root, env: { ...process.env, QUESTBOARD_ADMIN_KEYS: ADMIN_KEY }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const closed = once(child, 'close');
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const port = new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  try {
    const ready = await Promise.race([
      port,
      closed.then(([code]) => Promise.reject(new Error(`the server exited with ${code}: ${stderr}`))),
      timeout('the server to start'),
    ]);
    return { origin: `http://127.0.0.1:${ready}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A site's webhook endpoint on 127.0.0.1 that takes every delivery, so the deliveries list has some. */
async function startReceiver() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/questboard-events`,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A month's worth of a community's doings, enough that no section looks empty. */
async function makeActivity(origin, webhookUrl) {
  const api = async (method, path, body) => {
    const answer = await fetch(`${origin}/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} /v1/${path}: ${answer.status} ${text}`);
    return JSON.parse(text);
  };
  await api('POST', 'admin/save_webhook', {
    app_id: APP,
    url: webhookUrl,
    events: ['task.completed', 'submission.created', 'badge.awarded'],
  });
  await api('POST', 'admin/save_challenge', {
    app_id: APP,
    challenge: {
      name: 'Repair café',
      description: 'Bring something broken; leave with it mended.',
      start_date: '2026-01-01T00:00:00Z',
      tasks: [
        { name: 'Sign in at the door', quantity: 1, operator: 0, points: 5, allowretry: true },
        {
          name: 'Show what you mended',
          quantity: 1,
          operator: 0,
          points: 20,
          verification: { kind: 'review' },
        },
      ],
    },
  });
  const { challenges } = await api('GET', `admin/challenges?app_id=${APP}`);
  const tasks = challenges.flatMap((challenge) => challenge.tasks);
  const task = (name) => tasks.find((each) => each.name === name);
  for (const [account_name, times] of [
    ['ada', 3],
    ['grace', 2],
    ['linus', 1],
  ]) {
    for (let time = 0; time < times; time++)
      await api('POST', 'admin/log_task', { task_id: task('Sign in at the door').task_id, account_name, quantity: 1 });
  }
  for (const [account_name, text] of [
    ['ada', 'https://photos.example/ada/mended-lamp.jpg'],
    ['grace', 'Re-soldered the radio’s volume knob; photo at https://photos.example/grace/radio'],
    ['margaret', 'Darned the elbows of my favourite jumper.'],
  ]) {
    await api('POST', 'submit_task', { task_id: task('Show what you mended').task_id, account_name, text });
  }
  await api('POST', 'admin/adjust', {
    app_id: APP,
    task_id: task('Sign in at the door').task_id,
    account_name: 'margaret',
    quantity: 1,
    reason: 'Signed in on paper when the tablet was flat',
  });
  await api('POST', 'admin/badges', {
    app_id: APP,
    badge_id: 'fixer',
    name: 'Fixer',
    description: 'Mended something at a repair café.',
    rule: { kind: 'manual' },
  });
  await api('POST', 'admin/badges', {
    app_id: APP,
    badge_id: 'regular',
    name: 'Regular',
    description: 'Completed five tasks.',
    rule: { kind: 'tasks_completed', at_least: 5 },
  });
  await api('POST', 'admin/award_badge', { app_id: APP, badge_id: 'fixer', account_name: 'grace' });
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  await api('POST', 'admin/seasons', {
    app_id: APP,
    season_id: '7d3f1e2a-4b5c-4d6e-8f90-a1b2c3d4e5f6',
    name: 'Winter season',
    starts_at: new Date(now - 14 * day).toISOString(),
    ends_at: new Date(now + 60 * day).toISOString(),
    rewards: [{ from_rank: 1, to_rank: 3, badge_id: 'regular' }],
  });
  for (const [to_address, quantity] of [
    ['0.0.2001', '10'],
    ['0.0.2002', '2.5'],
    ['0.0.2003', '4'],
  ]) {
    await api('GET', `airdrop_token_ledger?app_id=${APP}&to_address=${to_address}&quantity=${quantity}`);
  }
  await api('POST', 'admin/create_key', { app_id: APP, scopes: ['read'] });
}

/**
 * Every section at one width in one colour scheme, signed in through the console's form: its
 * screenshot, and what is wrong with it (sideways scroll, console errors, axe violations).
 */
async function photograph(browser, origin, width, viewport, scheme) {
  const context = await browser.createBrowserContext();
  const faults = [];
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(String(error)));
    page.setDefaultTimeout(WAIT_MS);
    await page.setViewport(viewport);
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await page.goto(`${origin}/console/`, { waitUntil: 'load' });
    await (await shown(page, 'qb-console >>> #key')).type(ADMIN_KEY);
    await page.keyboard.press('Enter');
    await shown(page, 'qb-console >>> nav');
    for (const section of SECTIONS) {
      await page.click(`qb-console >>> nav a[href="#${section}"]`);
      await settled(page, section);
      // The page back at its top, and no field focused: the pictures show the section, not the last click.
      await page.evaluate(() => {
        /** @type {HTMLElement | null} */ (document.activeElement)?.blur();
        scrollTo(0, 0);
      });
      const file = `${section}-${width}${scheme === 'dark' ? '-dark' : ''}.png`;
      // The whole section, up to 1.6 screens: the top of a long list shows its layout, and the files stay small.
      const height = await page.evaluate(() => document.scrollingElement.scrollHeight);
      await page.screenshot({
        path: join(OUT, file),
        clip: { x: 0, y: 0, width: viewport.width, height: Math.min(height, Math.round(viewport.height * 1.6)) },
        captureBeyondViewport: true,
      });
      const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
      const violations = await axeViolations(page);
      const where = `${section} ${width} ${scheme}`;
      if (overflow > 0) faults.push(`${where}: scrolls sideways by ${overflow}px`);
      for (const violation of violations) faults.push(`${where}: axe ${violation}`);
      for (const problem of problems.splice(0)) faults.push(`${where}: console error: ${problem}`);
      process.stdout.write(
        `${file}: ${overflow > 0 ? `scrolls sideways by ${overflow}px` : 'no sideways scroll'}, ` +
          `${violations.length} axe violations, ${faults.filter((fault) => fault.startsWith(where)).length} faults\n`,
      );
    }
  } finally {
    await context.close();
  }
  return faults;
}

/**
 * The element once the console shows it. Polled: waitForSelector's MutationObserver watches the
 * document, which in Chromium hears nothing of a change inside a shadow root.
 */
async function shown(page, selector) {
  for (
    const deadline = Date.now() + WAIT_MS;
    Date.now() < deadline;
    await page.evaluate(() => new Promise(requestAnimationFrame))
  ) {
    const element = await page.$(selector);
    if (element) return element;
  }
  throw new Error(`${selector} was not shown in ${WAIT_MS / 1000} s`);
}

/**
 * Until the section shown has loaded what it shows (or said why not), and its web fonts and
 * images too. Polled: a MutationObserver on the document hears nothing inside shadow roots.
 */
async function settled(page, section) {
  await page.waitForFunction(
    (name) => {
      const shell = document.querySelector('qb-console')?.shadowRoot;
      if (shell?.querySelector('nav a[aria-current=page]')?.getAttribute('href') !== `#${name}`) return false;
      const element = shell.querySelector(`main qb-console-${name}`);
      /** Any shadow root below, the section's own and those of its parts (webhooks' endpoints). */
      const loading = (node) =>
        !node?.shadowRoot ||
        node.shadowRoot.textContent?.includes('Loading…') ||
        [...node.shadowRoot.querySelectorAll('*')].some((child) => child.shadowRoot && loading(child));
      return !loading(element);
    },
    { polling: 'raf', timeout: WAIT_MS },
    section,
  );
  await page.evaluate(() => document.fonts.ready);
}

async function axeViolations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ['violations'] });
    return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}

function timeout(what) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), WAIT_MS).unref());
}
