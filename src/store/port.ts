// The store as the rules see it: everything src/core and src/handler may ask of
// it, and nothing of how it is kept. Two adapters implement it: IndexedDB
// (indexeddb/, in the worker and the page) and SQL (sql/, PostgreSQL or PGlite,
// in the Node server). Both keep boards countable without walking them, so a
// deep page or a rank costs about what the first page costs.
import type { Changed } from '../api/broadcast.js';
import type { LeaderboardType } from '../api/schemas.js';
import type { WebhookEvent } from '../api/webhook-events.js';
import type {
  ApiKeyRecord,
  AppRecord,
  AuditRecord,
  BadgeAwardRecord,
  AttemptsRecord,
  BoardRow,
  ChallengeRecord,
  EndorsementRecord,
  IdempotencyRecord,
  LogRecord,
  MemberChallengeRecord,
  ProgressRecord,
  SeasonPointsRecord,
  SeasonShown,
  SubmissionRecord,
  TaskRecord,
  TransferRecord,
  UserRecord,
  WebhookDeliveryRecord,
} from './records.js';
import type { SubmissionStatus } from '../api/schemas.js';

/** The records kept by key, by kind. */
export interface Records {
  apps: AppRecord;
  api_keys: ApiKeyRecord;
  users: UserRecord;
  challenges: ChallengeRecord;
  tasks: TaskRecord;
  progress: ProgressRecord;
  member_challenges: MemberChallengeRecord;
  endorsements: EndorsementRecord;
  idempotency: IdempotencyRecord;
  badge_awards: BadgeAwardRecord;
  submissions: SubmissionRecord;
  attempts: AttemptsRecord;
  season_points: SeasonPointsRecord;
}

/** Each kind's key, as its record's fields in this order (PRIMARY_KEY). */
export interface RecordKeys {
  apps: string;
  /** Its key_sha256: a key is looked up by its hash. */
  api_keys: string;
  users: [app_id: string, account_name: string];
  challenges: string;
  tasks: string;
  progress: [task_id: string, account_name: string];
  member_challenges: [challenge_id: string, account_name: string];
  endorsements: [app_id: string, from_account: string, to_account: string, endorsement_id: string];
  idempotency: [api_key: string, idempotency_key: string];
  badge_awards: [app_id: string, account_name: string, badge_id: string];
  submissions: string;
  attempts: [task_id: string, account_name: string];
  season_points: [app_id: string, season_id: string, account_name: string];
}

export type RecordKind = keyof Records;

/** A record's key, read from the record: one home for what identifies each kind. */
export const PRIMARY_KEY: { [K in RecordKind]: (record: Records[K]) => RecordKeys[K] } = {
  apps: (app) => app.app_id,
  api_keys: (key) => key.key_sha256,
  users: (user) => [user.app_id, user.account_name],
  challenges: (challenge) => challenge.challenge_id,
  tasks: (task) => task.task_id,
  progress: (progress) => [progress.task_id, progress.account_name],
  member_challenges: (record) => [record.challenge_id, record.account_name],
  endorsements: (e) => [e.app_id, e.from_account, e.to_account, e.endorsement_id],
  idempotency: (record) => [record.api_key, record.idempotency_key],
  badge_awards: (award) => [award.app_id, award.account_name, award.badge_id],
  submissions: (record) => record.submission_id,
  attempts: (record) => [record.task_id, record.account_name],
  season_points: (record) => [record.app_id, record.season_id, record.account_name],
};

/** Which of an app's submissions to list: a status's (the review queue), or a member's. */
export type SubmissionFilter = { status: SubmissionStatus } | { account_name: string } | Record<string, never>;

/**
 * A record's key as one text, to find the record in a transaction's Map: its kind, then each
 * part of the key but the last after its length (a name may hold any character), then the last.
 * An import looks records up millions of times; JSON.stringify of the key took 7% of the
 * server's time seeding a million members.
 */
export function keyText<K extends RecordKind>(kind: K, key: RecordKeys[K]): string {
  if (typeof key === 'string') return `${kind} ${key}`;
  const parts = key as readonly string[];
  let text: string = kind;
  for (let i = 0; i < parts.length - 1; i++) text += ` ${parts[i]!.length} ${parts[i]}`;
  return `${text} ${parts[parts.length - 1]}`;
}

/** The key text of a record, read from the record itself. */
export const keyTextOf = <K extends RecordKind>(kind: K, record: Records[K]): string =>
  keyText(kind, (PRIMARY_KEY[kind] as (record: Records[K]) => RecordKeys[K])(record));

export interface BoardRef {
  type: LeaderboardType;
  app_id: string;
  /** The week or month of a period board; null for score and xp. */
  period: string | null;
}

/** A member as a board lists them, with their value on it. */
export interface Listed {
  row: BoardRow;
  value: number;
}

/** A member as a season's board lists them: their points in it, and what it shows beside them. */
export interface SeasonListed {
  member: SeasonPointsRecord;
  shown: SeasonShown;
}

/** Where a page around a member starts (Transaction.pageAround): `lead` members before them, within bounds. */
export interface PageWindow {
  lead: number;
  limit: number;
  /** The latest offset the page may start at, so that it stays full at the board's end. */
  lastStart: number;
}

/** The offset of a page around the member at `position` (the SQL store says the same in its statement). */
export const windowStart = (position: number, { lead, lastStart }: PageWindow) =>
  Math.max(0, Math.min(position - lead, lastStart));

/** Everything one app owns, for export and for import's replace mode. */
export interface AppData {
  api_keys: ApiKeyRecord[];
  users: UserRecord[];
  challenges: ChallengeRecord[];
  tasks: TaskRecord[];
  logs: LogRecord[];
  endorsements: EndorsementRecord[];
  badge_awards: BadgeAwardRecord[];
}

/** A member total a badge rule may ask for (BadgeRule), as kept on the member. */
export type MemberMeasure = 'tasks_completed' | 'challenges_completed' | 'xp' | 'streak_longest';

export interface MemberHistory {
  /** In the order they were logged. */
  logs: LogRecord[];
  /** Received, by receiver. */
  endorsements: EndorsementRecord[];
}

/**
 * One request's work: all of it commits, or none. Reads see the records as this
 * transaction left them; puts are written when the work is done, each changed
 * record once, and move the members written on every board.
 */
export interface Transaction {
  get<K extends RecordKind>(kind: K, key: RecordKeys[K]): Promise<Records[K] | undefined>;
  /**
   * Reads many records at once (an import's members, their progress): later gets of them cost
   * nothing. Keys may repeat: each record is read once.
   */
  getMany<K extends RecordKind>(kind: K, keys: RecordKeys[K][]): Promise<void>;
  /**
   * A speed hook, optional: records the work knows are not stored (the progress of a member it
   * has just created): later gets of them answer undefined without reading, and a put of one
   * inserts it. Without it they are read, and answer the same.
   */
  knownAbsent?<K extends RecordKind>(kind: K, keys: RecordKeys[K][]): void;
  /** Records the value; it is written when the work is done. */
  put<K extends RecordKind>(kind: K, value: Records[K]): void;
  getMeta<T>(key: string): Promise<T | undefined>;
  putMeta(key: string, value: unknown): Promise<void>;
  /** Appends to the log of quantities, which the export replays in order. */
  append(log: LogRecord): Promise<void>;
  /** Whether any app exists: an empty store may take a dataset's own admin keys. */
  hasApps(): Promise<boolean>;
  /** The first `limit` app ids, in id order (the apps an installation key manages). */
  appIds(limit: number): Promise<string[]>;
  /** An app's API keys, by hash (the console lists them). */
  keysOf(app_id: string): Promise<ApiKeyRecord[]>;
  /** An app's challenges, in id order. */
  challengesOf(app_id: string): Promise<ChallengeRecord[]>;
  /**
   * Up to `limit` members whose names start with `prefix`, in name order, from the `offset`-th:
   * a range of the members' key, however many the app has.
   */
  membersNamed(app_id: string, prefix: string, offset: number, limit: number): Promise<UserRecord[]>;
  /** Keeps an admin action in the audit log, in the write that made it. */
  appendAudit(entry: AuditRecord): Promise<void>;
  /** Up to `limit` of the app's audit entries from before `before` (epoch ms), newest first. */
  auditPage(app_id: string, before: number, limit: number): Promise<AuditRecord[]>;
  /** Keeps a treasury transfer in the ledger's history, in the write that made it. */
  appendTransfer(transfer: TransferRecord): Promise<void>;
  /**
   * Up to `limit` of the app's transfers from the `offset`-th, newest first. Kept through an
   * import's replace, as the audit log is: the coins left the treasury all the same.
   */
  transfersPage(app_id: string, offset: number, limit: number): Promise<TransferRecord[]>;
  /** Deletes up to `limit` idempotency records created at or before `createdAtMost`, oldest first. */
  forgetIdempotency(createdAtMost: number, limit: number): Promise<void>;

  /** Members on the board (for a period board: members with points in the period). */
  countOnBoard(board: BoardRef): Promise<number>;
  /** How many members hold a value strictly above `value`. */
  countHigher(board: BoardRef, value: number): Promise<number>;
  /** How many distinct values lie strictly above `value`. */
  countDistinctHigher(board: BoardRef, value: number): Promise<number>;
  /**
   * The page of up to `limit` members around a member on the board (the member must be on it):
   * from `lead` members before them, or from `lastStart` where that is earlier, never before the
   * board's first. Its offset, and its members in board order.
   */
  pageAround(board: BoardRef, user: UserRecord, window: PageWindow): Promise<{ offset: number; members: Listed[] }>;
  /** `limit` members from position `offset`, in board order. */
  boardPage(board: BoardRef, offset: number, limit: number): Promise<Listed[]>;
  /** How many members without points in a period board's period sort before `name` by name. */
  countUnrankedBefore(board: BoardRef, name: string): Promise<number>;
  /** `limit` members without points in the period board's period, in name order, from the `skip`-th. */
  unrankedPage(board: BoardRef, skip: number, limit: number): Promise<Listed[]>;

  /**
   * A season's board: its members by points, the earlier to reach them first, then by name, kept
   * in an index of the store's (no walk over the season's members in the rules); how many it
   * holds, the season's entry on the app (Season.member_count). Here: how many of the season's
   * members hold more than `points` (`distinct`: how many point values lie above).
   */
  countSeasonHigher(app_id: string, season_id: string, points: number, distinct: boolean): Promise<number>;
  /**
   * The page of up to `limit` of the season's members around one of them (as pageAround: from
   * `lead` members before them, within bounds). Its offset, and its members as the board lists
   * them (seasonBoardPage), in board order.
   */
  seasonPageAround(member: SeasonPointsRecord, window: PageWindow): Promise<{ offset: number; members: SeasonListed[] }>;
  /** `limit` of the season's members from position `offset`, in board order. */
  seasonPage(app_id: string, season_id: string, offset: number, limit: number): Promise<SeasonPointsRecord[]>;
  /** The same members as the board lists them, each with what it shows of them. */
  seasonBoardPage(app_id: string, season_id: string, offset: number, limit: number): Promise<SeasonListed[]>;

  readAppData(app_id: string): Promise<AppData>;
  /** Deletes the app and everything it owns (import's replace mode). */
  deleteAppData(app_id: string): Promise<void>;
  /** Deletes a task and the progress on it; returns the members who had any. */
  deleteTask(task_id: string): Promise<string[]>;
  /**
   * Up to `limit` of the app's submissions the filter names, from the `offset`-th: oldest first,
   * so a queue is reviewed in the order it came; ties by id.
   */
  listSubmissions(app_id: string, filter: SubmissionFilter, offset: number, limit: number): Promise<SubmissionRecord[]>;
  /** The members who completed a task of the challenge. */
  challengeMembers(challenge_id: string): Promise<string[]>;
  /** The members who completed the challenge itself (a badge defined on it is theirs). */
  challengeCompleters(challenge_id: string): Promise<string[]>;
  /** The members of the app whose `measure` is at least `at_least` (a badge defined on it is theirs). */
  membersReaching(app_id: string, measure: MemberMeasure, at_least: number): Promise<string[]>;
  /** Takes the members' progress away, logs included, and returns their history, to be replayed anew. */
  takeMemberHistory(app_id: string, names: Set<string>): Promise<MemberHistory>;
  /**
   * Says the member's records are done. Where present (the SQL store), the store may send the
   * records of members done so far now, while the work goes on (an import replays thousands of
   * members: the database then inserts some while the rules replay the next); a record put again
   * is written again.
   */
  writeAhead?(app_id: string, account_name: string): void;
  /**
   * Where present (a store several server processes share), sends what the write changed as
   * change notices with its commit, to every process: called once the write's work is done.
   */
  announce?(changed: Changed | Changed[] | undefined): void;
  /**
   * Where present (the server's SQL store, which delivers webhooks), keeps the event in the
   * write's own transaction, to be delivered after commit. A browser's own store has no backend
   * to tell, and no such method.
   */
  recordEvent?(event: WebhookEvent): void;
  /**
   * Where present (the server's SQL store), the app's webhook deliveries, newest first, from
   * `offset`. A browser's own store keeps none.
   */
  webhookDeliveries?(app_id: string, offset: number, limit: number): Promise<WebhookDeliveryRecord[]>;
  /**
   * Where present, makes the app's delivery due again at `now`, its attempts counted anew;
   * false when the app has no such delivery.
   */
  redeliverWebhook?(app_id: string, delivery_id: string, now: number): Promise<boolean>;
}

export interface WriteOptions {
  /** 'strict' where a write must reach the disk before it is answered (IndexedDB's durability hint). */
  durability?: 'strict' | 'default';
}

export interface Store {
  read<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Runs the work in one transaction: all of it commits, or none. An adapter
   * may run it again after a conflict with a concurrent write, so the work
   * must not act outside the transaction.
   */
  write<T>(work: (tx: Transaction) => Promise<T>, options?: WriteOptions): Promise<T>;
  /**
   * Throws when the database does not answer. `begun` is called as its transaction begins, where
   * it runs one (RequestContext.transactionBegins).
   */
  ping(begun?: () => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * In the port, not behind the SQL adapter: the handler throws it and the store retries on it, and
 * the handler may import only the port (test/architecture/layers.test.js).
 * Thrown by a write's work when what it started before its key was answered rested on what no
 * longer holds (a server's write limits, counted ahead: handler/rate-limits.ts): nothing of that
 * attempt may commit, and the store runs the work again, as after a conflict.
 */
export class StaleReadAhead extends Error {}

/** Whether the member is ranked on the board: has points in its period, or it has none. */
export const isRanked = (board: BoardRef, member: { week: string; month: string }) =>
  board.period === null || (board.type === 'weekly' ? member.week : member.month) === board.period;
