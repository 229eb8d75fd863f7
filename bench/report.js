// Turns raw timings into the figures `npm run bench` prints and writes to
// docs/performance.md.
import { BADGE_WRITE } from './operations.js';

/** Targets at 100k members, as multiples of /v1/health's median in the same run. */
export const TARGETS = { read: 3, write: 5 };

export function percentile(sorted, fraction) {
  // Nearest rank: an actual sample, never an interpolation between two.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

export function median(sorted) {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** @returns {{ name, kind, median, p95, ratio, target }[]} one row per operation, health first */
export function summarize({ kinds, samples }) {
  const rows = Object.entries(samples).map(([name, values]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { name, kind: kinds[name], median: median(sorted), p95: percentile(sorted, 0.95) };
  });
  const baseline = rows.find((row) => row.kind === 'baseline').median;
  return rows.map((row) => ({ ...row, ratio: row.median / baseline, target: TARGETS[row.kind] }));
}

function verdict(row) {
  if (row.target === undefined) return '';
  return row.ratio <= row.target ? `≤ ${row.target}× met` : `≤ ${row.target}× MISSED`;
}

const ms = (value) => value.toFixed(2);
const ratio = (value) => `${value.toFixed(2)}×`;

function tableRows(rows) {
  return rows.map((row) => [row.name, row.kind, ms(row.median), ms(row.p95), ratio(row.ratio), verdict(row)]);
}

const HEADER = ['operation', 'kind', 'median ms', 'p95 ms', '× health', 'target'];

export function formatTable(rows) {
  const cells = [HEADER, ...tableRows(rows)];
  const widths = HEADER.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  const numeric = new Set([2, 3, 4]);
  return cells
    .map((row) =>
      row
        .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `extra`: more numeric columns, each `{ header, cell(row) }`. */
export function markdownTable(rows, extra = []) {
  const lines = [
    `| ${[...HEADER, ...extra.map((column) => column.header)].join(' | ')} |`,
    `|---|---|--:|--:|--:|---|${extra.map(() => '--:|').join('')}`,
  ];
  for (const [index, cells] of tableRows(rows).entries()) {
    lines.push(`| ${[...cells, ...extra.map((column) => column.cell(rows[index]))].join(' | ')} |`);
  }
  return lines.join('\n');
}

export const count = (value) => value.toLocaleString('en-US');

const seconds = (value) => (value === null ? 'refused (413)' : value.toFixed(1));

/** Seeding in merge chunks against one import of the same members: a merge touches only what its chunk brings. */
function importsTable(results) {
  const lines = ['| members | chunked imports | chunked s | one import s | chunked ÷ one |', '|--:|--:|--:|--:|--:|'];
  for (const { size, importSeconds, importRequests, wholeSeconds } of results) {
    const share = wholeSeconds === null ? '' : `${(importSeconds / wholeSeconds).toFixed(2)}×`;
    lines.push(`| ${count(size)} | ${importRequests} | ${seconds(importSeconds)} | ${seconds(wholeSeconds)} | ${share} |`);
  }
  return lines.join('\n');
}

export function performanceMarkdown({ results, machine, settings, date, minutes }) {
  const sections = results.map(
    ({ size, importSeconds, importRequests, rounds, rows }) =>
      `#### ${count(size)} members\n\nSeeded in ${importSeconds.toFixed(1)} s through ${importRequests} ` +
      `\`POST /v1/admin/import\` requests (merge mode); ${rounds} rounds kept.\n\n${markdownTable(rows)}\n`,
  );
  const largest = results.at(-1);
  const missed = largest ? largest.rows.filter((row) => row.target !== undefined && row.ratio > row.target) : [];
  const outcome = !largest
    ? ''
    : missed.length === 0
      ? `At ${count(largest.size)} members every target is met.`
      : `At ${count(largest.size)} members these miss their target: ${missed.map((row) => `${row.name} (${ratio(row.ratio)})`).join(', ')}.`;

  return `## In the browser: \`npm run bench\`

Figures written by \`npm run bench\` on ${date} (the run took ${minutes.toFixed(1)} min).
Rerun it to refresh them; the command rewrites this section.

### Targets

Issue 2 sets them at 100,000 members, relative to \`GET /v1/health\` measured in
the same run: every read within ${TARGETS.read}× of health's median, every write
within ${TARGETS.write}×. Issue 40 asks the same ${TARGETS.write}× of a write that awards a badge:
\`${BADGE_WRITE}\`, each request of which completes a member's first task and so awards one. ${outcome}

### Method

- \`bench/run.js\` serves a blank page and the built worker (\`dist/questboard-sw.js\`,
  rebuilt first when \`src/\` is newer) from a local origin, opens it in headless
  Chromium through puppeteer-core and registers the worker at scope \`/\`.
- For each size, a fresh app is seeded through \`POST /v1/admin/import\` in merge-mode
  chunks of 5,000 members (\`bench/dataset.js\`: deterministic members, 0–4 progress logs each over the
  last 45 days, so scores, weekly scores and ranks differ). After the measurements,
  the same members are imported again into a twin app in one request, so the
  chunked seeding can be set against one import of them all. Imports wait as
  long as they take: only the measured requests have a timeout.
- Each round sends every operation once, interleaved (\`bench/operations.js\`), so
  health shares the conditions of what it is compared with. Up to ${settings.warmupRounds}
  warm-up rounds (at most ${settings.warmupBudgetMs / 1000} s) are discarded, then up to ${settings.rounds} rounds
  are kept per size, fewer when they take over ${settings.budgetMs / 1000} s (never fewer than ${settings.minRounds}).
- A time is \`fetch\` from the page to the last byte of the body, through the
  service worker and IndexedDB. Every answer is checked (HTTP 200, \`is_valid: true\`),
  and the run fails if any \`/v1\` request reached the server instead of the worker.
- Writes change their target every round (another member, another endorsement id,
  another recipient), so none is answered as a repeat.
- \`${BADGE_WRITE}\` logs a task's whole quantity for a member of the dataset who has completed
  no task (one without progress, about a fifth of them), another each round, so it completes their first
  task and awards the badge \`first-task\` (a task completed) in that very write, as any member's first
  completed task does. The member is seeded with the others: nothing is sent before the write.
- Median and p95 (nearest rank) in milliseconds; "× health" is the median's ratio
  to health's median.

### Machine

- CPU: ${machine.cpuModel}, ${machine.cpus} logical CPUs (\`nproc\`)
- Memory: ${machine.memoryGiB} GiB; load average ${machine.loadAverage} when the run started
- Browser: ${machine.browser} (headless); \`performance.now()\` steps of ${machine.timerStep}
- Node ${machine.node}, ${machine.platform}

### Results

#### Imports

${importsTable(results)}

${sections.join('\n')}`;
}

/** Issue 12: a returning visitor's container shows rows within this many ms of navigation start (median). */
export const FIRST_PAINT_TARGET_MS = 60;

export function formatFirstPaint(rows) {
  const width = Math.max(...rows.map((row) => row.name.length));
  return rows
    .map((row) => `${row.name.padEnd(width)}  median ${ms(row.median).padStart(7)} ms  p95 ${ms(row.p95).padStart(7)} ms`)
    .join('\n');
}

export function firstPaintMarkdown({ members, rounds, warmup, rows, machine, note, date }) {
  const firstRows = rows.find((row) => row.key === 'firstRows');
  const met = firstRows.median <= FIRST_PAINT_TARGET_MS;
  const table = [
    '| measure (ms after navigation start) | median | p95 |',
    '|---|--:|--:|',
    ...rows.map((row) => `| ${row.name} | ${ms(row.median)} | ${ms(row.p95)} |`),
  ].join('\n');
  return `## First paint: \`npm run bench\`

Figures written by \`npm run bench\` on ${date} (\`--first-paint-only\` runs this part alone).
Rerun it to refresh them; the command rewrites this section.

### Target

Issue 12: a returning visitor sees the stored leaderboard at once, the container's first
rows within ${FIRST_PAINT_TARGET_MS} ms of navigation start (median), on a page with one container and
${count(members)} stored members. This run: ${ms(firstRows.median)} ms, ${met ? 'met' : 'MISSED'}.

### Method

- \`bench/first-paint.js\` seeds an app of ${count(members)} members into the worker's store (the
  page of the API benchmark imports them), then opens, in one tab, \`bench/blank.html\` and
  \`bench/first-paint.html\` in turn: ${warmup} rounds unkept, then ${rounds} kept.
- The first-paint page is a plain page with the built \`dist/questboard.js\` (served as a CDN
  serves it: from the HTTP cache on a return visit) and one \`data-questboard-leaderboard\`
  container; the built worker controls it and answers \`/v1\` (a request reaching the server
  fails the run). An inline script watches the container: *first rows* is when it first holds
  table rows (the answer the embed kept from the last visit, put in as the embed starts), then
  when the frame that shows them begins (\`requestAnimationFrame\`), and *the current answer's
  rows* when the worker's answer is in place (\`aria-busy="false"\`).
- DOMContentLoaded of the blank page and of the embed's page, from Navigation Timing, in the
  same rounds. Median and p95 (nearest rank).

### Machine

- CPU: ${machine.cpuModel}, ${machine.cpus} logical CPUs; ${machine.memoryGiB} GiB; load average ${machine.loadAverage} when the run started
- Browser: ${machine.browser} (headless); Node ${machine.node}, ${machine.platform}${note ? `\n- ${note}` : ''}

### Results

${table}
`;
}
