// Season board reads in SQL, over the season's blocks (season-blocks.ts). Like the main boards'
// (boards.ts), a page is one statement, and it brings with it what the rules ask next: in a
// read, each member's users row (their counts and XP, which the page lists), and past the first
// page, the members above its first member's points (its rank). A page around a member finds
// their position and the page in the same statement. So a season's first page, read ahead with
// the request's key (handler/read-ahead.ts), costs no round trip of its own, and a page around
// a member one.
import { LEADERBOARD_PAGE_MOST } from '../../api/schemas.js';
import type { PageWindow } from '../port.js';
import type { SeasonPointsRecord, UserRecord } from '../records.js';
import { takingReadsAhead } from './boards.js';
import { seasonPlace, seasonRows, seasonValueStart, type SeasonAt } from './season-blocks.js';
import { blockAtOffset, seasonMembersBefore } from './season-sections.js';
import { sql, type Query, type SqlSession, type TransactionMode } from './sql.js';

/** A page's row: the member's season record, their users record (a read's), the members above the page's first. */
interface PageRow {
  record: string;
  user_record?: string | null;
  higher?: number;
  first?: number;
}

export function seasonQueries(
  session: SqlSession,
  mode: TransactionMode,
  /** Takes the users records a read's page brought (null: the member has none), keyed by name. */
  usersRead: (app_id: string, users: Map<string, UserRecord | null>) => void,
) {
  /**
   * Members above a season's points that a page found with it, by season and points: the rank of
   * a page's first member then costs no statement of its own. Season rows change only when a
   * write flushes, after its rules are done, or in deletes that forget every read (forget()).
   */
  const higherCounts = new Map<string, number>();
  const higherKey = (app_id: string, season_id: string, points: number) => JSON.stringify([app_id, season_id, points]);
  const readsAhead = takingReadsAhead();

  const order = sql`ORDER BY negated_points, at, account_name`;
  /** Where the points of the page's first member (`top`) start on the board: before every member with them. */
  const topValueStart: SeasonAt = { negatedPoints: sql`top.negated_points` };
  /**
   * The members a walk of season_points_by_order found (their place), each with their record read
   * by its key. The walk reads the index alone, which holds every column of the order (an
   * index-only scan), and only the page's own rows are read. Each read a subquery of its own
   * (LIMIT 1): joined, a generic plan hashed the whole season.
   */
  const withRecords = (app_id: string, season_id: string, walk: Query) => sql`
    SELECT walked.negated_points, walked.at, walked.account_name, member.record FROM (${walk}) AS walked
    CROSS JOIN LATERAL (
      SELECT record FROM season_points AS member
      WHERE member.app_id = ${app_id}::text AND member.season_id = ${season_id}::text AND member.account_name = walked.account_name
      LIMIT 1
    ) AS member`;

  /**
   * One statement for a page, its members as `rows` gives them (their place and record; `rows`
   * may read the CTE that `placed` defines, and `placed` says the page's offset, `first`), with
   * their users rows (in a read) and, where `higher` counts them (a scalar that may read `top`,
   * the page's first member's negated points), the members above its first member's points.
   */
  async function readPage(
    app_id: string,
    season_id: string,
    limit: number,
    rows: Query,
    { placed, higher: counted }: { placed?: Query; higher?: Query },
  ) {
    // A write's pages (a season's rewards) read no users: what it reads it locks, key by key. Nor
    // does a page longer than a leaderboard's: a season's every member (an export), which reads
    // its users on its own.
    const withUsers = mode === 'read' && limit <= LEADERBOARD_PAGE_MOST;
    const user = withUsers
      ? sql`, (SELECT record FROM users WHERE app_id = ${app_id}::text AND account_name = page.account_name LIMIT 1) AS user_record`
      : sql``;
    const higher = counted
      ? sql`, (SELECT ${counted} FROM (SELECT negated_points FROM page ${order} LIMIT 1) AS top) AS higher`
      : sql``;
    const found = await session.query<PageRow>(sql`
      WITH ${placed ? sql`${placed}, ` : sql``}page AS MATERIALIZED (${rows})
      SELECT page.record ${user} ${higher} ${placed ? sql`, (SELECT first FROM placed)::integer AS first` : sql``}
      FROM page ORDER BY page.negated_points, page.at, page.account_name`);
    const members = found.map((row) => JSON.parse(row.record) as SeasonPointsRecord);
    const [top] = found;
    if (top?.higher !== undefined) higherCounts.set(higherKey(app_id, season_id, members[0]!.points), top.higher);
    if (withUsers) {
      const users = new Map<string, UserRecord | null>();
      for (const [index, row] of found.entries()) {
        users.set(members[index]!.account_name, row.user_record ? (JSON.parse(row.user_record) as UserRecord) : null);
      }
      usersRead(app_id, users);
    }
    return { first: top?.first, members };
  }

  return {
    forget: () => {
      higherCounts.clear();
      readsAhead.clear();
    },

    async countSeasonHigher(app_id: string, season_id: string, points: number, distinct: boolean): Promise<number> {
      const found = distinct ? undefined : higherCounts.get(higherKey(app_id, season_id, points));
      if (found !== undefined) return found;
      const [row] = await session.query<{ count: number }>(
        distinct
          ? sql`SELECT count(DISTINCT negated_points)::integer AS count FROM season_points
            WHERE app_id = ${app_id}::text AND season_id = ${season_id}::text AND negated_points < ${0 - points}::float8`
          : sql`SELECT ${seasonMembersBefore(app_id, season_id, seasonValueStart(points))} AS count`,
      );
      return row!.count;
    },

    /**
     * A page of the season's board (taken from a read ahead where one asked the same). The first
     * page reads its rows as it walks the index, without a probe per row, and counts nothing: its
     * first member is first. A page further down starts at the block holding its first member
     * (season-blocks.ts) and skips the members of it before that one.
     */
    seasonPage: (app_id: string, season_id: string, offset: number, limit: number) =>
      readsAhead.takenOrRead(['season page', app_id, season_id, offset, limit], async () => {
        if (limit === 0) return [];
        const rows =
          offset === 0
            ? sql`SELECT negated_points, at, account_name, record FROM season_points
                WHERE ${seasonRows(app_id, season_id)} ${order} LIMIT ${limit}::bigint`
            : withRecords(
                app_id,
                season_id,
                sql`SELECT page.negated_points, page.at, page.account_name FROM ${blockAtOffset(app_id, season_id, sql`${offset}::bigint`)}
                CROSS JOIN LATERAL (
                  SELECT negated_points, at, account_name FROM season_points WHERE ${seasonRows(app_id, season_id)}
                    AND (negated_points, at, account_name) >= (holding.negated_points, holding.start_at, holding.start_name)
                  ${order} OFFSET holding.skip LIMIT ${limit}::bigint
                ) AS page`,
              );
        const counted = offset > 0 ? { higher: seasonMembersBefore(app_id, season_id, topValueStart) } : {};
        return (await readPage(app_id, season_id, limit, rows, counted)).members;
      }),

    /**
     * One statement: the member's position (the members before their block, and a walk of it),
     * the page's offset from it (windowStart), and the page read outward from the member along
     * the index: the nearest members before them, and the member and those after.
     */
    async seasonPageAround(member: SeasonPointsRecord, { lead, limit, lastStart }: PageWindow) {
      const { app_id, season_id } = member;
      const place = seasonPlace(member);
      const placed = sql`placed AS MATERIALIZED (
        SELECT n, greatest(0, least(n - ${lead}::integer, ${lastStart}::integer))::integer AS first
        FROM (
          SELECT ${seasonMembersBefore(app_id, season_id, place)} AS n
          -- Kept a subquery of its own: flattened, the position was counted once for each use of n.
          OFFSET 0
        ) AS position)`;
      const higher = seasonMembersBefore(app_id, season_id, topValueStart);
      /** The page's members before the member, and from the member on. */
      const before = sql`(SELECT greatest(0, n - first) FROM placed)`;
      const after = sql`(SELECT greatest(0, ${limit}::integer - (n - first)) FROM placed)`;
      const walk = (from: Query, direction: Query, count: Query) => sql`(
        SELECT negated_points, at, account_name FROM season_points
        WHERE ${seasonRows(app_id, season_id)} AND (negated_points, at, account_name) ${from} ${place.row}
        ORDER BY negated_points ${direction}, at ${direction}, account_name ${direction} LIMIT ${count})`;
      const rows = withRecords(
        app_id,
        season_id,
        sql`${walk(sql`<`, sql`DESC`, before)} UNION ALL ${walk(sql`>=`, sql`ASC`, after)}`,
      );
      const { first, members } = await readPage(app_id, season_id, limit, rows, { placed, higher });
      return { offset: first ?? 0, members };
    },
  };
}
