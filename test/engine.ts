// Which engine runs the test file, and what its test driver cannot do there.
// A test that needs such a thing is skipped in that engine with the reason in
// its name, so the run lists it (scripts/summary-reporter.js): never silently.

export const engine = navigator.userAgent.includes('Firefox/') ? 'firefox' : 'chromium';

/**
 * puppeteer drives Firefox over WebDriver BiDi, which has no media emulation
 * (prefers-color-scheme, prefers-reduced-motion): puppeteer does it over CDP only.
 */
export const canEmulateMedia = engine !== 'firefox';

/** `it` where `can` holds; elsewhere the test is skipped, named with the reason. */
export function itWhere(can: boolean, reason: string): (title: string, test: Mocha.AsyncFunc) => void {
  if (can) return (title, test) => void it(title, test);
  return (title, test) => void it.skip(`${title} [${engine}: ${reason}]`, test);
}
