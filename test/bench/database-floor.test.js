// The server benchmark's floor under the seeding (bench/database-floor.js) inserts again the
// very rows the imports wrote: after it, every member, progress, challenge and log row of every
// app is there once, as before, each member's logs in the order appended; chunks that cut the
// members unevenly lose none and repeat none. On PostgreSQL, where the benchmark measures it.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import postgres from 'postgres';
import { ADMIN_KEY, appFor, importBody } from '../../bench/dataset.js';
import { databaseFloor } from '../../bench/database-floor.js';
import { callHandler } from '../handler-call.js';
import { sharedDatabase } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
/** Two apps, seeded one after the other in imports of IMPORTED members, as the benchmark seeds its sizes. */
const APPS = [appFor(300, 0), appFor(170, 1)];
const IMPORTED = 100;
/** Members a transaction of the floor: divides neither app's members. */
const CHUNK = 70;

const database = sharedDatabase('questboard_floor');
/** @type {typeof import('../../src/handler/handler.js') & typeof import('../../src/store/sql/index.js')} */
let source;
before(async () => {
  source = await importSource('src/handler/handler.ts', 'src/store/sql/index.ts');
});
after(() => database.drop());

/**
 * Every row of the member tables, without the log's sequence: each member's logs in their order.
 * @param {string} url
 */
async function memberRows(url) {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return {
      users: await sql`SELECT * FROM users ORDER BY app_id, account_name`,
      progress: await sql`SELECT * FROM progress ORDER BY task_id, account_name`,
      member_challenges: await sql`SELECT * FROM member_challenges ORDER BY challenge_id, account_name`,
      logs: await sql`SELECT app_id, account_name, record FROM logs ORDER BY app_id, account_name, seq`,
    };
  } finally {
    await sql.end();
  }
}

it("inserts again every member row the imports wrote, once, each member's logs in their order", async (t) => {
  const db = await database.orSkip(t);
  if (!db) return;
  const store = await source.openSqlStore({ databaseUrl: db.url });
  try {
    const handle = source.createHandler({ store, now: () => new Date(NOW) });
    for (const app of APPS) {
      for (let start = 0; start < app.size; start += IMPORTED) {
        const body = importBody(app, start, Math.min(app.size, start + IMPORTED), NOW, { bringsAdminKey: true });
        const answer = await callHandler(handle, 'POST', '/v1/admin/import', ADMIN_KEY, body);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      }
    }
  } finally {
    await store.close();
  }
  const seeded = await memberRows(db.url);
  for (const [table, rows] of Object.entries(seeded)) assert.ok(rows.length > 0, `the imports wrote no ${table}`);

  const floors = await databaseFloor({ databaseUrl: db.url, appIds: APPS.map((app) => app.appId), chunk: CHUNK });

  assert.deepEqual(await memberRows(db.url), seeded);
  for (const app of APPS) {
    const floor = /** @type {{ members: number, seconds: number }} */ (floors.get(app.appId));
    assert.equal(floor.members, app.size);
    assert.ok(floor.seconds > 0);
  }
});
