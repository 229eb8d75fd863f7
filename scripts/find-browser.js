// Finds the browsers for the tests and benchmarks. Chromium, in this order:
// CHROME_PATH, an installed Chrome/Chromium, then the binary shipped inside
// the @sparticuz/chromium package (so a fresh machine needs nothing but npm).
// Firefox: FIREFOX_PATH, then an installed Firefox (Debian's firefox-esr);
// no npm package ships one, so .ci/run installs it.
import { existsSync } from 'node:fs';

const INSTALLED = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

// The machine may have no network: without these Chromium keeps dialling out.
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export async function findBrowser() {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  const installed = INSTALLED.find((path) => existsSync(path));
  if (installed) return installed;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    return await chromium.executablePath();
  } catch (error) {
    throw new Error(
      'No Chromium found. Set CHROME_PATH, install Chromium (apt-get install -y chromium), ' +
        `or run npm install so that @sparticuz/chromium is present (${error.message}).`,
    );
  }
}

const INSTALLED_FIREFOX = ['/usr/bin/firefox-esr', '/usr/bin/firefox', '/Applications/Firefox.app/Contents/MacOS/firefox'];

/** @returns {string | null} null where no Firefox is installed */
export function findFirefox() {
  if (process.env.FIREFOX_PATH) return process.env.FIREFOX_PATH;
  return INSTALLED_FIREFOX.find((path) => existsSync(path)) ?? null;
}

/**
 * puppeteer-core's launch options for an engine: Chromium over CDP, Firefox
 * over WebDriver BiDi (puppeteer's only protocol for Firefox).
 * @param {'chromium' | 'firefox'} engine
 */
export async function launchOptions(engine) {
  if (engine === 'firefox') {
    const executablePath = findFirefox();
    if (!executablePath) throw new Error('No Firefox found. Set FIREFOX_PATH or install it (apt-get install -y firefox-esr).');
    return { browser: 'firefox', executablePath, headless: true };
  }
  return { executablePath: await findBrowser(), args: CHROMIUM_ARGS, headless: true };
}
