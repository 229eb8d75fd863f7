import type {
  Acknowledged,
  Achievements,
  BadgeWall,
  Seasons,
  AirdropResult,
  Challenge,
  Endorsement,
  Health,
  Leaderboard,
  LeaderboardHtml,
  Submission,
  SubmissionCreated,
  Submissions,
  TaskProgress,
  UserInfo,
} from '../api/responses.js';
import type { Changed } from '../api/broadcast.js';
import { newGuid } from '../api/formats.js';
import { ERROR_CODE_HEADER } from '../api/error-codes.js';
import { MEMBER_TOKEN_HEADER } from '../api/member-tokens.js';
import type {
  ConnectSocialBody,
  Dataset,
  EndorseAccountBody,
  GetEndorsementQuery,
  GetLeaderboardQuery,
  LogTaskBody,
  SubmissionStatus,
  SubmitTaskBody,
} from '../api/schemas.js';
import { announceChange, subscribeToChanges } from './changes.js';
import { MemberTokens, type MemberTokenOption } from './member-token.js';
import { QuestboardError } from './questboard-error.js';
import type { Transport } from './transport.js';

export interface QuestboardClientOptions {
  transport: Transport;
  apiKey: string;
  /**
   * The signed-in member's token, or a function giving it: sent as X-Questboard-Member with the
   * writes members make (endorse_account, connect_social). A function is asked again, and the
   * write sent once more, when an answer says the token has expired. Clients given one
   * MemberTokens share its token (as the page's elements share the configured one).
   */
  memberToken?: MemberTokenOption | MemberTokens;
}

/** The client's inputs are the request schemas' own types (src/api/schemas.ts). */
export type LeaderboardQuery = Omit<GetLeaderboardQuery, 'widget_response'>;
/** With a member key, `from_account` is left out: the API takes the member the token names. */
export type EndorseInput = Omit<EndorseAccountBody, 'from_account'> & { from_account?: string };
/** With a member key, `account_name` is left out: the API takes the member the token names. */
export type ConnectSocialInput = Omit<ConnectSocialBody, 'account_name'> & { account_name?: string };
export type LogTaskInput = LogTaskBody;
/** With a member key, `account_name` is left out: the API takes the member the token names. */
export type SubmitTaskInput = Omit<SubmitTaskBody, 'account_name'> & { account_name?: string; app_id: string };

/** What admin/review answers: one submission decided, or (the bulk form) those decided and those skipped. */
export type ReviewResult = Acknowledged &
  ({ submission: Submission } | { reviewed: Submission[]; skipped: { submission_id: string; code: string }[] });

export interface AirdropInput {
  to_address: string;
  quantity: number;
  /** Sent as the Idempotency-Key header (by default a fresh one): a retry with the same key never pays twice. */
  idempotencyKey?: string;
}

/** What POST /v1/admin/import answers: the apps it loaded. */
export interface ImportResult extends Acknowledged {
  app_ids: string[];
}

export type Query = Record<string, string | number | boolean | undefined>;

interface WriteOptions {
  /** Sent as the Idempotency-Key header; a fresh one by default. */
  idempotencyKey?: string;
  /** Sent as X-Questboard-Member, when there is one. */
  memberToken?: string | null;
}

/** Told, for each answer a call receives, when the remote last gave it: null when fresh. */
export type AnswerObserver = (keptAt: number | null) => void;

/** Answers served from the kept copy while the remote was unreachable, and when the remote gave them. */
const keptAnswers = new WeakMap<object, number>();

/**
 * How many writes this page has heard of. A request that started before a write may answer
 * with data from before it, so it is shared only with requests of the same count. One
 * subscription for the page, not one per client: clients come and go with configure().
 */
let writesHeard = 0;
subscribeToChanges(() => writesHeard++);

/**
 * One typed method per /v1 operation. Results are the parsed response bodies; a body with
 * `is_valid: false` (or no valid body at all) throws a QuestboardError.
 */
export class QuestboardClient {
  readonly transport: Transport;
  readonly apiKey: string;
  /** Identical GETs still running share one request (50 user cards make 1 request). */
  private readonly inFlight = new Map<string, { writesHeard: number; request: Promise<unknown> }>();
  private readonly observer: AnswerObserver | undefined;
  private readonly memberTokens: MemberTokens;

  constructor(options: QuestboardClientOptions) {
    this.transport = options.transport;
    this.apiKey = options.apiKey;
    this.memberTokens = options.memberToken instanceof MemberTokens ? options.memberToken : new MemberTokens(options.memberToken);
  }

  /**
   * Who the member token says is signed in (its `sub`), or null without a token: read, not
   * verified, so for display only. The API checks the token with every write.
   */
  signedInMember(): Promise<string | null> {
    return this.memberTokens.member();
  }

  getChallenge(query: { challenge_id: string }): Promise<Challenge> {
    return this.get('v1/get_challenge', query);
  }

  getUserInfo(query: { app_id: string; account_name: string }): Promise<UserInfo> {
    return this.get('v1/get_userinfo', query);
  }

  /** Every badge of the app, with the member's progress toward each where an account_name is given. */
  getBadges(query: { app_id: string; account_name?: string }): Promise<BadgeWall> {
    return this.get('v1/get_badges', query);
  }

  /** The app's seasons, for a season picker. */
  getSeasons(query: { app_id: string }): Promise<Seasons> {
    return this.get('v1/get_seasons', query);
  }

  /** The member's badges and streak (404 for an unknown member, as getUserInfo). */
  getAchievements(query: { app_id: string; account_name: string }): Promise<Achievements> {
    return this.get('v1/get_achievements', query);
  }

  getLeaderboard(query: LeaderboardQuery & { widget_response: 'html' }): Promise<LeaderboardHtml>;
  getLeaderboard(query: LeaderboardQuery & { widget_response?: 'json' }): Promise<Leaderboard>;
  getLeaderboard(query: LeaderboardQuery & { widget_response?: 'html' | 'json' }): Promise<Leaderboard | LeaderboardHtml> {
    return this.get('v1/get_leaderboard', { ...query });
  }

  getEndorsement(query: GetEndorsementQuery): Promise<Endorsement> {
    return this.get('v1/get_endorsement', query);
  }

  getTaskProgress(query: { task_id: string; account_name: string }): Promise<TaskProgress> {
    return this.get('v1/get_task_progress', query);
  }

  health(): Promise<Health> {
    return this.get('v1/health', {});
  }

  async endorseAccount(input: EndorseInput): Promise<Acknowledged> {
    const result = await this.memberWrite<Acknowledged>('v1/endorse_account', input);
    const from = input.from_account ?? (await this.signedInMember());
    const names = from === null ? [input.to_account] : [from, input.to_account];
    this.announce({ app_id: input.app_id, scope: 'members', account_names: names });
    return result;
  }

  async connectSocial(input: ConnectSocialInput): Promise<Acknowledged> {
    const result = await this.memberWrite<Acknowledged>('v1/connect_social', input);
    const member = input.account_name ?? (await this.signedInMember());
    this.announce({ app_id: input.app_id, scope: 'members', account_names: member === null ? [] : [member] });
    return result;
  }

  /**
   * Completes a task as its verification says (docs/quests.md): a code's answer counts at once
   * (the task's progress), a review's text waits for a reviewer (202, pending).
   */
  async submitTask(input: SubmitTaskInput): Promise<TaskProgress | SubmissionCreated> {
    const { app_id, ...body } = input;
    const result = await this.memberWrite<TaskProgress | SubmissionCreated>('v1/submit_task', body);
    const member = input.account_name ?? (await this.signedInMember());
    this.announce({ app_id, scope: 'members', account_names: member === null ? [] : [member] });
    return result;
  }

  getSubmissions(query: { app_id: string; account_name: string }): Promise<Submissions> {
    return this.get('v1/get_submissions', query);
  }

  airdrop(input: AirdropInput): Promise<AirdropResult> {
    const { idempotencyKey, ...body } = input;
    return this.write('v1/airdrop_token_ledger', body, { idempotencyKey });
  }

  readonly admin = {
    // No Idempotency-Key and no retry: an import is all-or-nothing, and a merge appends its progress again.
    importDataset: async (dataset: Dataset, options: { mode?: 'merge' | 'replace' } = {}): Promise<ImportResult> => {
      const path = options.mode ? `v1/admin/import?mode=${options.mode}` : 'v1/admin/import';
      const result = await this.post<ImportResult>(path, dataset);
      for (const appId of result.app_ids) this.announce({ app_id: appId, scope: 'app' });
      return result;
    },
    logTask: (input: LogTaskInput): Promise<TaskProgress> => this.write('v1/admin/log_task', input),
    exportApp: (query: { app_id: string }): Promise<Dataset & Acknowledged> => this.get('v1/admin/export', query),
    /** The review queue, oldest first; `next_offset` is null on the last page. */
    submissions: (query: {
      app_id: string;
      status?: SubmissionStatus;
      limit?: number;
      offset?: number;
    }): Promise<Submissions & { next_offset: number | null }> => this.get('v1/admin/submissions', query),
    /** Decides one submission (`submission_id`) or many (`submission_ids`). */
    review: (
      input: ({ submission_id: string } | { submission_ids: string[] }) & { decision: 'approve' | 'reject'; reason?: string },
    ): Promise<ReviewResult> => this.write('v1/admin/review', input),
  };

  /**
   * Any operation by its path (`v1/admin/…`), for clients of parts of the API the elements never
   * call (admin-client.ts), so that their methods stay out of the embed. A POST carries an
   * Idempotency-Key (a fresh one by default) and is sent once more when it got no answer.
   */
  call<T>(path: string, request: { query?: Query; body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
    if (request.body === undefined) return this.get<T>(path, request.query ?? {});
    return this.write<T>(withQuery(path, request.query ?? {}), request.body, { idempotencyKey: request.idempotencyKey });
  }

  /** The same client (same requests, same sharing) telling `observer` how fresh each answer is. */
  observing(observer: AnswerObserver): QuestboardClient {
    return Object.create(this, { observer: { value: observer } }) as QuestboardClient;
  }

  private get<T>(path: string, query: Query): Promise<T> {
    return this.sharedGet<T>(path, query).then((body) => {
      this.observer?.(keptAnswers.get(body as object) ?? null);
      return body;
    });
  }

  private sharedGet<T>(path: string, query: Query): Promise<T> {
    const url = withQuery(path, query);
    const key = `${this.transport.id}\n${this.apiKey}\n${url}`;
    const running = this.inFlight.get(key);
    if (running?.writesHeard === writesHeard) return running.request as Promise<T>;
    const request = this.send<T>(url, { method: 'GET' }).finally(() => {
      if (this.inFlight.get(key)?.request === request) this.inFlight.delete(key);
    });
    this.inFlight.set(key, { writesHeard, request });
    return request;
  }

  /**
   * A write a member makes, with the member token when the page has one. When the answer says
   * the token has expired, the page is asked for a new one and the write is sent once more,
   * with the same Idempotency-Key (a refused write was not done).
   */
  private async memberWrite<T>(path: string, body: unknown): Promise<T> {
    const idempotencyKey = newGuid();
    const memberToken = await this.memberTokens.token();
    try {
      return await this.write<T>(path, body, { idempotencyKey, memberToken });
    } catch (error) {
      if (!(error instanceof QuestboardError) || error.code !== 'member-token-expired' || memberToken === null) throw error;
      const renewed = await this.memberTokens.renewed(memberToken);
      if (renewed === null) throw error;
      return this.write<T>(path, body, { idempotencyKey, memberToken: renewed });
    }
  }

  /**
   * A write the server does at most once per Idempotency-Key. When a request gets no
   * answer (a worker restarted mid-write), it is sent once more with the same key: if
   * the write did happen, the retry answers the first answer instead of doing it again.
   */
  private write<T>(
    path: string,
    body: unknown,
    { idempotencyKey = newGuid(), memberToken = null }: WriteOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = { 'Idempotency-Key': idempotencyKey };
    if (memberToken !== null) headers[MEMBER_TOKEN_HEADER] = memberToken;
    const post = () => this.post<T>(path, body, headers);
    return post().catch((error: unknown) => {
      if (error instanceof QuestboardError && error.status === 0) return post();
      throw error;
    });
  }

  private post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
    return this.send<T>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  private async send<T>(path: string, init: RequestInit): Promise<T> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.apiKey}`);
    let response: Response;
    try {
      response = await this.transport.send(path, { ...init, headers });
    } catch (error) {
      throw new QuestboardError(0, `The Questboard API could not be reached: ${describe(error)}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new QuestboardError(response.status, `The Questboard API answered ${response.status} without a JSON body.`);
    }
    const outcome = body as { is_valid?: unknown; message?: unknown } | null;
    if (outcome?.is_valid !== true) {
      const message = typeof outcome?.message === 'string' ? outcome.message : `Request failed with status ${response.status}.`;
      const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
      throw new QuestboardError(
        response.status,
        message,
        response.headers.get(ERROR_CODE_HEADER),
        Number.isFinite(retryAfter) ? retryAfter : null,
      );
    }
    if (response.headers.get('x-questboard-source') === 'cache') {
      keptAnswers.set(body as object, Date.now() - Number(response.headers.get('age') ?? 0) * 1000);
    }
    return body as T;
  }

  /** Announces a committed write where the transport's other end does not. */
  private announce(change: Changed): void {
    if (this.transport.announcesChanges) return;
    announceChange({ type: 'questboard:change', ...change });
  }
}

function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
