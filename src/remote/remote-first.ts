// The remote-first strategy: with a remote configured, /v1 calls go to it;
// when it cannot be reached, reads come from the last good answers and the
// two member writes wait in an outbox. The worker and the in-page transport
// both wrap their local handler with it.
import { operationOf, operationPath } from '../api/api-path.js';
import { INTERNAL_ERROR, REMOTE_ANSWER_INVALID, REMOTE_UNREACHABLE } from '../api/error-codes.js';
import { ApiError } from '../api/errors.js';
import { newGuid } from '../api/formats.js';
import {
  MEMBER_TOKEN_CLOCK_TOLERANCE_S,
  MEMBER_TOKEN_HEADER,
  refuseMemberToken,
  unverifiedClaims,
} from '../api/member-tokens.js';
import type { Handle } from '../handler/handler.js';
import { errorResponse } from '../handler/http.js';
import { cachedResponse, findAnswer, hashAuthorization, keepAnswer } from './answer-cache.js';
import { queued } from './answers.js';
import {
  countFailedReplay,
  enqueueWrite,
  MAX_FAILED_REPLAYS,
  MAX_QUEUED_AGE_MS,
  MAX_QUEUED_WRITES,
  queuedWrites,
  removeWrite,
} from './outbox.js';
import { callRemote, type RemoteCall, type RemoteFetch, type RemoteOutcome } from './remote-call.js';
import {
  DEFAULT_REMOTE_DATABASE,
  openRemoteDatabase,
  type QueuedWrite,
  type RemoteDatabase,
  type RemoteSettings,
} from './remote-database.js';
import { openToken, sealToken } from './sealed-token.js';
import { readSettings, toRemoteSettings, writeSettings, type RemoteConfiguration } from './settings.js';
import { broadcast, type ChangeNotice, type SyncErrorMessage, type SyncErrorReason } from '../api/broadcast.js';

export type { RemoteConfiguration, RemoteSettings, SyncErrorMessage };

export interface RemoteFirstOptions {
  /** IndexedDB database for the setting, the kept answers and the outbox. Default 'questboard-remote'. */
  databaseName?: string;
  /** The outbound fetch. Default: the global fetch. */
  fetch?: RemoteFetch;
  /** The clock, in epoch ms. */
  now?: () => number;
  /** Told when a queued write is dropped undelivered. Default: broadcast to every page of the origin. */
  onSyncError?: (error: SyncErrorMessage) => void;
  /** Told after a write was queued, so the host can ask for Background Sync. */
  onQueued?: () => void;
  /** Told after the remote accepted a member write, live or replayed, as the local handler tells its own. */
  onChange?: (change: ChangeNotice) => void;
}

export interface RemoteFirst {
  handle: Handle;
  /** Sets (or with `remote: null` clears) the remote and keeps the setting; resolves once it is kept and in force. */
  configure(configuration: RemoteConfiguration): Promise<RemoteSettings>;
  /** The setting in force. */
  settings(): Promise<RemoteSettings>;
  /**
   * Sends the queued writes, oldest first. Rejects when the remote still cannot be reached, so a
   * Background Sync event that waits on it is retried by the browser.
   */
  replayOutbox(): Promise<void>;
  /** Closes the database connection; a later call opens it again. */
  close(): void;
}

/** Only these writes can wait: they are idempotent on the remote, and a member expects them to happen eventually. */
const QUEUEABLE_OPERATIONS = new Set(['endorse_account', 'connect_social']);

const DAY_MS = 24 * 60 * 60 * 1000;

/** 408 and 429 refuse for now, not for good: the write stays queued. */
const isLastingRefusal = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

interface ReplayResult {
  /** Where the replay stopped, the writes from there on still queued; null when it went through. */
  stoppedAt: { url: string; outcome: RemoteOutcome } | null;
}

/**
 * No answer at all (rather than a 5xx, which may concern only the write being replayed): the
 * request that follows would meet the same silence, so it is not sent.
 */
const isSilence = (outcome: RemoteOutcome): outcome is RemoteOutcome & { kind: 'unreachable' } =>
  outcome.kind === 'unreachable' && outcome.status === undefined;

export function remoteFirst(local: Handle, options: RemoteFirstOptions = {}): RemoteFirst {
  const databaseName = options.databaseName ?? DEFAULT_REMOTE_DATABASE;
  const fetchRemote: RemoteFetch = options.fetch ?? ((request) => fetch(request));
  const now = options.now ?? Date.now;
  const reportSyncError = options.onSyncError ?? broadcast;

  let openDatabase: Promise<RemoteDatabase> | undefined;
  const database = () =>
    (openDatabase ??= openRemoteDatabase(databaseName, () => {
      openDatabase = undefined;
    }));
  let loadedSettings: Promise<RemoteSettings> | undefined;
  const settings = () =>
    (loadedSettings ??= database()
      .then(readSettings)
      .catch((error: unknown) => {
        loadedSettings = undefined;
        throw error;
      }));

  // Replays need the caller's key, which is never written down: it is remembered here, by hash, for as
  // long as this worker or page lives. Writes of a key not seen since a restart wait for its next request.
  const authorizations = new Map<string, string>();
  let outboxMayHoldWrites = true;
  let replaying: Promise<ReplayResult> | undefined;

  function replay(): Promise<ReplayResult> {
    if (!outboxMayHoldWrites) return Promise.resolve({ stoppedAt: null });
    return (replaying ??= replayQueuedWrites().finally(() => {
      replaying = undefined;
    }));
  }

  async function replayQueuedWrites(): Promise<ReplayResult> {
    const db = await database();
    const { timeout_ms } = await settings();
    // Cleared before reading, so a write queued while this runs sets it again.
    outboxMayHoldWrites = false;
    try {
      return await replayEach(db, timeout_ms);
    } catch (error) {
      outboxMayHoldWrites = true;
      throw error;
    }
  }

  async function replayEach(db: RemoteDatabase, timeout_ms: number): Promise<ReplayResult> {
    let skipped = false;
    for (const write of await queuedWrites(db)) {
      if (now() - write.queued_at > MAX_QUEUED_AGE_MS) {
        await removeWrite(db, write.seq!);
        reportSyncError(
          syncError(write, 'expired', null, `not delivered within ${MAX_QUEUED_AGE_MS / DAY_MS} days of being made`),
        );
        continue;
      }
      const memberToken =
        write.member_token === undefined ? null : await openToken(db, write.member_token, write.idempotency_key);
      const tokenFault = write.member_token === undefined ? null : memberTokenFault(memberToken, now());
      if (tokenFault !== null) {
        // The remote would refuse it: a member whose sign-in ran out while offline is told, rather than the remote asked.
        await removeWrite(db, write.seq!);
        reportSyncError(syncError(write, 'member-token', null, tokenFault));
        continue;
      }
      const authorization = authorizations.get(write.key_hash);
      if (authorization === undefined) {
        skipped = true;
        continue;
      }
      const outcome = await callRemote(fetchRemote, replayCall(write, authorization, memberToken), timeout_ms);
      if (outcome.kind === 'answer' && (outcome.status < 300 || isLastingRefusal(outcome.status))) {
        await removeWrite(db, write.seq!);
        if (outcome.status < 300) announce(write.operation, write.body);
        else reportSyncError(syncError(write, 'refused', outcome.status, remoteMessage(outcome)));
        continue;
      }
      // Silence is the remote's (or the network's), not this write's: only the age limit applies to it.
      if (outcome.kind === 'unreachable' && outcome.status !== undefined && (await countFailedReplay(db, write.seq!))) {
        reportSyncError(
          syncError(
            write,
            'failed-replays',
            outcome.status,
            `the remote failed it on ${MAX_FAILED_REPLAYS} replays, last with ${outcome.status}`,
          ),
        );
        continue;
      }
      outboxMayHoldWrites = true;
      return { stoppedAt: { url: write.url, outcome } };
    }
    if (skipped) outboxMayHoldWrites = true;
    return { stoppedAt: null };
  }

  function announce(operation: string, body: string | null): void {
    const change = changeMadeBy(operation, body);
    if (change !== null) options.onChange?.(change);
  }

  async function handle(request: Request): Promise<Response> {
    try {
      return await remoteFirstAnswer(request);
    } catch (error) {
      // Like the handler: a bug answers 500 in the API's shape, never a rejected respondWith.
      console.error('questboard: unexpected error in the remote-first strategy', error);
      return errorResponse(new ApiError(INTERNAL_ERROR));
    }
  }

  async function remoteFirstAnswer(request: Request): Promise<Response> {
    const { remote, timeout_ms } = await settings();
    const url = new URL(request.url);
    const operation = operationOf(url);
    // A page reads the remote's event stream itself (client/remote-changes.ts): here it would be
    // held until the timeout and kept as an answer. The local handler says it has none.
    if (remote === null || operation === null || operation === 'events') return local(request);
    const authorization = request.headers.get('Authorization');
    const keyHash = await hashAuthorization(authorization);
    if (authorization !== null) authorizations.set(keyHash, authorization);
    const queueable = request.method === 'POST' && QUEUEABLE_OPERATIONS.has(operation);
    const call: RemoteCall = {
      operation,
      url: `${remote}${operationPath(operation)}${url.search}`,
      method: request.method,
      authorization,
      contentType: request.headers.get('Content-Type'),
      // A queueable write carries a key from its first attempt: if that attempt timed out after the
      // remote applied it, the replay is recognised as the same write.
      idempotencyKey: request.headers.get('Idempotency-Key') ?? (queueable ? newGuid() : null),
      memberToken: request.headers.get(MEMBER_TOKEN_HEADER),
      body: request.method === 'GET' || request.method === 'HEAD' ? null : await request.text(),
    };

    // Writes queued earlier go first, so the remote sees them in the order they were made.
    const { stoppedAt } = await replay();
    const outcome =
      stoppedAt !== null && isSilence(stoppedAt.outcome) && stoppedAt.url.startsWith(`${remote}/`)
        ? stoppedAt.outcome
        : await callRemote(fetchRemote, call, timeout_ms);

    if (outcome.kind === 'invalid') return errorResponse(new ApiError(REMOTE_ANSWER_INVALID, { reason: outcome.reason }));
    if (outcome.kind === 'unreachable') return whenUnreachable(call, keyHash, { remote, reason: outcome.reason });
    if (call.method === 'GET' && outcome.status < 300) {
      const contentType = outcome.headers.get('Content-Type');
      await keepAnswer(await database(), keyHash, call.url, { status: outcome.status, contentType, body: outcome.body }, now());
    }
    if (call.method === 'POST' && outcome.status < 300) announce(call.operation, call.body);
    return new Response(outcome.body, { status: outcome.status, headers: outcome.headers });
  }

  async function whenUnreachable(
    call: RemoteCall,
    keyHash: string,
    cause: { remote: string; reason: string },
  ): Promise<Response> {
    const unreachable = (then: string) => errorResponse(new ApiError(REMOTE_UNREACHABLE, { ...cause, then }));
    const db = await database();
    if (call.method === 'GET') {
      const answer = await findAnswer(db, keyHash, call.url);
      if (answer !== undefined) return cachedResponse(answer, now());
      return unreachable(', and no earlier answer to this request is kept.');
    }
    if (call.idempotencyKey !== null && call.method === 'POST' && QUEUEABLE_OPERATIONS.has(call.operation)) {
      // Queued, it would only be dropped: refused now as the remote refuses it, so that the page
      // asks for a new token and sends the write again (src/client/client.ts).
      if (call.memberToken !== null && hasExpired(call.memberToken, now())) return errorResponse(refuseMemberToken('expired'));
      const pushedOut = await enqueueWrite(db, {
        operation: call.operation,
        url: call.url,
        content_type: call.contentType,
        body: call.body ?? '',
        key_hash: keyHash,
        ...(call.memberToken === null ? {} : { member_token: await sealToken(db, call.memberToken, call.idempotencyKey) }),
        idempotency_key: call.idempotencyKey,
        queued_at: now(),
      });
      for (const write of pushedOut) {
        reportSyncError(
          syncError(
            write,
            'outbox-full',
            null,
            `${MAX_QUEUED_WRITES} newer writes were queued while the remote could not be reached`,
          ),
        );
      }
      outboxMayHoldWrites = true;
      options.onQueued?.();
      return queued();
    }
    if (call.operation === 'airdrop_token_ledger') {
      return unreachable('. Transfers are never queued: nothing was sent.');
    }
    return unreachable('. Only endorse_account and connect_social wait for it; try again later.');
  }

  return {
    handle,
    async configure(configuration) {
      const next = toRemoteSettings(configuration);
      // Every page sends its setting as it loads, before its first request: the same setting
      // again writes nothing (a read-write transaction would hold that first request up).
      const current = await settings().catch(() => undefined);
      if (current?.remote === next.remote && current.timeout_ms === next.timeout_ms) return current;
      await writeSettings(await database(), next);
      loadedSettings = Promise.resolve(next);
      outboxMayHoldWrites = true;
      return next;
    },
    settings,
    async replayOutbox() {
      const { stoppedAt } = await replay();
      if (stoppedAt !== null) {
        const { outcome } = stoppedAt;
        throw new Error(
          `Queued writes wait: ${outcome.kind === 'answer' ? `the remote answered ${outcome.status}` : outcome.reason}`,
        );
      }
    },
    close() {
      void openDatabase?.then((db) => db.close());
      openDatabase = undefined;
      loadedSettings = undefined;
    },
  };
}

function replayCall(write: QueuedWrite, authorization: string, memberToken: string | null): RemoteCall {
  return {
    operation: write.operation,
    url: write.url,
    method: 'POST',
    authorization,
    contentType: write.content_type,
    idempotencyKey: write.idempotency_key,
    memberToken,
    body: write.body,
  };
}

/** Why a queued write's member token (null when it did not open) cannot be sent at `at` (epoch ms), or null when it can. */
function memberTokenFault(token: string | null, at: number): string | null {
  if (token === null) return 'the member token it was made with could not be read back from the outbox';
  if (hasExpired(token, at)) {
    return 'the member token it was made with had expired before it could be sent; the member signs in again and repeats it';
  }
  return null;
}

/**
 * Whether a member token has expired at `at` (epoch ms), its `exp` read as the API's verifier
 * reads it, with the same tolerance. The remote still verifies every token it is sent: this only
 * spares it one it would refuse, and the member a write that could never be delivered.
 */
function hasExpired(token: string, at: number): boolean {
  const { exp } = unverifiedClaims(token);
  return exp !== null && exp <= Math.floor(at / 1000) - MEMBER_TOKEN_CLOCK_TOLERANCE_S;
}

function parseBody(body: string | null): unknown {
  try {
    return body === null ? null : JSON.parse(body);
  } catch {
    return body;
  }
}

function syncError(write: QueuedWrite, reason: SyncErrorReason, status: number | null, message: string): SyncErrorMessage {
  return {
    type: 'questboard:sync-error',
    reason,
    operation: write.operation,
    status,
    message,
    request: parseBody(write.body),
    queued_at: new Date(write.queued_at).toISOString(),
  };
}

function remoteMessage(outcome: RemoteOutcome & { kind: 'answer' }): string {
  const answer = parseBody(outcome.body) as { message?: unknown } | null;
  return typeof answer?.message === 'string' ? answer.message : `refused with ${outcome.status}`;
}

/** The members whose totals a delivered write changed: the endorsed member, or the member who connected. */
function changeMadeBy(operation: string, body: string | null): ChangeNotice | null {
  const fields = parseBody(body) as Record<string, unknown> | null;
  if (typeof fields !== 'object' || fields === null || typeof fields['app_id'] !== 'string') return null;
  const member =
    operation === 'endorse_account' ? fields['to_account'] : operation === 'connect_social' ? fields['account_name'] : undefined;
  if (typeof member !== 'string') return null;
  return { type: 'questboard:change', app_id: fields['app_id'], scope: 'members', account_names: [member] };
}
