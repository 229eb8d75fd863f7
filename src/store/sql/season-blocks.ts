// Keeps each season's board countable in blocks, as board-blocks.ts keeps the main
// boards, so that a deep page, a rank or a member's place is a sum over the
// season's block counts and a walk of one block, not a walk of every member above.
//
// A design of its own, not board_blocks with a board kind 'season': those blocks
// are cut from the users table's columns (board-order.ts BOARD_COLUMNS), belong to
// one value each (a season's members spread over many values, a block per value
// would count little) and carry sections and name lists a season has no use for.
// Here a block is a run of members in board order across values: season_blocks
// holds each block's start (0 − points, at, name: ascending in every column, as
// season_points_by_order orders them) and how many members it has. The season's
// first block starts at SEASON_START, before any member; a member belongs to the
// block with the last start at or before its own place. Sections count the blocks
// in turn (season-sections.ts), and season-moves.ts keeps both as members move.
import type { SeasonPointsRecord } from '../records.js';
import { BLOCK_FILL, PROBES_AT_MOST } from './board-blocks.js';
import { FIRST_START, compareTies, lastAtOrBefore } from './board-order.js';
import { addingTo, type CountedTable, type KeyColumn } from './counts.js';
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** Where a season's first block starts: before the place of any member (finite, as FIRST_START). */
export const SEASON_START = { negated_points: -Number.MAX_VALUE, start_at: FIRST_START, start_name: '' } as const;

/** One member's place on a season's board, or a block's start. */
export interface SeasonPlace {
  app_id: string;
  season_id: string;
  negated_points: number;
  start_at: number;
  start_name: string;
}

export const placeOf = ({ app_id, season_id, points, at, account_name }: SeasonPointsRecord): SeasonPlace => ({
  app_id,
  season_id,
  // 0 − points, never −0 (as board-order.ts negated): the database keeps 0 − 0 as 0.
  negated_points: 0 - points,
  start_at: at,
  start_name: account_name,
});

export const placeText = (place: SeasonPlace) =>
  JSON.stringify([place.app_id, place.season_id, place.negated_points, place.start_at, place.start_name]);

/** A block as season_blocks holds it. */
export type CountedBlock = SeasonPlace & { count: number };

/** The key of season_blocks and season_sections: the season, and the start of a block or a section. */
export const seasonStartKey = <Row extends SeasonPlace>(): KeyColumn<Row>[] => [
  { name: 'app_id', type: 'text', of: (row) => row.app_id },
  { name: 'season_id', type: 'text', of: (row) => row.season_id },
  { name: 'negated_points', type: 'float8', of: (row) => row.negated_points },
  { name: 'start_at', type: 'float8', of: (row) => row.start_at },
  { name: 'start_name', type: 'text', of: (row) => row.start_name },
];

export const SEASON_BLOCK_COUNTS: CountedTable<CountedBlock> = {
  table: 'season_blocks',
  key: seasonStartKey(),
  counters: [{ name: 'count', of: (block) => block.count }],
};

export const addToBlocks = addingTo(SEASON_BLOCK_COUNTS);

/** A season's rows of season_blocks under `alias`, as the start of a WHERE clause. */
export const blocksOf = (alias: string, app_id: string, season_id: string) => {
  const column = (name: string) => new Identifier(`${alias}.${name}`);
  return sql`season_blocks AS ${new Identifier(alias)} WHERE ${column('app_id')} = ${app_id}::text
    AND ${column('season_id')} = ${season_id}::text`;
};

/** The board-order row of a season_blocks alias: its start. */
export const startOf = (alias: string) => new Identifier(`(${alias}.negated_points, ${alias}.start_at, ${alias}.start_name)`);

/** A member's place as a board-order row value, to compare with season_points' and season_blocks' rows. */
const placeRow = (points: number, at: number, name: string) => sql`(${0 - points}::float8, ${at}::float8, ${name}::text)`;

/** A season's members, the start of a WHERE clause on season_points. */
export const seasonRows = (app_id: string, season_id: string) => sql`app_id = ${app_id}::text AND season_id = ${season_id}::text`;

/** The board-order row of season_points. */
export const MEMBER_PLACE = new Identifier('(negated_points, at, account_name)');

/**
 * A place on a season's board to count up to: a member's place (`row`, a board-order row value),
 * or where the members with some points start (no `row`); `negatedPoints` is its first column.
 * Kept apart because PostgreSQL 15 stops an index scan at a row comparison's bound only where its
 * first column decides: past a bound inside one value of points, a scan read on to that value's
 * end (5,000 index entries at a million members, for a dozen counted).
 */
export interface SeasonAt {
  negatedPoints: Query;
  row?: Query;
}

/** The season's block holding `at`, as a FROM item under `alias`. */
export function blockHolding(alias: string, app_id: string, season_id: string, at: SeasonAt): Query {
  const column = (name: string) => new Identifier(`${alias}.${name}`);
  return sql`(
    SELECT * FROM ${blocksOf(alias, app_id, season_id)} AND ${startOf(alias)} <= ${rowOf(at)}
    ORDER BY ${column('negated_points')} DESC, ${column('start_at')} DESC, ${column('start_name')} DESC LIMIT 1
  ) AS ${new Identifier(alias)}`;
}

/** The board-order row of `at`: a value's start is before every member with its points. */
const rowOf = (at: SeasonAt) => at.row ?? sql`(${at.negatedPoints}, ${FIRST_START}::float8, ''::text)`;

/**
 * The season's members from the start of block `alias` up to `at`, as a scalar: a walk of that
 * block that reads at most its members, and none past the value of `at` (SeasonAt): up to a
 * value's start, the members before that value; up to a member, the block's first members up to
 * the end of the member's value, those before the member counted.
 */
export function walkOfBlock(alias: string, app_id: string, season_id: string, at: SeasonAt): Query {
  const inBlock = sql`${seasonRows(app_id, season_id)} AND ${MEMBER_PLACE} >= ${startOf(alias)}`;
  if (!at.row) return sql`(SELECT count(*) FROM season_points WHERE ${inBlock} AND negated_points < ${at.negatedPoints})`;
  return sql`(SELECT count(*) FILTER (WHERE ${MEMBER_PLACE} < ${at.row}) FROM (
      SELECT negated_points, at, account_name FROM season_points WHERE ${inBlock} AND negated_points <= ${at.negatedPoints}
      ORDER BY negated_points, at, account_name LIMIT ${new Identifier(`${alias}.count`)}
    ) AS walked)`;
}

/** A member's place on the season's board. */
export const seasonPlace = ({ points, at, account_name }: SeasonPointsRecord): Required<SeasonAt> => ({
  negatedPoints: sql`${0 - points}::float8`,
  row: placeRow(points, at, account_name),
});

/** Where the members with more than `points` end: before every member at `points`. */
export const seasonValueStart = (points: number): SeasonAt => ({ negatedPoints: sql`${0 - points}::float8` });

/** A block's start, and the members it holds (0 where a place opens the season's first block). */
export interface Located {
  negated_points: number;
  start_at: number;
  start_name: string;
  count: number;
}

const OPENS_FIRST_BLOCK: Located = { ...SEASON_START, count: 0 };

/** Board order of two starts (a place is one too). */
export const compareStarts = (a: Omit<Located, 'count'>, b: Omit<Located, 'count'>) =>
  a.negated_points !== b.negated_points
    ? a.negated_points < b.negated_points
      ? -1
      : 1
    : compareTies(a.start_at, a.start_name, b.start_at, b.start_name);

/**
 * The block each place falls in, as the blocks stand before this write: as board-blocks.ts
 * locates, a request's few places by one probe of the index each, in one statement; an import's
 * thousands by reading every block of their seasons at once (a few thousand rows at a million
 * members) and a binary search per place (a probe each cost the server benchmark's import 1.7 s
 * a chunk of 5,000 members).
 */
export async function locate(session: SqlSession, places: SeasonPlace[]): Promise<Located[]> {
  if (places.length <= PROBES_AT_MOST) return probe(session, places);
  const seasons = new Map<string, { app_id: string; season_id: string; starts: Located[] }>();
  const seasonText = (place: { app_id: string; season_id: string }) => JSON.stringify([place.app_id, place.season_id]);
  for (const { app_id, season_id } of places) seasons.set(seasonText({ app_id, season_id }), { app_id, season_id, starts: [] });
  const listed = [...seasons.values()];
  const rows = await session.query<{ s: number } & Located>(sql`
    SELECT s.i::integer AS s, b.negated_points, b.start_at, b.start_name, b.count
    FROM unnest(${listed.map((season) => season.app_id)}::text[], ${listed.map((season) => season.season_id)}::text[])
      WITH ORDINALITY AS s(app_id, season_id, i)
    JOIN season_blocks AS b ON b.app_id = s.app_id AND b.season_id = s.season_id
    ORDER BY s.i, b.negated_points, b.start_at, b.start_name`);
  for (const { s, ...start } of rows) listed[s - 1]!.starts.push(start);
  return places.map((place) => {
    const { starts } = seasons.get(seasonText(place))!;
    return lastAtOrBefore(starts, (start) => compareStarts(start, place) <= 0) ?? OPENS_FIRST_BLOCK;
  });
}

/**
 * The block holding each place of `alias` (its columns app_id, season_id, negated_points, at,
 * name), by a probe of the index: a lateral join `found` with the block's start and count (null
 * where no block starts at or before it).
 */
export function blockFound(alias: string): Query {
  const place = (column: string) => new Identifier(`${alias}.${column}`);
  return sql`LEFT JOIN LATERAL (
      SELECT block.negated_points, block.start_at, block.start_name, block.count FROM season_blocks AS block
      WHERE block.app_id = ${place('app_id')} AND block.season_id = ${place('season_id')}
        AND ${startOf('block')} <= (${place('negated_points')}, ${place('at')}, ${place('name')})
      ORDER BY block.negated_points DESC, block.start_at DESC, block.start_name DESC LIMIT 1
    ) AS found ON true`;
}

/** Each place's block by a probe of the index, all in one statement. */
async function probe(session: SqlSession, places: SeasonPlace[]): Promise<Located[]> {
  const of = <K extends keyof SeasonPlace>(key: K) => places.map((place) => place[key]);
  const rows = await session.query<Located | { negated_points: null }>(sql`
    SELECT found.negated_points, found.start_at, found.start_name, found.count
    FROM unnest(${of('app_id')}::text[], ${of('season_id')}::text[], ${of('negated_points')}::float8[],
      ${of('start_at')}::float8[], ${of('start_name')}::text[]) WITH ORDINALITY AS p(app_id, season_id, negated_points, at, name, i)
    ${blockFound('p')}
    ORDER BY p.i`);
  return rows.map((row) => (row.negated_points === null ? OPENS_FIRST_BLOCK : (row as Located)));
}

/**
 * Cuts a block grown past BLOCK_SPLIT into blocks of BLOCK_FILL members, reading its members
 * once; returns the blocks it was cut into (the first at the block's start).
 */
export async function cut(session: SqlSession, block: SeasonPlace): Promise<CountedBlock[]> {
  const { app_id, season_id } = block;
  const start = sql`(${block.negated_points}::float8, ${block.start_at}::float8, ${block.start_name}::text)`;
  const [next] = await session.query<{ negated_points: number; start_at: number; start_name: string }>(sql`
    SELECT negated_points, start_at, start_name FROM ${blocksOf('block', app_id, season_id)} AND ${startOf('block')} > ${start}
    ORDER BY negated_points, start_at, start_name LIMIT 1`);
  const until = next
    ? sql`AND ${MEMBER_PLACE} < (${next.negated_points}::float8, ${next.start_at}::float8, ${next.start_name}::text)`
    : sql``;
  const starts = await session.query<{ negated_points: number; at: number; name: string; i: number; total: number }>(sql`
    SELECT negated_points, at, name, i::integer AS i, total::integer AS total FROM (
      SELECT negated_points, at, account_name AS name,
        row_number() OVER (ORDER BY negated_points, at, account_name) - 1 AS i, count(*) OVER () AS total
      FROM season_points WHERE ${seasonRows(app_id, season_id)} AND ${MEMBER_PLACE} >= ${start} ${until}
    ) AS members WHERE i % ${BLOCK_FILL}::integer = 0 ORDER BY i`);
  const total = starts[0]?.total ?? 0;
  const blocks = starts.map((member, index) =>
    index === 0
      ? { ...block, count: Math.min(BLOCK_FILL, total) }
      : {
          app_id,
          season_id,
          negated_points: member.negated_points,
          start_at: member.at,
          start_name: member.name,
          count: Math.min(BLOCK_FILL, total - member.i),
        },
  );
  await session.query(sql`DELETE FROM season_blocks WHERE app_id = ${app_id}::text AND season_id = ${season_id}::text
    AND (negated_points, start_at, start_name) = ${start}`);
  await addToBlocks(session, blocks);
  return blocks;
}
