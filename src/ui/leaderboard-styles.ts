// The leaderboard's look: the table rules <qb-leaderboard> adopts in its shadow root, and the
// HTML fragment's whole stylesheet (its root's theme, then the same rules). Every selector
// starts with `.qb-lb` so nothing leaks into a host page, and only logical properties are used
// so dir="rtl" mirrors it.
import { css } from './css.js';
import { rootCss } from './theme.js';

/**
 * The fragment sits in the host page's DOM, where a theme's rules on `table`, `caption`, `th`,
 * `td` or `p` (borders, backgrounds, uppercase, text-indent, display: block…) reach it. Each
 * part therefore first reverts every property to the browser's default, in a selector of two
 * classes that outweighs plain element rules and a theme's `.content th`, and then sets its
 * own look in rules of at least that weight. (`:where()` keeps the tag list from adding weight,
 * so those later rules win by order.) In the element's shadow root this changes nothing.
 */
export const leaderboardTableCss = css`
.qb-lb {
  inline-size: 100%;
  max-inline-size: 100%;
  margin: 0;
  padding: 0;
  overflow-x: auto;
  contain: layout paint;
  border: 1px solid var(--_qb-border);
  border-radius: var(--_qb-radius);
  container-type: inline-size;
}
.qb-lb *, .qb-lb *::before, .qb-lb *::after { box-sizing: border-box; }
.qb-lb .qb-lb__table,
.qb-lb .qb-lb__table :where(caption, thead, tbody, tr, th, td, bdi, abbr, span),
.qb-lb .qb-lb__empty,
.qb-lb .qb-lb__summary,
.qb-lb .qb-lb__kept {
  all: revert;
  box-sizing: border-box;
}
.qb-lb .qb-lb__table {
  display: table;
  inline-size: 100%;
  table-layout: auto;
  border-collapse: collapse;
  border-spacing: 0;
  font-variant-numeric: tabular-nums;
}
.qb-lb .qb-lb__caption {
  caption-side: top;
  padding: calc(var(--_qb-space) * 5 / 6) var(--_qb-space);
  text-align: start;
  font-weight: 600;
}
.qb-lb .qb-lb__cell {
  padding: calc(var(--_qb-space) * 7 / 12) var(--_qb-space);
  border-block-start: 1px solid var(--_qb-border);
  text-align: start;
  vertical-align: middle;
  font-weight: 400;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
}
.qb-lb .qb-lb__table > thead .qb-lb__cell {
  font-size: 0.8125em;
  font-weight: 600;
  color: var(--_qb-text-muted);
}
.qb-lb .qb-lb__cell--num { text-align: end; }
.qb-lb th[scope="row"].qb-lb__cell { font-weight: 600; }
.qb-lb .qb-lb__row:nth-child(even) { background: var(--_qb-surface-alt); }
.qb-lb .qb-lb__row.qb-lb__row--highlight,
.qb-lb .qb-lb__row--highlight:nth-child(even) { background: var(--_qb-highlight); }
.qb-lb .qb-lb__row--highlight > :first-child { border-inline-start: 3px solid var(--_qb-accent); }
.qb-lb .qb-lb__table > .qb-lb__pinned { border-block-start: 2px solid var(--_qb-border); }
.qb-lb .qb-lb__name { unicode-bidi: isolate; }
.qb-lb .qb-lb__empty,
.qb-lb .qb-lb__summary,
.qb-lb .qb-lb__kept {
  margin: 0;
  padding: calc(var(--_qb-space) * 5 / 6) var(--_qb-space);
  color: var(--_qb-text-muted);
  font-size: 0.875em;
}
.qb-lb .qb-lb__kept { background: var(--_qb-surface-alt); font-size: 0.8125em; }
.qb-lb td[colspan] { white-space: normal; }
@media (prefers-reduced-motion: no-preference) {
  .qb-lb .qb-lb__row { transition: background-color 150ms ease-out; }
}
@media (forced-colors: active) {
  .qb-lb .qb-lb__row--highlight { outline: 2px solid CanvasText; outline-offset: -2px; }
}
/* Headers are never cut: a count column is as wide as its header or its widest number, and the
   member column takes the rest, cutting long names (each has its whole name as a title). Where
   the table is narrow, headers show their short forms (an abbr titled with the label), and in a
   narrower one the last counts give way. */
.qb-lb .qb-lb__cell--num { inline-size: 1%; }
.qb-lb .qb-lb__table th:nth-child(2) { inline-size: 100%; max-inline-size: 0; }
.qb-lb .qb-lb__abbr { display: none; text-decoration: none; }
@container (max-width: 40em) {
  .qb-lb .qb-lb__label { display: none; }
  .qb-lb .qb-lb__abbr { display: inline; }
}
@container (max-width: 30em) {
  .qb-lb .qb-lb__table :is(th, td):nth-child(n + 5) { display: none; }
}
`;

/** The HTML fragment's stylesheet: its root themed like an element's host, then the table. */
export const leaderboardCss = rootCss((condition = '') => `.qb-lb${condition}`) + leaderboardTableCss;
