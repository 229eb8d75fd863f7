// The durable outbox of webhook deliveries (docs/quests.md, Webhooks): a row per event and
// endpoint subscribed to it, inserted by the write that made the event happen, in its own
// transaction (transaction.ts), so an event is kept exactly when its change commits. The
// server's delivery (src/server/webhook-delivery.ts) claims due rows, sends them, and says
// how each attempt went.
//
// Several server processes share one PostgreSQL database: a claim takes due rows FOR UPDATE
// SKIP LOCKED and leases them (lease_until) before any is sent, so no two processes send one
// delivery at once. A process killed mid-attempt leaves its lease to run out; the row is then
// due again, with the same webhook-id (at least once).
//
// A row keeps no secret: a claim reads the app's endpoints and hands each attempt its endpoint
// as it is then, whose secrets sign it (src/server/webhook-delivery.ts), so a secret changed
// since the event signs its retries, and a delivery to an endpoint removed since, or no longer
// subscribed to its event's type, fails unsent: the site said it wants no more of them.
import type { WebhookEvent } from '../../api/webhook-events.js';
import type { AppRecord, WebhookDeliveryRecord, WebhookEndpointRecord } from '../records.js';
import { sql, type SqlDriver, type SqlSession } from './sql.js';

/**
 * The wait after each failed attempt, in order: the first retry within 10 s, then growing to
 * hours. After the last, the delivery is failed: 11 attempts over about 21 hours and 43 minutes.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  3_600_000,
  2 * 3_600_000,
  4 * 3_600_000,
  6 * 3_600_000,
  8 * 3_600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Delivered and failed rows are kept this long for GET /v1/admin/webhook_deliveries, then deleted. */
export const KEPT_FOR_MS = 30 * 24 * 3_600_000;

/** The last_error of a delivery whose endpoint was removed from its app before it was sent. */
const ENDPOINT_REMOVED = 'the endpoint was removed';
/** The last_error of a delivery whose endpoint's events no longer include its type. */
const EVENT_UNSUBSCRIBED = 'the endpoint no longer subscribes to this event';

/** A row of the outbox as a write inserts it. */
interface OutboxRow {
  id: string;
  app_id: string;
  url: string;
  type: string;
  body: string;
  created_at: number;
}

/** The rows an event makes: one per endpoint of its app subscribed to its type; none without one. */
export function outboxRows(event: WebhookEvent, app: AppRecord): OutboxRow[] {
  const endpoints = (app.webhooks ?? []).filter((endpoint) => (endpoint.events as string[]).includes(event.type));
  if (endpoints.length === 0) return [];
  // The body every attempt sends, made once: its signature covers these very bytes.
  const body = JSON.stringify({ type: event.type, timestamp: new Date(event.at).toISOString(), data: event.data });
  return endpoints.map(({ url }) => ({
    id: `msg_${crypto.randomUUID().replaceAll('-', '')}`,
    app_id: event.app_id,
    url,
    type: event.type,
    body,
    created_at: event.at,
  }));
}

/** Inserts the rows in one statement. */
export async function insertOutboxRows(session: SqlSession, rows: OutboxRow[]): Promise<void> {
  const column = <K extends keyof OutboxRow>(name: K) => rows.map((row) => row[name]);
  await session.query(sql`
    INSERT INTO webhook_deliveries (id, app_id, url, type, body, created_at, next_at)
    SELECT id, app_id, url, type, body, created_at, created_at
    FROM unnest(${column('id')}::text[], ${column('app_id')}::text[], ${column('url')}::text[],
      ${column('type')}::text[], ${column('body')}::text[], ${column('created_at')}::float8[])
      AS row(id, app_id, url, type, body, created_at)`);
}

interface DeliveryRow {
  id: string;
  app_id: string;
  type: string;
  url: string;
  status: WebhookDeliveryRecord['status'];
  attempts: number;
  created_at: number;
  next_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

const iso = (epochMs: number | null) => (epochMs === null ? null : new Date(epochMs).toISOString());

const asRecord = (row: DeliveryRow): WebhookDeliveryRecord => ({
  delivery_id: row.id,
  app_id: row.app_id,
  type: row.type,
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  created_at: iso(row.created_at)!,
  next_attempt_at: row.status === 'pending' ? iso(row.next_at) : null,
  last_attempt_at: iso(row.last_attempt_at),
  last_status: row.last_status,
  last_error: row.last_error,
  delivered_at: iso(row.delivered_at),
});

/** The app's deliveries, newest first. */
export async function listDeliveries(
  session: SqlSession,
  app_id: string,
  offset: number,
  limit: number,
): Promise<WebhookDeliveryRecord[]> {
  const rows = await session.query<DeliveryRow>(sql`
    SELECT id, app_id, type, url, status, attempts, created_at, next_at, last_attempt_at, last_status, last_error, delivered_at
    FROM webhook_deliveries WHERE app_id = ${app_id}::text
    ORDER BY created_at DESC, id DESC OFFSET ${offset}::integer LIMIT ${limit}::integer`);
  return rows.map(asRecord);
}

/** Makes the delivery due at `now`, its attempts counted anew; false when the app has no such delivery. */
export async function redeliver(session: SqlSession, app_id: string, id: string, now: number): Promise<boolean> {
  const rows = await session.query(sql`
    UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_at = ${now}::float8, lease_until = 0
    WHERE id = ${id}::text AND app_id = ${app_id}::text RETURNING id`);
  return rows.length > 0;
}

/** A delivery leased to this process for one attempt. */
export interface ClaimedDelivery {
  id: string;
  app_id: string;
  url: string;
  /** The endpoint as the claim read it: its secrets sign this attempt (core/webhook-secrets.ts). */
  endpoint: WebhookEndpointRecord;
  body: string;
  /** This attempt's number, from 1. */
  attempt: number;
  /** The lease, which finishing the attempt names: a lease run out and taken by another process is theirs. */
  lease_until: number;
}

/** How an attempt went: answered (with its status), or not (with why). */
export type AttemptOutcome = { status: number; error?: string } | { status: null; error: string };

/** The outbox as the server's delivery sees it. */
export interface WebhookOutbox {
  /**
   * Leases up to `limit` deliveries due at `now` for `leaseMs`, each counted as an attempt; those
   * whose endpoint its app no longer has (ENDPOINT_REMOVED), or whose endpoint no longer takes their
   * event's type (EVENT_UNSUBSCRIBED), fail instead, unsent, and are not returned.
   */
  claim(now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome: delivered on a 2xx; otherwise due again after its delay, or failed after the last. */
  finish(delivery: ClaimedDelivery, outcome: AttemptOutcome, now: number): Promise<void>;
  /**
   * Ends every lease: for a store no other process shares (PGlite, its data directory locked),
   * whose leases at start are a killed process's, due again at once.
   */
  releaseLeases(): Promise<void>;
  /** Deletes deliveries no longer pending recorded before `before`. */
  forget(before: number): Promise<void>;
  /** When the pending delivery due first is due, or null when none is pending. */
  nextDue(): Promise<number | null>;
  /** Calls `listener` after each write that recorded deliveries commits; returns what stops it. */
  onRecorded(listener: () => void): () => void;
}

/** The outbox over the store's driver; `recorded` is what the store calls after a write that recorded deliveries. */
export function webhookOutbox(driver: SqlDriver, transform: (session: SqlSession) => SqlSession) {
  const listeners = new Set<() => void>();
  const write = <T>(work: (session: SqlSession) => Promise<T>) =>
    driver.transaction('write', (session) => work(transform(session)));
  const outbox: WebhookOutbox = {
    claim: (now, limit, leaseMs) =>
      write(async (session) => {
        const rows = await session.query<Omit<ClaimedDelivery, 'attempt' | 'endpoint'> & { type: string; attempts: number }>(sql`
          UPDATE webhook_deliveries SET lease_until = ${now + leaseMs}::float8, attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM webhook_deliveries
            WHERE status = 'pending' AND next_at <= ${now}::float8 AND lease_until <= ${now}::float8
            ORDER BY next_at LIMIT ${limit}::integer FOR UPDATE SKIP LOCKED)
          RETURNING id, app_id, url, type, body, attempts, lease_until`);
        if (rows.length === 0) return [];
        // The endpoints of every app in the batch, in one read.
        const apps = await session.query<{ record: string }>(
          sql`SELECT record FROM apps WHERE app_id = ANY(${[...new Set(rows.map((row) => row.app_id))]}::text[])`,
        );
        const endpoints = new Map(
          apps.flatMap(({ record }) => {
            const app = JSON.parse(record) as AppRecord;
            return (app.webhooks ?? []).map((endpoint) => [`${app.app_id} ${endpoint.url}`, endpoint] as const);
          }),
        );
        const claimed: ClaimedDelivery[] = [];
        const unsent = new Map<string, string[]>([
          [ENDPOINT_REMOVED, []],
          [EVENT_UNSUBSCRIBED, []],
        ]);
        for (const { attempts, type, ...row } of rows) {
          const endpoint = endpoints.get(`${row.app_id} ${row.url}`);
          if (endpoint === undefined) unsent.get(ENDPOINT_REMOVED)!.push(row.id);
          else if (!(endpoint.events as string[]).includes(type)) unsent.get(EVENT_UNSUBSCRIBED)!.push(row.id);
          else claimed.push({ ...row, endpoint, attempt: attempts });
        }
        for (const [why, ids] of unsent) {
          if (ids.length === 0) continue;
          await session.query(sql`
            UPDATE webhook_deliveries SET status = 'failed', lease_until = 0, attempts = attempts - 1, next_at = ${now}::float8,
              last_error = ${why}::text
            WHERE id = ANY(${ids}::text[])`);
        }
        return claimed;
      }),
    finish: (delivery, outcome, now) =>
      write(async (session) => {
        const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
        const delay = RETRY_DELAYS_MS[delivery.attempt - 1];
        const status = delivered ? 'delivered' : delay === undefined ? 'failed' : 'pending';
        await session.query(sql`
          UPDATE webhook_deliveries SET status = ${status}::text, lease_until = 0,
            next_at = ${status === 'pending' ? now + delay! : now}::float8, last_attempt_at = ${now}::float8,
            last_status = ${outcome.status}::integer, last_error = ${outcome.error ?? null}::text,
            delivered_at = ${delivered ? now : null}::float8
          WHERE id = ${delivery.id}::text AND lease_until = ${delivery.lease_until}::float8`);
      }),
    releaseLeases: () =>
      write(async (session) => {
        await session.query(sql`UPDATE webhook_deliveries SET lease_until = 0 WHERE status = 'pending' AND lease_until > 0`);
      }),
    forget: (before) =>
      write(async (session) => {
        await session.query(sql`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < ${before}::float8`);
      }),
    nextDue: () =>
      driver.transaction('read', async (session) => {
        const [row] = await transform(session).query<{ next_at: number | null }>(
          sql`SELECT min(greatest(next_at, lease_until)) AS next_at FROM webhook_deliveries WHERE status = 'pending'`,
        );
        return row?.next_at ?? null;
      }),
    onRecorded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    outbox,
    recorded: () => {
      for (const listener of listeners) listener();
    },
  };
}
