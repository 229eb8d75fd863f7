import { leaderboardCss } from '../ui/leaderboard-styles.js';

let adopted = false;

/**
 * Gives the page the fragment's CSS once, as a constructed stylesheet: a strict CSP blocks
 * inline <style>, but not adopted sheets. Every selector starts with `.qb-lb`.
 */
export function adoptLeaderboardStyles(): void {
  if (adopted) return;
  adopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(leaderboardCss);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
