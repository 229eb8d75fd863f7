// What the demo page tests put on, or read from, the page's window (inside page.evaluate).
// Kept out of the browser tests' program (tsconfig.json excludes it): only these tests see them.
interface Window {
  /** axe-core, injected by the accessibility test. */
  axe: typeof import('axe-core');
  /** The layout shift summed since the page started, where the engine measures it (Chromium). */
  __layoutShift: number;
  /** The embed's exports; the tests only check they are there. */
  Questboard?: Record<string, unknown>;
}

/** An entry of the Layout Instability API (Chromium), which lib.dom does not declare. */
interface LayoutShift extends PerformanceEntry {
  hadRecentInput: boolean;
  value: number;
}
