// A second level of counts over a season's blocks (season-blocks.ts), as board-sections.ts keeps
// over the main boards' blocks: each season is cut into sections of consecutive blocks, and
// season_sections holds each section's start and how many members and blocks it holds. A block
// belongs to the section with the last start at or before its own start (a block's, never a
// member's: a section may outlast the block it started at, and a member after that section's
// start may still belong to a block of the section before). The members above a place are then a
// sum over a season's sections (about 40 rows at a million members) and over the blocks of one
// section (at most SECTION_SPLIT), and a walk of one block: summed over every block of the
// season, a page around a member at a million members read 2,000 rows twice, and a deep page
// sorted all 2,560 blocks.
import { SECTION_FILL, SECTION_SPLIT } from './board-sections.js';
import { lastAtOrBefore } from './board-order.js';
import { addingTo, type CountedTable } from './counts.js';
import {
  SEASON_START,
  blockHolding,
  blocksOf,
  compareStarts,
  seasonStartKey,
  startOf,
  walkOfBlock,
  type SeasonAt,
  type SeasonPlace,
} from './season-blocks.js';
import { Identifier, sql, type Query, type SqlSession } from './sql.js';

/** A section of a season, as season_sections holds it. */
export type SeasonSection = SeasonPlace & { count: number; blocks: number };

export const SEASON_SECTION_COUNTS: CountedTable<SeasonSection> = {
  table: 'season_sections',
  key: seasonStartKey(),
  counters: [
    { name: 'count', of: (section) => section.count },
    { name: 'blocks', of: (section) => section.blocks },
  ],
};

const addToSections = addingTo(SEASON_SECTION_COUNTS);

/** A season's rows of season_sections under `alias`, as the start of a WHERE clause. */
const sectionsOf = (alias: string, app_id: string, season_id: string) => {
  const column = (name: string) => new Identifier(`${alias}.${name}`);
  return sql`season_sections AS ${new Identifier(alias)} WHERE ${column('app_id')} = ${app_id}::text
    AND ${column('season_id')} = ${season_id}::text`;
};

const descending = (alias: string) =>
  new Identifier(`${alias}.negated_points DESC, ${alias}.start_at DESC, ${alias}.start_name DESC`);
const ascending = (alias: string) => new Identifier(`${alias}.negated_points, ${alias}.start_at, ${alias}.start_name`);

/**
 * The members of the season before the start of block `block` (an alias a subquery may read), as
 * a scalar: the sections before the block's section, and the blocks of that section before it.
 */
function membersBeforeBlock(block: string, app_id: string, season_id: string): Query {
  const [section, earlier, inside] = ['section', 'earlier', 'inside'].map((name) => `${block}_${name}`) as [
    string,
    string,
    string,
  ];
  return sql`coalesce((SELECT coalesce((
      SELECT sum(${new Identifier(`${earlier}.count`)}) FROM ${sectionsOf(earlier, app_id, season_id)}
        AND ${startOf(earlier)} < ${startOf(section)}), 0) + coalesce((
      SELECT sum(${new Identifier(`${inside}.count`)}) FROM ${blocksOf(inside, app_id, season_id)}
        AND ${startOf(inside)} >= ${startOf(section)} AND ${startOf(inside)} < ${startOf(block)}), 0)
    FROM (
      SELECT * FROM ${sectionsOf(section, app_id, season_id)} AND ${startOf(section)} <= ${startOf(block)}
      ORDER BY ${descending(section)} LIMIT 1
    ) AS ${new Identifier(section)}), 0)`;
}

/**
 * The members of the season before `at`, as a scalar: those before the block holding it
 * (membersBeforeBlock), and a walk of that block up to it (walkOfBlock).
 */
export function seasonMembersBefore(app_id: string, season_id: string, at: SeasonAt): Query {
  return sql`coalesce((SELECT (${membersBeforeBlock('holding', app_id, season_id)}
      + ${walkOfBlock('holding', app_id, season_id, at)})::integer
    FROM ${blockHolding('holding', app_id, season_id, at)}), 0)`;
}

/**
 * The block holding the offset-th member of the season (the last whose members before it are at
 * most the offset, a bigint scalar), as a FROM item `holding` with its start and `skip`, the
 * members of it before the offset-th: a window sum over the season's sections finds the section,
 * and one over that section's blocks (up to the next section's start) the block.
 */
export function blockAtOffset(app_id: string, season_id: string, offset: Query): Query {
  const next = (column: string, past: string) =>
    sql`coalesce(lead(${new Identifier(`s.${column}`)}) OVER sections, ${new Identifier(past)})`;
  return sql`(
    SELECT block.negated_points, block.start_at, block.start_name, ${offset} - section.before - block.before AS skip
    FROM (
      SELECT * FROM (
        SELECT s.negated_points, s.start_at, s.start_name, sum(s.count) OVER sections - s.count AS before,
          ${next('negated_points', "'Infinity'::float8")} AS next_points, ${next('start_at', '0::float8')} AS next_at,
          ${next('start_name', "''::text")} AS next_name
        FROM ${sectionsOf('s', app_id, season_id)}
        WINDOW sections AS (ORDER BY ${ascending('s')})
      ) AS counted WHERE before <= ${offset}
      ORDER BY ${descending('counted')} LIMIT 1
    ) AS section
    CROSS JOIN LATERAL (
      SELECT * FROM (
        SELECT b.negated_points, b.start_at, b.start_name, sum(b.count) OVER (ORDER BY ${ascending('b')}) - b.count AS before
        FROM ${blocksOf('b', app_id, season_id)} AND ${startOf('b')} >= ${startOf('section')}
          AND ${startOf('b')} < (section.next_points, section.next_at, section.next_name)
      ) AS counted WHERE before <= ${offset} - section.before
      ORDER BY ${descending('counted')} LIMIT 1
    ) AS block
  ) AS holding`;
}

const seasonText = (season: { app_id: string; season_id: string }) => JSON.stringify([season.app_id, season.season_id]);

/** Every section of the seasons, each season's in board order, by season; one statement. */
export async function readSections(
  session: SqlSession,
  seasons: { app_id: string; season_id: string }[],
): Promise<Map<string, SeasonSection[]>> {
  const unique = [...new Map(seasons.map((season) => [seasonText(season), season])).values()];
  const rows = await session.query<{ i: number } & SeasonSection>(sql`
    SELECT g.i::integer AS i, s.negated_points, s.start_at, s.start_name, s.count, s.blocks
    FROM unnest(${unique.map((season) => season.app_id)}::text[], ${unique.map((season) => season.season_id)}::text[])
      WITH ORDINALITY AS g(app_id, season_id, i)
    JOIN season_sections AS s ON s.app_id = g.app_id AND s.season_id = g.season_id
    ORDER BY g.i, s.negated_points, s.start_at, s.start_name`);
  const sections = new Map(unique.map((season) => [seasonText(season), [] as SeasonSection[]]));
  for (const { i, ...section } of rows) {
    const { app_id, season_id } = unique[i - 1]!;
    sections.get(seasonText({ app_id, season_id }))!.push({ ...section, app_id, season_id });
  }
  return sections;
}

/**
 * What the blocks' changes do to their sections, as readSections found them: `count` adds a
 * block's members, and a block made (+1) or emptied (−1), to the section holding its start;
 * `send` writes what was added since the last send, and `cut` cuts the sections grown past
 * SECTION_SPLIT blocks. A write holds its app's row (transaction.ts): the sections hold what
 * was read plus these changes.
 */
export function sectionCounts(sections: Map<string, SeasonSection[]>) {
  const unsent = new Map<SeasonSection, SeasonSection>();
  const holding = (block: SeasonPlace): SeasonSection => {
    const starts = sections.get(seasonText(block)) ?? [];
    const found = lastAtOrBefore(starts, (start) => compareStarts(start, block) <= 0);
    if (found) return found;
    // No section yet (nor any block): the season's first opens at its start.
    const opened = { app_id: block.app_id, season_id: block.season_id, ...SEASON_START, count: 0, blocks: 0 };
    sections.set(seasonText(block), [opened, ...starts]);
    return opened;
  };
  return {
    /** Adds `members` and `blocks` (negative: removed) to the section holding the block starting at `block`. */
    count(block: SeasonPlace, members: number, blocks: number): void {
      const section = holding(block);
      section.count += members;
      section.blocks += blocks;
      const delta = unsent.get(section) ?? { ...section, count: 0, blocks: 0 };
      delta.count += members;
      delta.blocks += blocks;
      unsent.set(section, delta);
    },
    /** Whether a section has grown past SECTION_SPLIT blocks (to cut once the counts are sent). */
    get cutting() {
      return [...sections.values()].some((starts) => starts.some((section) => section.blocks > SECTION_SPLIT));
    },
    send(session: SqlSession): Promise<void> {
      const rows = [...unsent.values()];
      unsent.clear();
      return addToSections(session, rows);
    },
    async cut(session: SqlSession): Promise<void> {
      for (const starts of sections.values()) {
        for (const section of starts.filter(({ blocks }) => blocks > SECTION_SPLIT)) await cutSection(session, section);
      }
    },
  };
}

/** Cuts a section of more than SECTION_SPLIT blocks into sections of SECTION_FILL, reading its blocks once. */
async function cutSection(session: SqlSession, section: SeasonSection): Promise<void> {
  const { app_id, season_id } = section;
  const start = sql`(${section.negated_points}::float8, ${section.start_at}::float8, ${section.start_name}::text)`;
  const [next] = await session.query<SeasonPlace>(sql`
    SELECT negated_points, start_at, start_name FROM ${sectionsOf('later', app_id, season_id)} AND ${startOf('later')} > ${start}
    ORDER BY ${ascending('later')} LIMIT 1`);
  const until = next
    ? sql`AND ${startOf('b')} < (${next.negated_points}::float8, ${next.start_at}::float8, ${next.start_name}::text)`
    : sql``;
  const blocks = await session.query<SeasonPlace & { count: number }>(sql`
    SELECT b.negated_points, b.start_at, b.start_name, b.count FROM ${blocksOf('b', app_id, season_id)}
      AND ${startOf('b')} >= ${start} ${until}
    ORDER BY ${ascending('b')}`);
  const cuts: SeasonSection[] = [];
  for (let first = 0; first < blocks.length; first += SECTION_FILL) {
    const members = blocks.slice(first, first + SECTION_FILL);
    // The first keeps the section's start: blocks may yet open between it and its first block.
    const { negated_points, start_at, start_name } = first === 0 ? section : members[0]!;
    cuts.push({
      app_id,
      season_id,
      negated_points,
      start_at,
      start_name,
      count: members.reduce((sum, block) => sum + block.count, 0),
      blocks: members.length,
    });
  }
  await session.query(sql`DELETE FROM season_sections WHERE app_id = ${app_id}::text AND season_id = ${season_id}::text
    AND (negated_points, start_at, start_name) = ${start}`);
  await addToSections(session, cuts);
}
