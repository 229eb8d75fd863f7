// The first paint of a returning visitor: how long after navigation start the
// built embed (dist/questboard.js) fills a page's one leaderboard container
// with rows, its worker installed and its store already holding the members,
// set against a blank page's DOMContentLoaded in the same rounds.
import { firstPaintApp } from './dataset.js';
import { median, percentile } from './report.js';
import { seedInChunks } from './seed.js';

export const FIRST_PAINT_MEMBERS = 1000;

/** DOMContentLoaded of the page now shown, in ms after its navigation start. */
const domContentLoaded = (page) =>
  page.evaluate(() => performance.getEntriesByType('navigation')[0]?.domContentLoadedEventStart ?? NaN);

/**
 * Seeds the first-paint app through the benchmark page `seeder` (whose worker serves the
 * origin), then opens bench/blank.html and bench/first-paint.html in turn, `warmup` times
 * unkept and `rounds` times kept, each in a new navigation of one tab.
 */
export async function measureFirstPaint({ browser, seeder, origin, appIndex, nowMs, rounds, warmup }) {
  const app = firstPaintApp(FIRST_PAINT_MEMBERS, appIndex);
  await seedInChunks({
    size: FIRST_PAINT_MEMBERS,
    importChunk: ({ start, end }) => seeder.evaluate((args) => window.bench.importChunk(args), { app, start, end, nowMs }),
    log: () => {},
  });
  const page = await browser.newPage();
  const samples = { blank: [], domContentLoaded: [], firstRows: [], firstRowsFrame: [], currentRows: [] };
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      await page.goto(new URL('/blank.html', origin).href, { waitUntil: 'domcontentloaded' });
      const blank = await domContentLoaded(page);
      await page.goto(new URL('/first-paint.html', origin).href, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => window.currentRows !== undefined && window.firstRowsFrame !== undefined, {
        timeout: 20_000,
      });
      const { firstRows, firstRowsFrame, currentRows } = await page.evaluate(() => ({
        firstRows: window.firstRows,
        firstRowsFrame: window.firstRowsFrame,
        currentRows: window.currentRows,
      }));
      const ownLoaded = await domContentLoaded(page);
      if (round < warmup) continue;
      samples.blank.push(blank);
      samples.domContentLoaded.push(ownLoaded);
      samples.firstRows.push(firstRows);
      samples.firstRowsFrame.push(firstRowsFrame);
      samples.currentRows.push(currentRows);
    }
    const controlled = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    if (!controlled) throw new Error('the first-paint page was not controlled by the worker');
  } finally {
    await page.close();
  }
  return { members: FIRST_PAINT_MEMBERS, rounds, rows: summarizeFirstPaint(samples) };
}

const LABELS = {
  blank: 'blank page: DOMContentLoaded',
  domContentLoaded: 'embed page: DOMContentLoaded',
  firstRows: 'embed page: first rows in the container',
  firstRowsFrame: 'embed page: the frame that shows them begins',
  currentRows: 'embed page: the current answer’s rows',
};

/** One row per measure: median and p95 (nearest rank), in ms after navigation start. */
export function summarizeFirstPaint(samples) {
  return Object.entries(samples).map(([name, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { key: name, name: LABELS[name], median: median(sorted), p95: percentile(sorted, 0.95) };
  });
}
