// The leaderboard's look as one CSS string: adopted by <qb-leaderboard>'s shadow root and
// inlined in the HTML fragment. Every selector starts with `.qb-lb` so nothing leaks into a
// host page, and only logical properties are used so dir="rtl" mirrors it.
import { paletteColor } from './palette.js';

export const leaderboardCss = `
.qb-lb {
  color-scheme: light dark;
  --qb-lb-bg: ${paletteColor('surface', 'light')};
  --qb-lb-fg: ${paletteColor('text', 'light')};
  --qb-lb-muted: ${paletteColor('text-muted', 'light')};
  --qb-lb-border: ${paletteColor('border', 'light')};
  --qb-lb-stripe: ${paletteColor('surface-alt', 'light')};
  --qb-lb-highlight: ${paletteColor('highlight', 'light')};
  --qb-lb-accent: ${paletteColor('accent', 'light')};
  display: block;
  box-sizing: border-box;
  inline-size: 100%;
  max-inline-size: 100%;
  margin: 0;
  padding: 0;
  overflow-x: auto;
  contain: layout paint;
  background: var(--qb-lb-bg);
  color: var(--qb-lb-fg);
  font-family: var(--qb-font-family, system-ui, sans-serif);
  font-size: var(--qb-font-size, 0.9375rem);
  line-height: 1.4;
  border: 1px solid var(--qb-lb-border);
  border-radius: var(--qb-radius, 8px);
}
@media (prefers-color-scheme: dark) {
  .qb-lb {
    --qb-lb-bg: ${paletteColor('surface', 'dark')};
    --qb-lb-fg: ${paletteColor('text', 'dark')};
    --qb-lb-muted: ${paletteColor('text-muted', 'dark')};
    --qb-lb-border: ${paletteColor('border', 'dark')};
    --qb-lb-stripe: ${paletteColor('surface-alt', 'dark')};
    --qb-lb-highlight: ${paletteColor('highlight', 'dark')};
    --qb-lb-accent: ${paletteColor('accent', 'dark')};
  }
}
.qb-lb *, .qb-lb *::before, .qb-lb *::after { box-sizing: border-box; }
.qb-lb .qb-lb__table {
  inline-size: 100%;
  table-layout: auto;
  border-collapse: collapse;
  border-spacing: 0;
  margin: 0;
  font: inherit;
  color: inherit;
  font-variant-numeric: tabular-nums;
}
.qb-lb .qb-lb__caption {
  caption-side: top;
  padding: 0.625rem 0.75rem;
  text-align: start;
  font-weight: 600;
  color: inherit;
}
.qb-lb .qb-lb__cell {
  padding: 0.4375rem 0.75rem;
  border: 0;
  border-block-start: 1px solid var(--qb-lb-border);
  text-align: start;
  vertical-align: middle;
  font-weight: 400;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  color: inherit;
  background: transparent;
}
.qb-lb thead .qb-lb__cell {
  font-size: 0.8125em;
  font-weight: 600;
  color: var(--qb-lb-muted);
}
.qb-lb .qb-lb__cell--num { text-align: end; }
.qb-lb th[scope="row"].qb-lb__cell { font-weight: 600; }
.qb-lb .qb-lb__row:nth-child(even) { background: var(--qb-lb-stripe); }
.qb-lb .qb-lb__row--highlight,
.qb-lb .qb-lb__row--highlight:nth-child(even) { background: var(--qb-lb-highlight); }
.qb-lb .qb-lb__row--highlight > :first-child { border-inline-start: 3px solid var(--qb-lb-accent); }
.qb-lb .qb-lb__pinned { border-block-start: 2px solid var(--qb-lb-border); }
.qb-lb .qb-lb__name { unicode-bidi: isolate; }
.qb-lb .qb-lb__empty,
.qb-lb .qb-lb__summary,
.qb-lb .qb-lb__kept {
  margin: 0;
  padding: 0.625rem 0.75rem;
  color: var(--qb-lb-muted);
  font-size: 0.875em;
}
.qb-lb .qb-lb__kept { background: var(--qb-lb-stripe); font-size: 0.8125em; }
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
.qb-lb { container-type: inline-size; }
.qb-lb .qb-lb__cell--num { inline-size: 1%; }
.qb-lb .qb-lb__table th:nth-child(2) { inline-size: 100%; max-inline-size: 0; }
.qb-lb .qb-lb__abbr { display: none; text-decoration: none; }
@container (max-width: 40rem) {
  .qb-lb .qb-lb__label { display: none; }
  .qb-lb .qb-lb__abbr { display: inline; }
}
@container (max-width: 30rem) {
  .qb-lb .qb-lb__table :is(th, td):nth-child(n + 5) { display: none; }
}
`;
