// For the browser tests only: the API suite runs against the Questboard server
// on a SQL store exactly as it runs against the handler in the page, one
// database per test. The server holds many such databases, each a schema of
// one PostgreSQL database (--database-url) or of one PGlite in memory:
//   POST   /_test/databases            → { base } a fresh database; its API is at <base>/v1/…
//   GET    <base>/_test/changes         the change notices since the last call, for tests that check them
//   GET    <base>/_test/idempotency-records   the idempotency records it holds: [{ api_key, idempotency_key }]
//   GET    <base>/_test/api-keys        the rows of its api_keys table, each as its columns' text
//   GET    <base>/_test/meta?key=K       { value } of a meta record; POST sets it to the JSON body
//   DELETE <base>                       drops it
// A request may carry X-Questboard-Test-Now (epoch ms): the clock that request
// sees, as the in-page tests pin theirs.
import { AsyncLocalStorage } from 'node:async_hooks';
import { parseArgs } from 'node:util';
import type { ChangeNotice } from '../../src/api/broadcast.js';
import { createHandler, type Handle } from '../../src/handler/handler.js';
import { createReadAhead } from '../../src/handler/read-ahead.js';
import { jsonResponse } from '../../src/handler/http.js';
import type { Store } from '../../src/store/index.js';
import { openSqlStore } from '../../src/store/sql/index.js';
import { pgliteDriver } from '../../src/store/sql/pglite-driver.js';
import { postgresDriver } from '../../src/store/sql/postgres-driver.js';
import { startHttpHost } from '../../src/server/http-host.js';
import { createLogger } from '../../src/server/logger.js';

const { values } = parseArgs({ options: { 'database-url': { type: 'string' }, port: { type: 'string' } } });
const url = values['database-url'];
const driver = url === undefined ? await pgliteDriver() : postgresDriver({ url });
const requestNow = new AsyncLocalStorage<number>();

interface TestDatabase {
  store: Store;
  handle: Handle;
  changes: ChangeNotice[];
}
const databases = new Map<string, TestDatabase>();
let created = 0;

const handle: Handle = async (request) => {
  const { pathname } = new URL(request.url);
  if (pathname === '/_test/databases' && request.method === 'POST') {
    const schema = `test_${process.pid}_${++created}`;
    const store = await openSqlStore({ driver, schema });
    const changes: ChangeNotice[] = [];
    const now = () => new Date(requestNow.getStore() ?? Date.now());
    databases.set(schema, {
      store,
      handle: createHandler({ store, now, onChange: (change) => changes.push(change), readAhead: createReadAhead(now) }),
      changes,
    });
    return jsonResponse(200, { base: `/_db/${schema}` });
  }
  const [, prefix, schema, ...rest] = pathname.split('/');
  const database = prefix === '_db' ? databases.get(schema!) : undefined;
  if (!database) return jsonResponse(404, { is_valid: false, message: `No test database at ${pathname}.` });
  if (request.method === 'DELETE' && rest.length === 0) {
    databases.delete(schema!);
    await driver.transaction('write', (session) => session.query({ text: `DROP SCHEMA "${schema}" CASCADE`, values: [] }));
    return jsonResponse(200, { dropped: schema });
  }
  if (rest.join('/') === '_test/changes') return jsonResponse(200, database.changes.splice(0));
  if (rest.join('/') === '_test/idempotency-records') {
    const text = `SELECT api_key, idempotency_key FROM "${schema}".idempotency ORDER BY created_at`;
    return jsonResponse(200, await driver.transaction('read', (session) => session.query({ text, values: [] })));
  }
  if (rest.join('/') === '_test/api-keys') {
    const text = `SELECT row_to_json(api_keys)::text AS row FROM "${schema}".api_keys`;
    const rows = await driver.transaction('read', (session) => session.query<{ row: string }>({ text, values: [] }));
    return jsonResponse(
      200,
      rows.map(({ row }) => row),
    );
  }
  if (rest.join('/') === '_test/meta') {
    const key = new URL(request.url).searchParams.get('key') ?? '';
    if (request.method === 'POST') {
      const value: unknown = await request.json();
      await database.store.write((tx) => tx.putMeta(key, value));
    }
    return jsonResponse(200, { value: (await database.store.read((tx) => tx.getMeta(key))) ?? null });
  }
  const pinned = Number(request.headers.get('x-questboard-test-now'));
  return requestNow.run(Number.isFinite(pinned) && pinned > 0 ? pinned : Date.now(), () => database.handle(request));
};

const host = await startHttpHost(handle, {
  host: '127.0.0.1',
  port: Number(values.port ?? 0),
  corsOrigins: ['*'],
  requestTimeoutMs: 30_000,
  logger: createLogger('warn'),
});
console.log(`Questboard test databases (${url === undefined ? 'PGlite' : 'PostgreSQL'}) listening on ${host.url}`);
process.once('SIGTERM', () => {
  void host
    .close()
    .then(() => driver.close())
    .then(() => process.exit(0));
});
