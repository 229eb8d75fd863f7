import { currentConfig, onConfigure } from '../../client/config.js';
import { isTheme, SCHEME_ATTRIBUTE, type ColorScheme } from '../../ui/theme.js';

/**
 * Chooses the scheme of a root (an element's host, or the fragment's `.qb-lb`) and marks it
 * with SCHEME_ATTRIBUTE: its own theme when light or dark, else configure()'s, else the
 * `color-scheme` of `context` (the page around it) when that names one scheme. Otherwise the
 * mark goes and the root's CSS follows the OS (`prefers-color-scheme`).
 */
export function applyColorScheme(root: Element, theme: string | undefined, context: Element | null): void {
  const scheme = chosenScheme(theme) ?? chosenScheme(currentConfig().theme) ?? (context && pageScheme(context));
  if (root.getAttribute(SCHEME_ATTRIBUTE) === scheme) return;
  if (scheme) root.setAttribute(SCHEME_ATTRIBUTE, scheme);
  else root.removeAttribute(SCHEME_ATTRIBUTE);
  colorSchemeChanged();
}

function chosenScheme(theme: unknown): ColorScheme | null {
  return isTheme(theme) && theme !== 'auto' ? theme : null;
}

/** `dark` for `color-scheme: dark` (or `only dark`); null for `normal` or `light dark`, where the OS picks. */
function pageScheme(context: Element): ColorScheme | null {
  const words = getComputedStyle(context).colorScheme.split(/\s+/);
  const light = words.includes('light');
  const dark = words.includes('dark');
  return light === dark ? null : light ? 'light' : 'dark';
}

const listeners = new Set<() => void>();
let watching = false;

/**
 * Calls `listener` whenever what decides a scheme may have changed: configure(), the OS
 * preference (a page may follow it in its own CSS), the attributes of <html> and <body>
 * (where sites switch their dark mode), or another root's scheme (an element inside another
 * takes its scheme from it). Returns how to stop.
 */
export function onColorSchemeChange(listener: () => void): () => void {
  if (!watching) watch();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let pending = false;

/** Tells every listener, once for any number of calls in one task. */
export function colorSchemeChanged(): void {
  if (pending) return;
  pending = true;
  queueMicrotask(() => {
    pending = false;
    for (const listener of [...listeners]) listener();
  });
}

function watch(): void {
  watching = true;
  onConfigure(colorSchemeChanged);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', colorSchemeChanged);
  const observer = new MutationObserver(colorSchemeChanged);
  for (const element of [document.documentElement, document.body]) {
    if (element) observer.observe(element, { attributes: true });
  }
}
