// Test support: the API through the real service worker, or through the same
// handler in the page with a pinned clock and a database of its own; or, when
// the run names a SQL adapter (QB_API_ADAPTER, scripts/wtr-api-adapter.js),
// through the Questboard server over HTTP on a database of its own.
import { executeServerCommand } from '@web/test-runner-commands';
import { deleteDB, openDB, type IDBPDatabase } from 'idb';
import type { ChangeNotice } from '../../src/api/broadcast.js';
import { createHandler } from '../../src/handler/handler.js';
import { openIndexedDbStore } from '../../src/store/indexeddb/index.js';

export interface Answer {
  status: number;
  headers: Headers;
  /** The raw response text, for checks on the exact wire format. */
  text: string;
  body: any;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

export const ADMIN_KEY = 'sk_admin';

function buildRequest(base: string, method: string, path: string, { key = ADMIN_KEY, body, headers = {} }: CallOptions) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (key !== null) (init.headers as Record<string, string>).authorization = `Bearer ${key}`;
  if (body !== undefined) {
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    // Text and bytes go as they are (bytes: what no string can carry, such as invalid UTF-8).
    init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
  }
  return new Request(new URL(path, base), init);
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** The store the API runs on in this run: the page's IndexedDB, or the server's PGlite or PostgreSQL. */
export const API_ADAPTER = (await executeServerCommand<
  { adapter: 'indexeddb' | 'pglite' | 'postgres'; base: string | null },
  void
>('api-adapter'))!;
/** Tests of the IndexedDB adapter itself: skipped, by name, where the API runs on the server's SQL store. */
export const itOnIndexedDb = API_ADAPTER.adapter === 'indexeddb' ? it : it.skip;

/**
 * The API in the page: same handler, pinned clock, a database of its own, or in the page the
 * database named (`database`: another connection to it, as another tab's handler has).
 */
export function localApi(clock: { now: number } = { now: Date.now() }, { database }: { database?: string } = {}) {
  return API_ADAPTER.base === null ? inPageApi(clock, database) : serverApi(API_ADAPTER.base, clock);
}

function inPageApi(clock: { now: number }, name = `questboard-test-${crypto.randomUUID()}`) {
  /** A connection of the test's own to the store's database, closed after `work`. */
  const withDatabase = async <T>(work: (db: IDBPDatabase) => Promise<T>): Promise<T> => {
    const db = await openDB(name);
    try {
      return await work(db);
    } finally {
      db.close();
    }
  };
  const store = openIndexedDbStore({ name });
  const changes: ChangeNotice[] = [];
  const handle = createHandler({ store, now: () => new Date(clock.now), onChange: (change) => changes.push(change) });
  const call: Call = async (method, path, options = {}) =>
    read(await handle(buildRequest('https://questboard.test/', method, path, options)));
  return {
    call,
    changes,
    clock,
    /** The database's name, for tests that look at what it holds. */
    name,
    /** The idempotency records the store holds, oldest first. */
    idempotencyRecords: (): Promise<{ api_key: string; idempotency_key: string }[]> =>
      withDatabase((db) => db.getAllFromIndex('idempotency', 'by_created')),
    /** The API key records as the store keeps them, each as its text. */
    storedApiKeys: (): Promise<string[]> =>
      withDatabase(async (db) => (await db.getAll('api_keys')).map((record) => JSON.stringify(record))),
    /** A meta record as the store keeps it (admin keys, …). */
    readMeta: (key: string): Promise<unknown> => withDatabase((db) => db.get('meta', key)),
    /** Overwrites a meta record, as an older version of the store may have written it. */
    writeMeta: (key: string, value: unknown): Promise<void> =>
      withDatabase(async (db) => void (await db.put('meta', value, key))),
    async close() {
      await store.close();
      await deleteDB(name);
    },
  };
}

/** The same API through the Questboard server: a database of its own, the clock sent with each request. */
function serverApi(proxy: string, clock: { now: number }) {
  const changes: ChangeNotice[] = [];
  const database = fetch(`${proxy}/_test/databases`, { method: 'POST' }).then(async (response) => {
    const { base } = (await response.json()) as { base: string };
    return `${location.origin}${proxy}${base}/`;
  });
  const call: Call = async (method, path, options = {}) => {
    const base = await database;
    const headers = { 'x-questboard-test-now': String(clock.now), ...options.headers };
    const answer = await read(await fetch(buildRequest(base, method, path.replace(/^\//, ''), { ...options, headers })));
    changes.push(...((await (await fetch(`${base}_test/changes`)).json()) as ChangeNotice[]));
    return answer;
  };
  return {
    call,
    changes,
    clock,
    name: '',
    async idempotencyRecords(): Promise<{ api_key: string; idempotency_key: string }[]> {
      return (await fetch(`${await database}_test/idempotency-records`)).json();
    },
    async storedApiKeys(): Promise<string[]> {
      return (await fetch(`${await database}_test/api-keys`)).json();
    },
    async readMeta(key: string): Promise<unknown> {
      return ((await (await fetch(`${await database}_test/meta?key=${encodeURIComponent(key)}`)).json()) as { value: unknown })
        .value;
    },
    async writeMeta(key: string, value: unknown): Promise<void> {
      await fetch(`${await database}_test/meta?key=${encodeURIComponent(key)}`, { method: 'POST', body: JSON.stringify(value) });
    },
    async close() {
      await fetch(await database, { method: 'DELETE' });
    },
  };
}

/** The API through the real service worker registered on this page. */
export const workerCall: Call = async (method, path, options = {}) =>
  read(await fetch(buildRequest(location.origin, method, path, options)));

/**
 * Registers the worker and waits until its active worker controls this page. Right after an
 * unregister the page may still be controlled by the old worker, or the registration may have
 * no active worker yet; engines differ in which (Firefox and Chromium do), so wait for both.
 */
export async function registerWorker(): Promise<ServiceWorkerRegistration> {
  const registration = await navigator.serviceWorker.register('/questboard-sw.js', { scope: '/' });
  while (registration.active === null || navigator.serviceWorker.controller !== registration.active) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return registration;
}

/** Leaves the browser context as it was: no worker, no database. */
export async function unregisterWorker(): Promise<void> {
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
  // The worker lets go of the database when asked to (its `blocking` handler).
  await deleteDB('questboard');
}

export const WEDNESDAY = Date.UTC(2026, 10, 18, 12, 0, 0); // week of Monday 2026-11-16
export const iso = (epochMs: number) => new Date(epochMs).toISOString();

export const GUIDS = {
  onboarding: '11111111-1111-4111-8111-111111111111',
  posts: '21111111-1111-4111-8111-111111111111',
  bigPost: '22111111-1111-4111-8111-111111111111',
  checkIn: '23111111-1111-4111-8111-111111111111',
  profile: '24111111-1111-4111-8111-111111111111',
  future: '31111111-1111-4111-8111-111111111111',
  futureTask: '32111111-1111-4111-8111-111111111111',
  otherChallenge: '41111111-1111-4111-8111-111111111111',
  otherTask: '42111111-1111-4111-8111-111111111111',
};

export const HOSTILE_NAME = `"><img src=x onerror=alert(1)>'&`;

/** Two apps, keys of every scope, four task kinds and a challenge not started yet. */
export function dataset(now: number) {
  return {
    admin_keys: [ADMIN_KEY],
    apps: [
      {
        app_id: 'guild',
        name: 'Builders Guild',
        api_keys: [
          { key: 'pk_read', scopes: ['read'] },
          { key: 'pk_write', scopes: ['read', 'write'] },
          { key: 'pk_ledger', scopes: ['ledger'] },
          { key: 'pk_guild_admin', scopes: ['admin', 'read'] },
        ],
        treasury: { account_id: '0.0.1001', balance: '250.5' },
        settings: { endorsement_xp: 5 },
        users: [
          { account_name: 'alice', twitter_name: 'alice_x', joined_at: iso(now - 30 * 86_400_000) },
          { account_name: 'bob', joined_at: iso(now - 29 * 86_400_000) },
          { account_name: 'carol', joined_at: iso(now - 28 * 86_400_000) },
          { account_name: HOSTILE_NAME, joined_at: iso(now - 27 * 86_400_000) },
        ],
        challenges: [
          {
            challenge_id: GUIDS.onboarding,
            name: 'Onboarding',
            description: 'Find your feet in the guild.',
            start_date: '2026-01-01T00:00:00Z',
            create_date: '2026-01-01T00:00:00Z',
            points: 50,
            tasks: [
              {
                task_id: GUIDS.posts,
                name: 'Post 3 times',
                quantity: 3,
                operator: 0,
                metadata: { action: 'post' },
                points: 10,
                create_date: '2026-01-01T00:00:00Z',
              },
              { task_id: GUIDS.bigPost, name: 'One long post', quantity: 5, operator: 1, points: 20 },
              { task_id: GUIDS.checkIn, name: 'Daily check-in', quantity: 1, operator: 0, points: 5, allowretry: true },
              {
                task_id: GUIDS.profile,
                name: 'Profile complete',
                quantity: 10,
                operator: 0,
                points: 15,
                alloweditquantity: true,
              },
            ],
          },
          {
            challenge_id: GUIDS.future,
            name: 'Next season',
            start_date: '2099-01-01T00:00:00Z',
            tasks: [{ task_id: GUIDS.futureTask, name: 'Later', quantity: 1, operator: 0 }],
          },
        ],
      },
      {
        app_id: 'other',
        api_keys: [{ key: 'pk_other', scopes: ['read', 'write', 'ledger', 'admin'] }],
        users: [{ account_name: 'zed' }],
        challenges: [
          {
            challenge_id: GUIDS.otherChallenge,
            name: 'Other',
            start_date: '2026-01-01T00:00:00Z',
            tasks: [{ task_id: GUIDS.otherTask, name: 'Other task', quantity: 1, operator: 0 }],
          },
        ],
      },
    ],
  };
}

export const seed = (call: Call, now: number) => call('POST', '/v1/admin/import', { body: dataset(now) });

/**
 * An app whose members are named `names`, with a repeatable 5-point check-in and a task nobody
 * does (it keeps the challenge's own points out of the boards): the leaderboard tests' usual app.
 */
export function checkInApp(app_id: string, names: string[]) {
  return {
    app_id,
    users: names.map((account_name) => ({ account_name, joined_at: iso(Date.UTC(2026, 0, 1)) })),
    challenges: [
      {
        name: 'c',
        start_date: '2026-01-01T00:00:00Z',
        tasks: [
          { task_id: GUIDS.checkIn, name: 'Check in', quantity: 1, operator: 0, points: 5, allowretry: true },
          { task_id: GUIDS.posts, name: 'Never', quantity: 1, operator: 0 },
        ],
      },
    ],
  };
}
