import * as kit from '../components/shared/kit.js';
import { LAZY_ELEMENTS, loadElement, type ElementLoader } from '../components/shared/lazy-elements.js';
import { KIT_GLOBAL } from '../components/shared/kit-global.js';
import { importBeside } from './beside-script.js';
import { withLibraryGlobals } from './page-globals.js';

/**
 * Loads dist/elements/<tag>.js from beside the embed, once its kit is published: each such file
 * takes Lit and the shared pieces from this embed (src/components/shared/kit.ts) rather than
 * carrying copies. The kit sits under a symbol, not a name, so the page's namespace keeps only
 * window.Questboard.
 */
export function elementsBeside(script: HTMLOrSVGScriptElement | null): ElementLoader {
  (globalThis as Record<symbol, unknown>)[KIT_GLOBAL] = kit;
  return (tag) => withLibraryGlobals(() => importBeside(script, `elements/${tag}.js`));
}

/** Loads each lazy element the page shows, now and whenever the page adds one. */
export function startLazyElements(): void {
  // `:not(:defined)`: once an element is loaded, its tag no longer costs a look.
  const loadShown = () => {
    for (const tag of LAZY_ELEMENTS) if (document.querySelector(`${tag}:not(:defined)`)) void loadElement(tag);
  };
  loadShown();
  new MutationObserver(loadShown).observe(document.documentElement, { childList: true, subtree: true });
}
