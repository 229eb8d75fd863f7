import { questboardPolicy } from '../client/trusted-types.js';
import { FRAGMENT_ATTRIBUTES, FRAGMENT_ELEMENTS, rebuildAllowed } from './sanitize-fragment.js';

interface SanitizerConfig {
  elements: string[];
  attributes: string[];
  comments: boolean;
}

type SetHTML = (html: string, options: { sanitizer: SanitizerConfig }) => void;

/**
 * Replaces the container's content with the leaderboard fragment, treating it as untrusted:
 * the browser's Element.setHTML() with the fragment's allowlist where it exists, otherwise
 * the fragment is parsed into an inert document (through the `questboard` Trusted Types
 * policy) and rebuilt node by node from the same allowlist.
 */
export function insertFragment(container: Element, html: string, setHTML = nativeSetHTML(container)): void {
  if (setHTML) {
    setHTML.call(container, html, {
      sanitizer: { elements: FRAGMENT_ELEMENTS, attributes: FRAGMENT_ATTRIBUTES, comments: false },
    });
    return;
  }
  // Dropped before parsing only so that a strict CSP does not report the inert <style>; the
  // rebuild below would drop it (and anything else not allowed) all the same.
  const inert = new DOMParser().parseFromString(questboardPolicy().createHTML(withoutStyle(html)) as string, 'text/html');
  const fragment = document.createDocumentFragment();
  rebuildAllowed(inert.body, fragment);
  container.replaceChildren(fragment);
}

/** The fragment without its <style>, which the embed brings itself (document-styles.ts). */
export function withoutStyle(html: string): string {
  return html.replace(/<style[\s>][\s\S]*?<\/style\s*>/gi, '');
}

function nativeSetHTML(container: Element): SetHTML | undefined {
  const setHTML = (container as Element & { setHTML?: SetHTML }).setHTML;
  return typeof setHTML === 'function' ? setHTML : undefined;
}
