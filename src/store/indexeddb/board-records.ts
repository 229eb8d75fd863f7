// How the IndexedDB store lays out its boards (board-positions.ts).
import type { GroupKey, Tie } from '../records.js';

/** A run's key: its group, then the tie it starts at (none for the group's first run). */
export type RunKey = GroupKey | [...GroupKey, ...Tie];

/** How many members of one board hold one value: the counts of its pages' runs summed (boards.ts). */
export interface GroupCount {
  key: GroupKey;
  count: number;
}

/** A run of members of one value group, from its start up to the next run's. */
export interface RunBounds {
  /** The tie the run starts at; null for the group's first run, which starts at the group. */
  start: Tie | null;
  count: number;
}

/**
 * A page of one value group's runs, in board order: the runs from the one it is keyed by up to
 * the next page's first (board-positions.ts). Packed into typed arrays and one string: a large
 * group has thousands of runs, and decoding as many small objects costs a millisecond where
 * these cost a few microseconds.
 */
export interface RunsRecord {
  /** Its first run's key: the group's own for the group's first page. */
  key: RunKey;
  counts: Uint16Array;
  /** reached_at of each run's start (the first run's, which the key holds, is unused). */
  starts_at: Float64Array;
  /** JSON array of each run's starting account_name ('' for the first run). */
  starts_name: string;
}

/**
 * The members of one run, in board order: a page of a board is a read of a few
 * of these. The four boards and the name lists hold BoardRows; rows of the
 * period name lists are only counted, so only their ties are kept current. A
 * season's board holds its members' ties alone (its rows come from
 * season_points, the points being the group's value).
 */
export interface RowsRecord {
  key: RunKey;
  /**
   * The rows as one JSON text (board-positions.ts, encodeRows), packed as columns:
   * `[fields, values]`, each row's values in the order of `fields`, null where a row lacks the
   * field (no row's field is null). One string to copy in and out of the database, where a
   * hundred rows as objects cost a copy of each of their fields.
   */
  packed_rows: string;
}
