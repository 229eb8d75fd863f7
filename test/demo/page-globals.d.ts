// What the demo page tests put on, or read from, the page's window (inside page.evaluate).
// Kept out of the browser tests' program (tsconfig.json excludes it): only these tests see them.
import type axe from 'axe-core';

declare global {
  interface Window {
    /** axe-core, injected by the accessibility test. */
    axe: typeof axe;
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
}
