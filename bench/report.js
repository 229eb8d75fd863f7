// Turns raw timings into the figures `npm run bench` prints and writes to
// docs/performance.md.

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
within ${TARGETS.write}×. ${outcome}

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
