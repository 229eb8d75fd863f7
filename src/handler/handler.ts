// The API: one function from Request to Response. It routes, authenticates,
// validates, runs the rules in one transaction, and serialises. Every host
// (service worker, in-page transport, Node server) calls only this.
import { operationOf } from '../api/api-path.js';
import type { ChangeNotice } from '../api/broadcast.js';
import {
  DATABASE_UNAVAILABLE,
  NOT_HEALTHY,
  INTERNAL_ERROR,
  METHOD_NOT_ALLOWED,
  NO_ADMIN_KEY_YET,
  NO_CHANGE_FEED,
  UNKNOWN_OPERATION,
} from '../api/error-codes.js';
import { ApiError, invalidInput } from '../api/errors.js';
import type * as z from 'zod/mini';
import { adminKeyRecord, authenticate, bearerKey, requireScope } from '../core/access.js';
import { isEmpty } from '../core/dataset.js';
import { sha256Hex } from '../api/key-hash.js';
import { noMemberToken, verifyMemberToken } from '../core/member-token.js';
import { MEMBER_TOKEN_HEADER } from '../api/member-tokens.js';
import type { ApiKeyRecord, AppRecord, Store, Transaction } from '../store/index.js';
import type { CheckCallback } from '../core/quests.js';
import type { ChangeStreams } from './change-stream.js';
import { recordAdminAction } from './audit.js';
import { BODY_LIMIT, errorResponse, jsonResponse, readJsonBody } from './http.js';
import { canonical, once } from './idempotency.js';
import { callsAsMember, memberBody } from './member-access.js';
import { operations, type Operation, type Outcome } from './operations.js';
import type { RateLimiter } from './rate-limits.js';
import { guardRequest, type RequestContext } from './request-guards.js';

export interface HandlerOptions {
  store: Store;
  /** The clock; tests pin it. */
  now?: () => Date;
  /**
   * Called after every write that committed, with each of its change notices. A store that sends
   * them itself, with the write's commit (Transaction.announce), needs no host to publish them.
   */
  onChange?: (change: ChangeNotice) => void;
  /**
   * Whether an empty store takes an import authorised by a key the dataset
   * itself lists (the bootstrap rule); default true. Where each browser has a
   * store of its own (the worker, the page) that is how data first arrives; a
   * server reachable by others refuses it, or whoever came first would own it.
   */
  allowBootstrap?: boolean;
  /**
   * Whether an import's admin_keys become installation admin keys; default true. A browser's own
   * store (the worker, the page) takes them from its dataset: that is how they arrive there. A
   * server's come from its operator alone (QUESTBOARD_ADMIN_KEYS, --admin-keys-file): it refuses
   * an import that lists any, save the bootstrap import its operator allowed (allowBootstrap).
   */
  adminKeysFromDatasets?: boolean;
  /**
   * Whether an app's webhooks may be sent over http: (a server started with
   * --allow-private-webhooks, for tests and intranets); default false: https: only.
   */
  allowPrivateWebhooks?: boolean;
  /** Told of every error the handler did not expect (answered 500) and of a database that does not answer; default console.error. */
  onUnexpectedError?: (error: unknown, request: Request) => void;
  /**
   * What GET /v1/events answers: a server's stream of its feed of committed changes
   * (change-stream.ts). The service worker and the in-page handler have none (a page's own writes
   * reach its other tabs on the BroadcastChannel), nor its code in their bundles.
   */
  changeStreams?: ChangeStreams;
  /**
   * A server's write limits, counted in its database (rate-limits.ts). The service worker and
   * the in-page handler have none: they serve one browser's own store.
   */
  limiter?: RateLimiter;
  /**
   * Reads a transaction starts before it needs them (read-ahead.ts), told the key the request
   * sends, what the host knows of it and the member its token names: a read's beside its key's,
   * a write's right behind its key's lock. A server's, where each read is a round trip to the
   * database. The service worker and the in-page handler read IndexedDB, where a read costs no
   * round trip.
   */
  readAhead?: ReadAhead;
  /**
   * Asks a site's endpoint whether a member did a callback task (docs/quests.md): the Node
   * server's, which alone may call out. Without it, submit_task on such a task answers 501.
   */
  checkCallback?: CheckCallback;
}

export type ReadAhead = (
  tx: Transaction,
  input: Record<string, unknown>,
  operation: Operation,
  key: string | null,
  context: RequestContext | undefined,
  member: string | null,
) => void;

/** `context` comes from a host that knows more of the request (the Node server: the client's address, its CORS policy). */
export type Handle = (request: Request, context?: RequestContext) => Promise<Response>;

export function createHandler({
  store,
  now = () => new Date(),
  onChange,
  changeStreams,
  limiter,
  readAhead,
  checkCallback,
  allowBootstrap = true,
  adminKeysFromDatasets = true,
  allowPrivateWebhooks = false,
  onUnexpectedError = (error) => console.error('questboard: unexpected error', error),
}: HandlerOptions): Handle {
  return async (request, context) => {
    try {
      return await answer(request, context);
    } catch (error) {
      if (error instanceof ApiError)
        return errorResponse(
          error.status === 401 && limiter
            ? await limiter.failedAuthentication(store, error, context?.clientAddress, now().getTime(), (unexpected) =>
                onUnexpectedError(unexpected, request),
              )
            : error,
        );
      // A bug: say so plainly and keep the details out of the answer.
      onUnexpectedError(error, request);
      return errorResponse(new ApiError(INTERNAL_ERROR));
    }
  };

  /**
   * The store's 503 (or a full disk's 507, answered 503 here) says why in words that name no host
   * (the health check is public); the database's own error stays in the log.
   */
  async function databaseAnswers(request: Request, context: RequestContext | undefined): Promise<void> {
    try {
      await store.ping(context?.transactionBegins);
    } catch (error) {
      if (error instanceof ApiError) throw error.status === 503 ? error : new ApiError(NOT_HEALTHY, { reason: error.message });
      onUnexpectedError(error, request);
      throw new ApiError(DATABASE_UNAVAILABLE, { since: '', then: "the server's log says why" });
    }
  }

  /**
   * The body of a POST, and the member who sends it. A large upload (an import) is read only for
   * a caller who may send it: a refused one is never taken in. A call with a member token is
   * admitted first too, for its app's keys: the token is verified outside any transaction
   * (WebCrypto's turns would let an IndexedDB transaction commit). Any other body, within
   * BODY_LIMIT, is read first and its key checked in the request's own transaction, which saves
   * every such write a transaction of its own; when that body is refused, the key is checked
   * first all the same, so a caller without a valid key learns nothing of the input rules.
   */
  async function readBody(
    request: Request,
    operation: Operation,
    keyText: string | null,
  ): Promise<{ member: string | null; raw: unknown }> {
    const limit = operation.bodyLimit ?? BODY_LIMIT;
    const token = request.headers.get(MEMBER_TOKEN_HEADER);
    const admitCaller = async () =>
      keyText === null ? null : await store.read((tx) => admit(tx, keyText, operation, allowBootstrap));
    const admittedFirst = limit > BODY_LIMIT || token !== null;
    const admitted = admittedFirst ? await admitCaller() : null;
    const member = admitted === null ? null : await verifyMemberToken(token, admitted.app, now());
    let sent: unknown;
    try {
      sent = await readJsonBody(request, limit);
    } catch (error) {
      if (error instanceof ApiError && !admittedFirst) {
        const late = await admitCaller();
        if (late !== null) throw noMemberToken(late.app);
      }
      throw error;
    }
    return { member, raw: member === null ? sent : memberBody(operation, sent, member) };
  }

  async function answer(request: Request, context: RequestContext | undefined): Promise<Response> {
    // A callback task's check (docs/quests.md) waits up to 10 s for the site, which may itself
    // call this API meanwhile: asked inside the write, it would hold the app's locks (PGlite's
    // one connection) all that while. So the write that needs one stops, rolled back, with the
    // question (AskOutside); the check is asked with no transaction open, and the write runs
    // again with its verdict, checking every other rule anew.
    let verdict: ReturnType<CheckCallback> | undefined;
    const checkOutside: CheckCallback | undefined =
      checkCallback &&
      ((task, member, app) => {
        if (verdict) return verdict;
        throw new AskOutside(() => checkCallback(task, member, app));
      });
    const url = new URL(request.url);
    const name = operationOf(url);
    const operation = name !== null && Object.hasOwn(operations, name) ? operations[name]! : undefined;
    if (!operation) throw new ApiError(UNKNOWN_OPERATION, { path: url.pathname });
    const method = request.method.toUpperCase();
    if (!operation.methods.includes(method as 'GET' | 'POST')) {
      const allow = operation.methods.join(', ');
      throw new ApiError(METHOD_NOT_ALLOWED, { method, allow }, { allow });
    }

    // Said before the key is read: a worker's store may know no key of the remote's.
    if (operation.streamsChanges && !changeStreams) throw new ApiError(NO_CHANGE_FEED);
    if (operation.scope !== null) limiter?.admitAuthentication(context?.clientAddress, now().getTime());
    const keyText = operation.scope === null ? null : bearerKey(request.headers.get('authorization'));
    const query = Object.fromEntries(url.searchParams);
    const { member, raw } = method === 'POST' ? await readBody(request, operation, keyText) : { member: null, raw: query };
    const idempotencyKey = operation.idempotent ? request.headers.get('idempotency-key') : null;

    const work = async (tx: Transaction) => {
      readAhead?.(tx, raw as Record<string, unknown>, operation, keyText, context, member);
      // Who asks comes first: a caller without a valid key learns nothing of the input rules.
      const { key, bootstrapped } =
        keyText === null ? { key: PUBLIC, bootstrapped: false } : await identify(tx, keyText, operation, raw, allowBootstrap);
      // A member's key was admitted with its token; any other needs the operation's scope.
      if (operation.scope !== null && member === null) {
        if (callsAsMember(key, operation)) throw noMemberToken(await tx.get('apps', key.app_id!));
        requireScope(key, operation.scope);
      }
      const time = now().getTime();
      const run = async () => {
        const call = {
          input: parse(operation.schema, raw),
          query: parse(operation.query, query),
          tx,
          key,
          now: time,
          request,
          mayAddAdminKeys: adminKeysFromDatasets || bootstrapped,
          allowsPrivateWebhooks: allowPrivateWebhooks,
          databaseAnswers: () => databaseAnswers(request, context),
          checkCallback: checkOutside,
        };
        if (idempotencyKey === null) return operation.run(call);
        // Of the input as parsed, so a retry that spells it otherwise (its parameters in another
        // order, an amount as 0.10 for 0.1) is the same request.
        const fingerprint = `${method} ${name} ${canonical(call.query)} ${canonical(call.input)}`;
        // Records written before that, of the request as it came, still answer a retry across the
        // upgrade within their day.
        const asWrittenBefore = `${method} ${name}${url.search} ${canonical(raw)}`;
        return once(tx, key.key_sha256, idempotencyKey, [fingerprint, asWrittenBefore], call.now, () => operation.run(call));
      };
      if (keyText === null) return run();
      // The guard's statements (a server's write limits) go out with the operation's first ones,
      // a round trip less. Its refusal (403, 429) is the answer whatever the operation did: all
      // of that is rolled back, and the operation acts on nothing outside the transaction. (So a
      // refused write costs what an admitted one does, in statements rolled back.)
      const guarded = guardRequest({ tx, key, member, writes: operation.transaction === 'write', context, limiter, now: time });
      const [outcome] = await Promise.allSettled([run(), guarded]);
      await guarded;
      if (outcome.status === 'rejected') throw outcome.reason;
      // An admin action is a POST: a GET that writes as it reads (admin/seasons freezing a season
      // that has ended) is the manager looking, which the log does not keep.
      if (operation.scope === 'admin' && operation.transaction === 'write' && method === 'POST' && !outcome.value.rollBack) {
        const clientAddress = context?.clientAddress ?? null;
        const action = { operation: name!, input: raw, key, at: time, clientAddress, changed: outcome.value.changed };
        await recordAdminAction(tx, action);
      }
      // A write's notices, where its store sends them with its commit (a server on PostgreSQL).
      tx.announce?.(outcome.value.changed);
      return outcome.value;
    };
    const inTransaction = async (tx: Transaction) => {
      context?.transactionBegins?.();
      const outcome = await work(tx);
      // Thrown, so the store rolls the transaction back; answered below.
      if (outcome.rollBack) throw new RolledBack(outcome);
      return outcome;
    };
    const write = (): Promise<Outcome> =>
      store.write(inTransaction, { durability: operation.durability }).catch(async (error: unknown) => {
        if (error instanceof RolledBack) return error.outcome;
        if (!(error instanceof AskOutside) || verdict) throw error;
        verdict = error.ask();
        await verdict;
        return write();
      });
    const outcome =
      operation.transaction === 'write'
        ? await write()
        : operation.transaction === 'read'
          ? await store.read(inTransaction)
          : await work(NO_TRANSACTION);

    if (outcome.changesOf !== undefined) return changeStreams!(outcome.changesOf, request);
    if (outcome.refusal) return errorResponse(outcome.refusal);
    for (const change of [outcome.changed ?? []].flat()) onChange?.({ type: 'questboard:change', ...change });
    return jsonResponse(outcome.status ?? 200, outcome.body);
  }
}

/** A question for a site, carried out of the write that needs its answer by the throw that rolls it back. */
class AskOutside {
  constructor(readonly ask: () => ReturnType<CheckCallback>) {}
}

/** A dry run's outcome, carried out of its transaction by the throw that rolls it back. */
class RolledBack {
  constructor(readonly outcome: Outcome) {}
}

/**
 * What an operation without a transaction gets: none of a transaction's methods, so that using
 * one fails, while asking for an optional one (announce) finds none.
 */
const NO_TRANSACTION = {} as Transaction;

/** Who calls an operation that needs no key. */
const PUBLIC: ApiKeyRecord = { key_sha256: '', app_id: null, scopes: [] };

function parse(schema: z.ZodMiniType, raw: unknown): any {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, raw);
  return parsed.data;
}

async function identify(
  tx: Transaction,
  key: string,
  operation: Operation,
  body: unknown,
  allowBootstrap: boolean,
): Promise<{ key: ApiKeyRecord; bootstrapped: boolean }> {
  try {
    return { key: await authenticate(tx, key), bootstrapped: false };
  } catch (error) {
    // The first dataset brings the first admin key: nothing else could.
    const listed = (body as { admin_keys?: unknown }).admin_keys;
    const bootstrap =
      allowBootstrap && operation.bootstrap && Array.isArray(listed) && listed.includes(key) && (await isEmpty(tx));
    if (bootstrap) return { key: adminKeyRecord(sha256Hex(key)), bootstrapped: true };
    throw error;
  }
}

/**
 * Before a body is read: the key is known and carries the scope, or the store
 * is empty for a bootstrap. On a server that takes none, an empty store knows
 * no key at all, so its operator is told how to give it one. A key that calls
 * as a member is admitted with its app, whose keys its token must verify with.
 */
async function admit(
  tx: Transaction,
  key: string,
  operation: Operation,
  allowBootstrap: boolean,
): Promise<{ app: AppRecord | undefined } | null> {
  if (operation.bootstrap && (await isEmpty(tx))) {
    if (allowBootstrap) return null;
    throw new ApiError(NO_ADMIN_KEY_YET);
  }
  const record = await authenticate(tx, key);
  if (callsAsMember(record, operation)) return { app: await tx.get('apps', record.app_id!) };
  requireScope(record, operation.scope!);
  return null;
}
