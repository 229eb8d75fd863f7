// The IndexedDB store's boards as it keeps them (docs/storage.md): after imports and live writes,
// each board group's count is its runs' sum (a name list keeps none), each run record holds exactly the rows its bounds say, in
// tie order and within the split, and nothing lies outside a group.
import { expect } from '@open-wc/testing';
import { openDB } from 'idb';
import { seededRandom as random } from '../../bench/seeded-random.js';
import { decodeRows, decodeRuns, RUN_SPLIT, runKey } from '../../src/store/indexeddb/board-positions.js';
import type { BoardCountRecord, RowsRecord, RunsRecord } from '../../src/store/indexeddb/board-records.js';
import { compareTies, isNameList, rowTie } from '../../src/store/placements.js';
import type { TieRow } from '../../src/store/records.js';
import { GUIDS, WEDNESDAY, checkInApp, iso, itOnIndexedDb, localApi } from './support.js';

const MEMBERS = 300;

const text = (key: unknown) => JSON.stringify(key);

/** Every way the stored boards can disagree with themselves, as messages; none when they hold. */
async function layoutFaults(name: string): Promise<string[]> {
  const db = await openDB(name);
  const [counts, runs, rows] = await Promise.all([
    db.getAll('board_counts') as Promise<BoardCountRecord[]>,
    db.getAll('board_runs') as Promise<RunsRecord[]>,
    db.getAll('board_rows') as Promise<RowsRecord[]>,
  ]);
  db.close();
  const faults: string[] = [];
  const countOf = new Map(counts.map(({ key, count }) => [text(key), count]));
  const rowsAt = new Map(rows.map((record) => [text(record.key), record]));
  const runsOfGroup = new Set<string>();
  for (const record of runs) {
    const group = text(record.key);
    const bounds = decodeRuns(record);
    const sum = bounds.reduce((total, { count }) => total + count, 0);
    // A name list keeps no count: its runs' sum is its only one.
    const counted = isNameList(record.key) ? undefined : sum;
    if (countOf.get(group) !== counted) faults.push(`${group}: counted ${countOf.get(group)}, its runs hold ${sum}`);
    let previous: TieRow | undefined;
    for (const { start, count } of bounds) {
      const key = text(runKey(record.key, start));
      runsOfGroup.add(key);
      const run = rowsAt.get(key);
      if (!run) {
        faults.push(`${key}: a run its group names is missing`);
        continue;
      }
      const members = decodeRows(run);
      if (members.length !== count) faults.push(`${key}: ${members.length} rows, its bounds say ${count}`);
      if (members.length > RUN_SPLIT) faults.push(`${key}: ${members.length} rows, past the split`);
      if (start !== null && members[0] && compareTies(rowTie(members[0]), start) !== 0) faults.push(`${key}: starts elsewhere`);
      for (const row of members) {
        if (previous && compareTies(rowTie(previous), rowTie(row)) >= 0) faults.push(`${key}: ${row.account_name} out of order`);
        previous = row;
      }
    }
  }
  for (const key of countOf.keys()) if (!runs.some((record) => text(record.key) === key)) faults.push(`${key}: counted, no runs`);
  for (const key of rowsAt.keys()) if (!runsOfGroup.has(key)) faults.push(`${key}: rows outside every group's runs`);
  return faults;
}

describe('IndexedDB board layout', () => {
  itOnIndexedDb('keeps every group counted by its runs, and every run holding its rows in order', async function () {
    this.timeout(60_000);
    const api = localApi({ now: WEDNESDAY });
    try {
      const next = random(11);
      const names = Array.from({ length: MEMBERS }, (_, i) => `member-${String(i).padStart(3, '0')}`);
      const progress = names.flatMap((account_name) =>
        Array.from({ length: next() < 0.5 ? 0 : 1 + Math.floor(next() * 3) }, () => ({
          task_id: GUIDS.checkIn,
          account_name,
          quantity: 1,
          at: iso(WEDNESDAY - Math.floor(next() * 30) * 86_400_000),
        })),
      );
      const imported = await api.call('POST', '/v1/admin/import', {
        body: { admin_keys: ['sk_admin'], apps: [{ ...checkInApp('layout', names), progress }] },
      });
      expect(imported.status, imported.text).to.equal(200);
      expect(await layoutFaults(api.name)).to.deep.equal([]);

      // Live writes a member at a time: joins pile into the group of 0 until its runs split, and
      // check-ins move members between groups on every board.
      for (let i = 0; i < 120; i++) {
        api.clock.now += 1000;
        const account_name = i % 3 ? names[Math.floor(next() * MEMBERS)]! : `late-${String(i).padStart(3, '0')}`;
        const answer =
          i % 3
            ? await api.call('POST', '/v1/admin/log_task', { body: { task_id: GUIDS.checkIn, account_name, quantity: 1 } })
            : await api.call('POST', '/v1/connect_social', { body: { app_id: 'layout', account_name, twitter_name: 'x' } });
        expect(answer.status, answer.text).to.equal(200);
      }
      // A merge import's chunk: many changes in one group at once.
      const merged = await api.call('POST', '/v1/admin/import?mode=merge', {
        body: {
          apps: [
            {
              app_id: 'layout',
              users: Array.from({ length: 40 }, (_, i) => ({ account_name: `merged-${i}`, joined_at: iso(WEDNESDAY) })),
              progress: names
                .slice(0, 40)
                .map((account_name) => ({ task_id: GUIDS.checkIn, account_name, quantity: 1, at: iso(api.clock.now) })),
            },
          ],
        },
      });
      expect(merged.status, merged.text).to.equal(200);
      expect(await layoutFaults(api.name)).to.deep.equal([]);
    } finally {
      await api.close();
    }
  });
});
