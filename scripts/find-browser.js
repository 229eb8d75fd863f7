// Finds a Chromium for the browser tests and benchmarks, in this order:
// CHROME_PATH, an installed Chrome/Chromium, then the binary shipped inside
// the @sparticuz/chromium package (so a fresh machine needs nothing but npm).
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
