// Every way the IndexedDB store's boards can disagree with themselves (docs/storage.md): a
// group's runs lie in pages keyed by their first and within the page's split, each run record
// holds exactly the rows its bounds say, in tie order, from its start and within the run's
// split, and nothing lies outside a group.
import { openDB } from 'idb';
import { decodeRows, decodeRuns, PAGE_SPLIT, RUN_SPLIT, runKey } from '../../src/store/indexeddb/board-positions.js';
import type { RowsRecord, RunsRecord } from '../../src/store/indexeddb/board-records.js';
import { compareTies, rowTie } from '../../src/store/placements.js';
import type { GroupKey, TieRow } from '../../src/store/records.js';

const text = (key: unknown) => JSON.stringify(key);

/** Every way the stored boards can disagree with themselves, as messages; none when they hold. */
export async function layoutFaults(name: string): Promise<string[]> {
  const db = await openDB(name);
  const [runs, rows] = await Promise.all([
    db.getAll('board_runs') as Promise<RunsRecord[]>,
    db.getAll('board_rows') as Promise<RowsRecord[]>,
  ]);
  db.close();
  const faults: string[] = [];
  const rowsAt = new Map(rows.map((record) => [text(record.key), record]));
  const runsOfGroup = new Set<string>();
  // A group's runs lie in pages, each keyed by its first run (the group's own key for the first).
  const pagesOf = new Map<string, RunsRecord[]>();
  for (const page of runs) {
    const group = text(page.key.slice(0, 4));
    pagesOf.set(group, [...(pagesOf.get(group) ?? []), page]);
    if (page.counts.length === 0) faults.push(`${text(page.key)}: a page of no runs`);
    if (page.counts.length > PAGE_SPLIT) faults.push(`${text(page.key)}: ${page.counts.length} runs, past the page's split`);
  }
  for (const [group, pages] of pagesOf) {
    const key = JSON.parse(group) as GroupKey;
    if (text(pages[0]!.key) !== group) faults.push(`${group}: no first page`);
    const bounds = pages.flatMap((page) => decodeRuns(page));
    let previous: TieRow | undefined;
    for (const { start, count } of bounds) {
      const runAt = text(runKey(key, start));
      runsOfGroup.add(runAt);
      const run = rowsAt.get(runAt);
      if (!run) {
        faults.push(`${runAt}: a run its group names is missing`);
        continue;
      }
      const members = decodeRows(run);
      if (members.length !== count) faults.push(`${runAt}: ${members.length} rows, its bounds say ${count}`);
      if (members.length > RUN_SPLIT) faults.push(`${runAt}: ${members.length} rows, past the split`);
      // A run's start bounds its rows from below: its first member may have left it since.
      if (start !== null && members[0] && compareTies(rowTie(members[0]), start) < 0)
        faults.push(`${runAt}: a row before its start`);
      for (const row of members) {
        if (previous && compareTies(rowTie(previous), rowTie(row)) >= 0)
          faults.push(`${runAt}: ${row.account_name} out of order`);
        previous = row;
      }
    }
  }
  for (const key of rowsAt.keys()) if (!runsOfGroup.has(key)) faults.push(`${key}: rows outside every group's runs`);
  return faults;
}
