import { leaderboardCss } from '../ui/leaderboard-styles.js';

let adopted = false;

/**
 * Gives the page the fragment's CSS once, as a constructed stylesheet: a strict CSP blocks
 * inline <style>, but not adopted sheets. Every selector starts with `.qb-lb`.
 * Engines without constructed stylesheets (Safari before 16.4) get a <style> element instead.
 */
export function adoptLeaderboardStyles(): void {
  if (adopted) return;
  adopted = true;
  addLeaderboardStyles(document, hasConstructedStyleSheets());
}

export function hasConstructedStyleSheets(): boolean {
  return 'adoptedStyleSheets' in Document.prototype && 'replaceSync' in CSSStyleSheet.prototype;
}

export function addLeaderboardStyles(target: Document, constructed: boolean): void {
  if (constructed) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(leaderboardCss);
    target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
    return;
  }
  const style = target.createElement('style');
  style.dataset.questboard = 'leaderboard';
  style.textContent = leaderboardCss;
  target.head.append(style);
}
