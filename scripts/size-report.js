// Measures shipped files as a CDN serves them (minified, then gzip -9) and
// checks them against their budgets. 1 KB = 1000 bytes: the stricter reading
// of "at most 25 KB", so the budget holds whichever unit a reader assumes.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1000;

function formatKB(bytes) {
  return `${(bytes / KB).toFixed(2)} KB`;
}

export function measure(path) {
  const bytes = readFileSync(path);
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/**
 * Prints one line per file and returns the files over budget.
 * @param {{ path: string, budgetKB?: number }[]} files
 * @param {string} root paths are printed relative to it
 */
export function reportSizes(files, root) {
  const overBudget = [];
  const rows = files.map(({ path, budgetKB }) => {
    const { min, gzip } = measure(path);
    const over = budgetKB !== undefined && gzip > budgetKB * KB;
    if (over) overBudget.push({ path: relative(root, path), gzip, budgetKB });
    const budget = budgetKB === undefined ? '' : `${over ? 'OVER' : 'within'} budget ${budgetKB} KB`;
    return [relative(root, path), formatKB(min), formatKB(gzip), budget];
  });
  const header = ['file', 'min', 'min+gzip', 'budget (min+gzip)'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells) =>
    cells
      .map((cell, column) => {
        const leftAligned = column === 0 || column === cells.length - 1;
        return leftAligned ? cell.padEnd(widths[column]) : cell.padStart(widths[column]);
      })
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  return overBudget;
}
