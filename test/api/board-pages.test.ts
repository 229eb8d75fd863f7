// A group's runs lie in pages (board-positions.ts, version 16): a write rewrites the pages it
// changes, and keeps each keyed by its first run, within its split, and gone once it holds none;
// a group its last member leaves goes whole. Laid out by hand, moved by moveRows itself.
import { expect } from '@open-wc/testing';
import { deleteDB, openDB } from 'idb';
import {
  encodeRows,
  encodeRuns,
  moveRows,
  pageCount,
  PAGE_SPLIT,
  RUN_SPLIT,
  runKey,
  type RowChange,
} from '../../src/store/indexeddb/board-positions.js';
import type { RunsRecord } from '../../src/store/indexeddb/board-records.js';
import { prefixRange } from '../../src/store/indexeddb/key-ranges.js';
import { ALL_STORES } from '../../src/store/indexeddb/schema.js';
import { openIndexedDbStore } from '../../src/store/indexeddb/index.js';
import type { GroupKey, Tie, TieRow } from '../../src/store/records.js';
import { layoutFaults } from './board-faults.js';
import { itOnIndexedDb } from './support.js';

const GROUP: GroupKey = ['app', 'score', '', -5];
const NAMES: GroupKey = ['app', 'names', '', 0];

const row = ([at, account_name]: Tie): TieRow => ({ account_name, at });
const leave = (group: GroupKey, tie: Tie): RowChange => ({ placement: { group, tie }, row: null, delta: -1 });
const join = (group: GroupKey, tie: Tie): RowChange => ({ placement: { group, tie }, row: row(tie), delta: 1 });

/** Runs as their rows' ties; pages as their runs. */
type Layout = Tie[][][];

/** A database at this version holding `layouts` by group. */
async function laidOut(layouts: [GroupKey, Layout][]) {
  const name = `questboard-test-${crypto.randomUUID()}`;
  // The store's own upgrade makes the stores.
  const store = openIndexedDbStore({ name });
  await store.read(async () => undefined);
  await store.close();
  const db = await openDB(name);
  const tx = db.transaction(ALL_STORES, 'readwrite');
  for (const [group, pages] of layouts) {
    pages.forEach((runs, page) => {
      const bounds = runs.map((ties, run) => ({ start: page === 0 && run === 0 ? null : ties[0]!, count: ties.length }));
      void tx.objectStore('board_runs').put(encodeRuns(group, bounds));
      runs.forEach(
        (ties, run) => void tx.objectStore('board_rows').put(encodeRows(runKey(group, bounds[run]!.start), ties.map(row))),
      );
    });
  }
  await tx.done;
  return {
    name,
    async move(changes: RowChange[]) {
      const write = db.transaction(ALL_STORES, 'readwrite');
      await moveRows(write as never, changes);
      await write.done;
    },
    pageKeys: async () => ((await db.getAll('board_runs')) as RunsRecord[]).map((page) => page.key),
    /** The group's members, its pages' runs summed. */
    count: async (group: GroupKey) =>
      ((await db.getAll('board_runs', prefixRange(group))) as RunsRecord[]).reduce((sum, page) => sum + pageCount(page), 0),
    async close() {
      db.close();
      await deleteDB(name);
    },
  };
}

describe('IndexedDB pages of runs', () => {
  itOnIndexedDb(
    "rekeys a page whose first run empties, drops one left with none, and joins a member after a page's start",
    async () => {
      const board = await laidOut([
        [
          GROUP,
          [
            [
              [
                [1, 'a'],
                [2, 'b'],
              ],
              [
                [10, 'c'],
                [11, 'd'],
              ],
            ],
            [
              [
                [20, 'e'],
                [21, 'f'],
              ],
              [[30, 'g']],
            ],
            [[[40, 'h']]],
          ],
        ],
      ]);
      try {
        expect(await layoutFaults(board.name)).to.deep.equal([]);
        await board.move([leave(GROUP, [20, 'e']), leave(GROUP, [21, 'f']), leave(GROUP, [40, 'h']), join(GROUP, [35, 'z'])]);
        expect(await board.pageKeys()).to.deep.equal([GROUP, [...GROUP, 30, 'g']]);
        expect(await board.count(GROUP)).to.equal(6);
        expect(await layoutFaults(board.name)).to.deep.equal([]);
      } finally {
        await board.close();
      }
    },
  );

  itOnIndexedDb('splits a page past its split in halves, each keyed by its first run', async () => {
    // PAGE_SPLIT runs of one member each, the first full: one more member splits it, and the page with it.
    const runs: Tie[][] = Array.from({ length: PAGE_SPLIT }, (_, run) =>
      Array.from({ length: run === 0 ? RUN_SPLIT : 1 }, (_, i): Tie => [run * 1000 + i, `m${run}-${i}`]),
    );
    const board = await laidOut([[GROUP, [runs]]]);
    try {
      await board.move([join(GROUP, [500, 'joining'])]);
      const keys = await board.pageKeys();
      expect(keys.length).to.equal(2);
      expect(keys[0]).to.deep.equal(GROUP);
      expect(await layoutFaults(board.name)).to.deep.equal([]);
    } finally {
      await board.close();
    }
  });

  itOnIndexedDb('deletes a group its last members leave: a counted one, and a name list, which keeps no count', async () => {
    const board = await laidOut([
      [GROUP, [[[[1, 'a']]], [[[5, 'b']]]]],
      [NAMES, [[[[0, 'a']]], [[[0, 'b']]]]],
    ]);
    try {
      await board.move([leave(GROUP, [1, 'a']), leave(GROUP, [5, 'b']), leave(NAMES, [0, 'b'])]);
      // The name list keeps its member a, on its first page.
      expect(await board.pageKeys()).to.deep.equal([NAMES]);
      await board.move([leave(NAMES, [0, 'a'])]);
      expect(await board.pageKeys()).to.deep.equal([]);
      expect(await layoutFaults(board.name)).to.deep.equal([]);
    } finally {
      await board.close();
    }
  });
});
