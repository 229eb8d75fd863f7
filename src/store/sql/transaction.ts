// A transaction of the SQL store. Like the IndexedDB one it caches what it
// reads and writes each changed record once when the work is done, in one
// statement per kind; and it moves the members it wrote on the boards' blocks.
//
// Concurrency: several requests, from one server process or many, write at
// once. In a write every record read is locked (FOR UPDATE) until commit, so
// no two requests read-modify-write the same row (a treasury cannot be spent
// twice); and every request first reads its API key, so the writes of one app
// queue there and cannot deadlock each other. A record read as absent is
// inserted, never upserted: a concurrent request that inserted it first makes
// this one fail with a unique violation, and the store runs it again.
import {
  keyText,
  keyTextOf,
  type BoardRef,
  type MemberHistory,
  type MemberMeasure,
  type PageWindow,
  type RecordKeys,
  type RecordKind,
  type Records,
  type SubmissionFilter,
} from '../port.js';
import { seasonShown } from '../placements.js';
import type { SeasonListed, Transaction } from '../port.js';
import type {
  ApiKeyRecord,
  AppRecord,
  AuditRecord,
  ChallengeRecord,
  LogRecord,
  SeasonPointsRecord,
  SubmissionRecord,
  TransferRecord,
  UserRecord,
} from '../records.js';
import type { Changed } from '../../api/broadcast.js';
import type { WebhookEvent } from '../../api/webhook-events.js';
import { boardMovesOf, moveOnBoards } from './board-blocks.js';
import { moveInStatements, movesInStatements } from './board-moves.js';
import { boardQueries } from './boards.js';
import { notifying } from './change-notices.js';
import { seasonQueries } from './season-boards.js';
import {
  moveOnSeasons,
  moveSeasonsInStatements,
  seasonMovesInStatements,
  seasonMovesOf,
  type SeasonWritten,
} from './season-moves.js';
import { Identifier, sql, type SqlSession, type TransactionMode } from './sql.js';
import { TABLES, type Table } from './tables.js';
import { insertOutboxRows, listDeliveries, outboxRows, redeliver } from './webhook-outbox.js';

/**
 * Members whose records go ahead together (writeAhead): a few hundred, so that each write is
 * large and the database inserts them beside the rules.
 */
const WRITE_AHEAD_MEMBERS = 500;
const name = (text: string) => new Identifier(text);
const parse = <T>(row: { record: string }) => JSON.parse(row.record) as T;
/**
 * Records sent as one text parameter: their JSON texts joined by the record separator (U+001E),
 * which no JSON text holds (JSON.stringify escapes every control character), and split again by
 * the database, in the order sent. As a text[], postgres.js escaped each element in JavaScript;
 * as a JSON array, every quote of the records' JSON was escaped again, and parsed back by the
 * database (docs/performance.md: "Records joined by a separator").
 */
const RECORD_SEPARATOR = '\u001e';
const recordTexts = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join(RECORD_SEPARATOR);
/** The records' texts of the parameter `param` (recordTexts), as a text[] in the order sent. */
const recordsOf = (param: string) => `string_to_array(${param}::text, chr(${RECORD_SEPARATOR.charCodeAt(0)}))`;

/** A record waiting to be written: inserted where it was read as absent, otherwise upserted. */
interface Pending {
  kind: RecordKind;
  value: unknown;
  insert: boolean;
}

export class SqlTransaction implements Transaction {
  private readonly cache = new Map<string, unknown>();
  /** What waits to be written, by cache key: whether it was read as absent (insert) or not (upsert). */
  private readonly dirty = new Map<string, Pending>();
  /** Each member's board fields as first read (null: absent), to move them on the boards. */
  private readonly usersAtRead = new Map<string, UserRecord | null>();
  /** Each member's points in a season as first read (null: absent), to move them on the season's blocks. */
  private readonly seasonPointsAtRead = new Map<string, SeasonPointsRecord | null>();
  private readonly absent = new Set<string>();
  /** Records sent ahead of the flush (writeAhead), by cache key, and their statements. */
  private readonly writtenAhead = new Set<string>();
  private readonly aheadSent: Promise<void>[] = [];
  /** The members done (writeAhead) whose records wait to go ahead, all of one app. */
  private membersDone: { app_id: string; names: Set<string> } | undefined;
  /** Reads on their way, by cache key. */
  private readonly reading = new Map<string, Promise<void>>();
  private pendingLogs: LogRecord[] = [];
  /** The webhook deliveries the flush inserts (recordEvent). */
  private readonly deliveries: ReturnType<typeof outboxRows> = [];
  /**
   * Meta entries as read or written here, by key (their JSON text; undefined: absent), each read
   * once: a key's lookup asks for the admin keys, and so do a write's read-ahead and an import.
   */
  private readonly meta = new Map<string, Promise<string | undefined>>();
  private readonly boards;
  private readonly seasons;
  /** Whether the write recorded or redelivered webhook deliveries, for the store to wake their delivery once it commits. */
  recordedDeliveries = false;
  /** Rows of records and logs written so far (open-store.ts keeps statistics by them). */
  rowsWritten = 0;
  /** The change notices the flush sends, where the store announces them (SqlStoreOptions.announceChanges). */
  private readonly notices: Changed[] = [];
  readonly announce?: (changed: Changed | Changed[] | undefined) => void;
  private readonly readsBoardsFirst: boolean;

  constructor(
    /** The transaction's SQL session: statements of other modules (rate-counters.ts) run in it too. */
    readonly session: SqlSession,
    private readonly mode: TransactionMode,
    {
      announces = false,
      readsBoardsFirst = false,
    }: {
      /** Whether the write has announce (SqlStoreOptions.announceChanges). */
      announces?: boolean;
      /** Whether its moves on the boards and the seasons read where they fall first, however few (a write run again to cut: SPLIT_DUE). */
      readsBoardsFirst?: boolean;
    } = {},
  ) {
    this.boards = boardQueries(session);
    // A season page's users rows, as a read of them would have found them (not over one read already).
    this.seasons = seasonQueries(session, mode, (app_id, users) => {
      for (const [account_name, user] of users) {
        const cacheKey = keyText('users', [app_id, account_name]);
        if (!this.cache.has(cacheKey) && !this.reading.has(cacheKey)) this.remember('users', cacheKey, user ?? undefined);
      }
    });
    if (announces) this.announce = (changed = []) => this.notices.push(...[changed].flat());
    this.readsBoardsFirst = readsBoardsFirst;
  }

  async get<K extends RecordKind>(kind: K, key: RecordKeys[K]): Promise<Records[K] | undefined> {
    const cacheKey = keyText(kind, key);
    if (!this.cache.has(cacheKey)) await (this.reading.get(cacheKey) ?? this.getMany(kind, [key]));
    return this.cache.get(cacheKey) as Records[K] | undefined;
  }

  /**
   * One statement for all the keys not read yet; in key order, so concurrent writes lock rows in one order.
   * Keys already on their way are waited for, not read again: a request may start a read early (a
   * server's read asks for its app and member beside its key: server/read-ahead.ts) and then ask
   * for the same record.
   */
  async getMany<K extends RecordKind>(kind: K, keys: RecordKeys[K][]): Promise<void> {
    const table = TABLES[kind] as Table<unknown>;
    const wanted = new Map<string, unknown[]>();
    const underway = new Set<Promise<void>>();
    for (const key of keys) {
      const cacheKey = keyText(kind, key);
      const read = this.reading.get(cacheKey);
      if (read) underway.add(read);
      else if (!this.cache.has(cacheKey)) wanted.set(cacheKey, Array.isArray(key) ? key : [key]);
    }
    if (wanted.size > 0) {
      const read = this.read(kind, table, wanted);
      for (const cacheKey of wanted.keys()) this.reading.set(cacheKey, read);
      underway.add(read);
    }
    await Promise.all(underway);
  }

  private async read<K extends RecordKind>(kind: K, table: Table<unknown>, wanted: Map<string, unknown[]>): Promise<void> {
    const parts = [...wanted.values()];
    const columns = table.key.map((column) => column.name).join(', ');
    const arrays = table.key.map((column, index) => `$${index + 1}::${column.type}[]`).join(', ');
    const lock = this.mode === 'write' ? ' FOR UPDATE' : '';
    const [rows] = await Promise.all([
      this.session.query<{ record: string }>({
        text: `SELECT record FROM ${kind} WHERE (${columns}) IN (SELECT * FROM unnest(${arrays})) ORDER BY ${columns}${lock}`,
        values: table.key.map((_, index) => parts.map((part) => part[index])),
      }),
      kind === 'api_keys' && this.mode === 'write' ? this.lockAppsOf(parts.map(([key]) => key as string)) : undefined,
    ]);
    const found = new Map<string, Records[K]>();
    for (const row of rows) {
      const value = parse<Records[K]>(row);
      found.set(keyTextOf(kind, value), value);
    }
    for (const cacheKey of wanted.keys()) {
      this.remember(kind, cacheKey, found.get(cacheKey));
      this.reading.delete(cacheKey);
    }
  }

  /** Caches a record as read (undefined: absent). */
  private remember<K extends RecordKind>(kind: K, cacheKey: string, value: Records[K] | undefined): void {
    this.cache.set(cacheKey, value);
    if (value === undefined) this.absent.add(cacheKey);
    // A copy: the rules change the record they read in place before putting it back.
    if (kind === 'users') this.usersAtRead.set(cacheKey, value === undefined ? null : { ...(value as UserRecord) });
    if (kind === 'season_points') {
      this.seasonPointsAtRead.set(cacheKey, value === undefined ? null : { ...(value as SeasonPointsRecord) });
    }
  }

  /**
   * The apps of API keys, read and locked in the same round trip as the keys, in a write: a
   * server's write reads its key, then always the key's app (its write limits, request-guards.ts),
   * so both are locked in the order they always were. A read does not: some never need the app.
   */
  private async lockAppsOf(keys: string[]): Promise<void> {
    const rows = await this.session.query<{ record: string }>(sql`
      SELECT record FROM apps WHERE app_id IN (SELECT app_id FROM api_keys WHERE key_sha256 = ANY(${keys}::text[]))
      ORDER BY app_id FOR UPDATE`);
    for (const row of rows) {
      const app = parse<Records['apps']>(row);
      const cacheKey = keyTextOf('apps', app);
      if (!this.cache.has(cacheKey)) this.cache.set(cacheKey, app);
    }
  }

  knownAbsent<K extends RecordKind>(kind: K, keys: RecordKeys[K][]): void {
    for (const key of keys) {
      const cacheKey = keyText(kind, key);
      if (this.cache.has(cacheKey) || this.reading.has(cacheKey)) continue;
      this.cache.set(cacheKey, undefined);
      this.absent.add(cacheKey);
    }
  }

  put<K extends RecordKind>(kind: K, value: Records[K]): void {
    const cacheKey = keyTextOf(kind, value);
    this.cache.set(cacheKey, value);
    this.dirty.set(cacheKey, { kind, value, insert: this.absent.has(cacheKey) });
    // A member put without a read is new: on no board yet.
    if (kind === 'users' && !this.usersAtRead.has(cacheKey)) this.usersAtRead.set(cacheKey, null);
    if (kind === 'season_points' && !this.seasonPointsAtRead.has(cacheKey)) this.seasonPointsAtRead.set(cacheKey, null);
  }

  /**
   * Notes the member done; once WRITE_AHEAD_MEMBERS of one app are, sends their records put so
   * far (every kind keyed by member: users, progress, member challenges) and the logs appended so
   * far, as the flush would, without waiting for them: the database inserts them while the work
   * goes on. One put later writes its record again, as an update. Their moves on the boards wait
   * for the flush, which compares each member written with how it was first read, and answers for
   * these statements too.
   */
  writeAhead(app_id: string, account_name: string): void {
    if (this.membersDone?.app_id !== app_id) this.membersDone = { app_id, names: new Set() };
    const { names } = this.membersDone;
    names.add(account_name);
    if (names.size < WRITE_AHEAD_MEMBERS) return;
    this.membersDone = undefined;
    const ready: Pending[] = [];
    for (const [cacheKey, entry] of this.dirty) {
      const record = entry.value as { app_id?: unknown; account_name?: unknown };
      if (record.app_id !== app_id || !names.has(record.account_name as string)) continue;
      ready.push(entry);
      this.dirty.delete(cacheKey);
      this.absent.delete(cacheKey);
      this.writtenAhead.add(cacheKey);
    }
    this.rowsWritten += ready.length;
    for (const sent of [...this.writeAll(ready), this.writeLogs()]) {
      // Awaited by the flush; a failure before it ends the work all the same (the write is rolled back).
      sent.catch(() => undefined);
      this.aheadSent.push(sent);
    }
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    let text = this.meta.get(key);
    if (text === undefined) {
      text = this.session
        .query<{ value: string }>(sql`SELECT value FROM meta WHERE key = ${key}::text`)
        .then(([row]) => row?.value);
      this.meta.set(key, text);
    }
    const value = await text;
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  async putMeta(key: string, value: unknown): Promise<void> {
    const text = JSON.stringify(value);
    this.meta.set(key, Promise.resolve(text));
    await this.session.query(sql`
      INSERT INTO meta (key, value) VALUES (${key}::text, ${text}::text)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  }

  async append(log: LogRecord): Promise<void> {
    // Written in one statement with the rest: an import appends thousands.
    this.pendingLogs.push(log);
  }

  /**
   * The app's endpoints are read from the app as this transaction has it: the rules read it
   * (findApp) before anything happens in it.
   */
  recordEvent(event: WebhookEvent): void {
    const cacheKey = keyText('apps', event.app_id);
    if (!this.cache.has(cacheKey)) throw new Error(`recordEvent: app ${event.app_id} was not read in this transaction`);
    const app = this.cache.get(cacheKey) as AppRecord | undefined;
    if (app) this.deliveries.push(...outboxRows(event, app));
    this.recordedDeliveries ||= this.deliveries.length > 0;
  }

  webhookDeliveries(app_id: string, offset: number, limit: number) {
    return listDeliveries(this.session, app_id, offset, limit);
  }

  async redeliverWebhook(app_id: string, delivery_id: string, now: number) {
    const found = await redeliver(this.session, app_id, delivery_id, now);
    this.recordedDeliveries ||= found;
    return found;
  }

  async hasApps(): Promise<boolean> {
    return (await this.session.query(sql`SELECT 1 FROM apps LIMIT 1`)).length > 0;
  }

  async appIds(limit: number): Promise<string[]> {
    const rows = await this.session.query<{ app_id: string }>(
      sql`SELECT app_id FROM apps ORDER BY app_id LIMIT ${limit}::integer`,
    );
    return rows.map((row) => row.app_id);
  }

  async keysOf(app_id: string): Promise<ApiKeyRecord[]> {
    const rows = await this.session.query<{ record: string }>(
      sql`SELECT record FROM api_keys WHERE app_id = ${app_id}::text ORDER BY key_sha256`,
    );
    return rows.map((row) => parse<ApiKeyRecord>(row));
  }

  async challengesOf(app_id: string): Promise<ChallengeRecord[]> {
    const rows = await this.session.query<{ record: string }>(
      sql`SELECT record FROM challenges WHERE app_id = ${app_id}::text ORDER BY challenge_id`,
    );
    return rows.map((row) => parse<ChallengeRecord>(row));
  }

  async membersNamed(app_id: string, prefix: string, offset: number, limit: number): Promise<UserRecord[]> {
    // Names are COLLATE "C" (UTF-8 bytes): U+10FFFF's bytes sort after any character's.
    const rows = await this.session.query<{ record: string }>(sql`
      SELECT record FROM users WHERE app_id = ${app_id}::text
        AND account_name >= ${prefix}::text AND account_name < ${`${prefix}\u{10FFFF}`}::text
      ORDER BY account_name OFFSET ${offset}::integer LIMIT ${limit}::integer`);
    return rows.map((row) => parse<UserRecord>(row));
  }

  async appendAudit(entry: AuditRecord): Promise<void> {
    await this.session.query(sql`
      INSERT INTO audit (app_id, at, id, record)
      VALUES (${entry.app_id}::text, ${entry.at}::float8, ${entry.id}::text, ${JSON.stringify(entry)}::text)`);
  }

  async auditPage(app_id: string, before: number, limit: number): Promise<AuditRecord[]> {
    const rows = await this.session.query<{ record: string }>(sql`
      SELECT record FROM audit WHERE app_id = ${app_id}::text AND at < ${before}::float8
      ORDER BY at DESC, id DESC LIMIT ${limit}::integer`);
    return rows.map((row) => parse<AuditRecord>(row));
  }

  async appendTransfer(transfer: TransferRecord): Promise<void> {
    await this.session.query(sql`
      INSERT INTO transfers (app_id, at, tx_id, record)
      VALUES (${transfer.app_id}::text, ${transfer.at}::float8, ${transfer.tx_id}::text, ${JSON.stringify(transfer)}::text)`);
  }

  async transfersPage(app_id: string, offset: number, limit: number): Promise<TransferRecord[]> {
    const rows = await this.session.query<{ record: string }>(sql`
      SELECT record FROM transfers WHERE app_id = ${app_id}::text
      ORDER BY at DESC, tx_id DESC OFFSET ${offset}::integer LIMIT ${limit}::integer`);
    return rows.map((row) => parse<TransferRecord>(row));
  }

  async forgetIdempotency(createdAtMost: number, limit: number): Promise<void> {
    await this.session.query(sql`
      DELETE FROM idempotency WHERE (api_key, idempotency_key) IN (
        SELECT api_key, idempotency_key FROM idempotency WHERE created_at <= ${createdAtMost}::float8
        ORDER BY created_at LIMIT ${limit}::integer)`);
  }

  countOnBoard = (board: BoardRef) => this.boards.countOnBoard(board);
  countHigher = (board: BoardRef, value: number) => this.boards.countHigher(board, value);
  countDistinctHigher = (board: BoardRef, value: number) => this.boards.countDistinctHigher(board, value);
  pageAround = (board: BoardRef, user: UserRecord, window: PageWindow) => this.boards.pageAround(board, user, window);
  boardPage = (board: BoardRef, offset: number, limit: number) => this.boards.boardPage(board, offset, limit);
  countUnrankedBefore = (board: BoardRef, name: string) => this.boards.countUnrankedBefore(board, name);
  unrankedPage = (board: BoardRef, skip: number, limit: number) => this.boards.unrankedPage(board, skip, limit);

  countSeasonHigher = (app_id: string, season_id: string, points: number, distinct: boolean) =>
    this.seasons.countSeasonHigher(app_id, season_id, points, distinct);
  async seasonPageAround(member: SeasonPointsRecord, window: PageWindow) {
    const { offset, members } = await this.seasons.seasonPageAround(member, window);
    return { offset, members: await this.listed(members) };
  }
  seasonPage = (app_id: string, season_id: string, offset: number, limit: number) =>
    this.seasons.seasonPage(app_id, season_id, offset, limit);
  async seasonBoardPage(app_id: string, season_id: string, offset: number, limit: number) {
    return this.listed(await this.seasonPage(app_id, season_id, offset, limit));
  }

  /**
   * What the board shows of each member, from their records: in a read, the page's statement has
   * brought them already (season-boards.ts); elsewhere they are read here, all in one statement.
   */
  private async listed(members: SeasonPointsRecord[]): Promise<SeasonListed[]> {
    await this.getMany(
      'users',
      members.map(({ app_id, account_name }) => [app_id, account_name]),
    );
    return Promise.all(
      members.map(async (member) => ({
        member,
        shown: seasonShown(await this.get('users', [member.app_id, member.account_name])),
      })),
    );
  }

  async readAppData(app_id: string) {
    await this.writeLogs();
    const all = async <K extends RecordKind>(kind: K, order: string) =>
      (
        await this.session.query<{ record: string }>({
          text: `SELECT record FROM ${kind} WHERE app_id = $1 ORDER BY ${order}`,
          values: [app_id],
        })
      ).map((row) => parse<Records[K]>(row));
    const [api_keys, users, challenges, tasks, endorsements, badge_awards, logs] = await Promise.all([
      all('api_keys', 'key_sha256'),
      all('users', 'account_name'),
      all('challenges', 'challenge_id'),
      all('tasks', 'task_id'),
      all('endorsements', 'from_account, to_account, endorsement_id'),
      all('badge_awards', 'account_name, badge_id'),
      this.session.query<{ record: string }>(sql`SELECT record FROM logs WHERE app_id = ${app_id}::text ORDER BY seq`),
    ]);
    const logRecords = logs.map((row) => parse<LogRecord>(row));
    return { api_keys, users, challenges, tasks, endorsements, badge_awards, logs: logRecords };
  }

  async deleteAppData(app_id: string): Promise<void> {
    await this.writeLogs();
    const tables = [
      'apps',
      'api_keys',
      'users',
      'challenges',
      'tasks',
      'progress',
      'member_challenges',
      'submissions',
      'attempts',
    ];
    const owned = [
      'endorsements',
      'badge_awards',
      'season_points',
      'season_blocks',
      'season_sections',
      'logs',
      'board_blocks',
      'board_sections',
      'name_periods',
    ];
    for (const table of [...tables, ...owned]) {
      await this.session.query(sql`DELETE FROM ${name(table)} WHERE app_id = ${app_id}::text`);
    }
    this.forgetReads();
  }

  async deleteTask(task_id: string): Promise<string[]> {
    await this.session.query(sql`DELETE FROM tasks WHERE task_id = ${task_id}::text`);
    const rows = await this.session.query<{ account_name: string }>(sql`
      WITH deleted AS (DELETE FROM progress WHERE task_id = ${task_id}::text RETURNING account_name)
      SELECT account_name FROM deleted ORDER BY account_name`);
    this.forgetReads();
    return rows.map((row) => row.account_name);
  }

  async listSubmissions(app_id: string, filter: SubmissionFilter, offset: number, limit: number) {
    const status = 'status' in filter ? filter.status : null;
    const member = 'account_name' in filter ? filter.account_name : null;
    const rows = await this.session.query<{ record: string }>(sql`
      SELECT record FROM submissions
      WHERE app_id = ${app_id}::text AND (${status}::text IS NULL OR status = ${status}::text)
        AND (${member}::text IS NULL OR account_name = ${member}::text)
      ORDER BY created_at, submission_id OFFSET ${offset}::bigint LIMIT ${limit}::integer`);
    return rows.map((row) => parse<SubmissionRecord>(row));
  }

  async challengeMembers(challenge_id: string): Promise<string[]> {
    const rows = await this.session.query<{ account_name: string }>(sql`
      SELECT account_name FROM member_challenges WHERE challenge_id = ${challenge_id}::text ORDER BY account_name`);
    return rows.map((row) => row.account_name);
  }

  async challengeCompleters(challenge_id: string): Promise<string[]> {
    // Whether it completed is in the record alone; only the challenge's own rows are read.
    const rows = await this.session.query<{ record: string }>(sql`
      SELECT record FROM member_challenges WHERE challenge_id = ${challenge_id}::text ORDER BY account_name`);
    return rows
      .map((row) => parse<Records['member_challenges']>(row))
      .filter((record) => record.completed)
      .map((record) => record.account_name);
  }

  async membersReaching(app_id: string, measure: MemberMeasure, at_least: number): Promise<string[]> {
    // One statement over the column, whatever the members: never a read per member.
    const rows = await this.session.query<{ account_name: string }>({
      text: `SELECT account_name FROM users WHERE app_id = $1 AND ${measure} >= $2 ORDER BY account_name`,
      values: [app_id, at_least],
    });
    return rows.map((row) => row.account_name);
  }

  async takeMemberHistory(app_id: string, names: Set<string>): Promise<MemberHistory> {
    await this.writeLogs();
    const members = [...names];
    const logs = await this.session.query<{ record: string }>(sql`
      WITH deleted AS (
        DELETE FROM logs WHERE app_id = ${app_id}::text AND account_name = ANY(${members}::text[]) RETURNING seq, record)
      SELECT record FROM deleted ORDER BY seq`);
    await this.session.query(sql`DELETE FROM progress WHERE app_id = ${app_id}::text AND account_name = ANY(${members}::text[])`);
    await this.session.query(
      sql`DELETE FROM member_challenges WHERE app_id = ${app_id}::text AND account_name = ANY(${members}::text[])`,
    );
    const endorsements = await this.session.query<{ record: string }>(sql`
      SELECT record FROM endorsements WHERE app_id = ${app_id}::text AND to_account = ANY(${members}::text[])
      ORDER BY from_account, to_account, endorsement_id`);
    this.forgetReads();
    return { logs: logs.map((row) => parse(row)), endorsements: endorsements.map((row) => parse(row)) };
  }

  /** The records of `atRead` this transaction wrote: each as first read (null: absent) and as written. */
  private writtenSince<T>(atRead: Map<string, T | null>): { before: T | null; after: T }[] {
    return [...atRead]
      .filter(([cacheKey]) => this.dirty.has(cacheKey) || this.writtenAhead.has(cacheKey))
      .map(([cacheKey, before]) => ({ before, after: this.cache.get(cacheKey) as T }));
  }

  /**
   * Writes what waits: the records, each kind in one statement, the logs, the change notices
   * announced and the board counts.
   * The statements go out together (postgres.js pipelines them on the transaction's connection),
   * so a write holds its app's rows a few round trips less. They touch different tables, and the
   * database runs them in the order sent: the first to fail is the first to answer. The last of
   * them take the transaction's COMMIT with them (SqlSession.commit): flush is a write's end.
   */
  async flush(): Promise<void> {
    const written = this.writtenSince(this.usersAtRead);
    const seasonsWritten: SeasonWritten[] = this.writtenSince(this.seasonPointsAtRead);
    // The boards' statements are sent before the records: a request's few moves as statements
    // that read nothing first (board-moves.ts), so that all goes out at once; many (an import's)
    // as the boards' reads, small, which sent behind the records went out in a write of their
    // own (postgres.js writes what it holds once it passes 1 KB), a system call more. The change
    // notices and the COMMIT go last, together: asked for before the records are sent (moves as
    // statements, or none), they wait for them. (Sent with the records, the notices went out in
    // a write of their own when the records passed 1 KB.)
    let recordsSent = false;
    let endAsked = false;
    let notified: Promise<unknown> | undefined;
    const end = () => {
      if (this.notices.length === 0) return this.session.commit?.();
      notified = this.session.query(notifying(this.notices));
      // Awaited below, unless a statement before it fails first: then its failure is that one's.
      notified.catch(() => undefined);
      this.session.commit?.();
    };
    const boardMoves = boardMovesOf(written);
    const seasonMoves = seasonMovesOf(seasonsWritten);
    // The boards' and the seasons' moves each tell when their last statement is sent.
    let movesUnsent = 2;
    const sentAll = () => {
      if (--movesUnsent > 0) return;
      if (recordsSent) end();
      else endAsked = true;
    };
    const moved =
      !this.readsBoardsFirst && movesInStatements(boardMoves)
        ? moveInStatements(this.session, boardMoves, sentAll)
        : moveOnBoards(this.session, boardMoves, sentAll);
    // A season's block is cut once the rows are written (asked for only then: a failed write's
    // statements are awaited below, not in a promise no one awaits).
    const recorded: Promise<void>[] = [];
    const rowsWritten = () => Promise.all([...recorded, ...this.aheadSent]);
    const movedOnSeasons =
      !this.readsBoardsFirst && seasonMovesInStatements(seasonMoves)
        ? moveSeasonsInStatements(this.session, seasonMoves, sentAll)
        : moveOnSeasons(this.session, seasonMoves, rowsWritten, sentAll);
    recorded.push(...this.writeAll(this.dirty.values()), this.writeLogs());
    if (this.deliveries.length > 0) recorded.push(insertOutboxRows(this.session, this.deliveries));
    recordsSent = true;
    if (endAsked) end();
    await Promise.all([moved, movedOnSeasons, ...recorded, ...this.aheadSent]);
    // Asked for once the boards' last statements were sent, before they were answered.
    await notified;
    this.rowsWritten += this.dirty.size;
    this.dirty.clear();
  }

  /** Drops what was read (not what waits to be written), after deleting behind the cache. */
  private forgetReads(): void {
    this.boards.forget();
    this.seasons.forget();
    for (const key of this.cache.keys()) {
      if (!this.dirty.has(key) && !this.writtenAhead.has(key)) {
        this.cache.delete(key);
        this.usersAtRead.delete(key);
        this.seasonPointsAtRead.delete(key);
        this.absent.delete(key);
      }
    }
  }

  /** The records, each kind in one statement (two where some were read as absent: inserted, not upserted). */
  private writeAll(entries: Iterable<Pending>): Promise<void>[] {
    const byKind = new Map<string, { kind: RecordKind; values: unknown[]; insert: boolean }>();
    for (const { kind, value, insert } of entries) {
      const group = `${kind} ${insert}`;
      if (!byKind.has(group)) byKind.set(group, { kind, values: [], insert });
      byKind.get(group)!.values.push(value);
    }
    return [...byKind.values()].map(({ kind, values, insert }) => this.writeRecords(kind, values, insert));
  }

  private async writeRecords(kind: RecordKind, values: unknown[], insert: boolean): Promise<void> {
    const table = TABLES[kind] as Table<unknown>;
    const columns = [...table.key, ...table.columns];
    const names = [...columns.map((column) => column.name), 'record'];
    const arrays = [...columns.map((column) => values.map(column.of)), recordTexts(values)];
    const casts = [...columns.map((column, index) => `$${index + 1}::${column.type}[]`), recordsOf(`$${columns.length + 1}`)];
    const keyNames = table.key.map((column) => column.name).join(', ');
    const update = names
      .filter((column) => !table.key.some((key) => key.name === column))
      .map((column) => `${column} = excluded.${column}`)
      .join(', ');
    const conflict = insert ? '' : ` ON CONFLICT (${keyNames}) DO UPDATE SET ${update}`;
    await this.session.query({
      text: `INSERT INTO ${kind} (${names.join(', ')}) SELECT * FROM unnest(${casts.join(', ')})${conflict}`,
      values: arrays,
    });
  }

  private async writeLogs(): Promise<void> {
    if (this.pendingLogs.length === 0) return;
    const logs = this.pendingLogs;
    this.pendingLogs = [];
    this.rowsWritten += logs.length;
    // WITH ORDINALITY: the sequence follows the order they were appended in.
    await this.session.query({
      text: `INSERT INTO logs (app_id, account_name, record)
        SELECT app_id, account_name, record FROM unnest($1::text[], $2::text[], ${recordsOf('$3')})
        WITH ORDINALITY AS log(app_id, account_name, record, position) ORDER BY position`,
      values: [logs.map((log) => log.app_id), logs.map((log) => log.account_name), recordTexts(logs)],
    });
  }
}
