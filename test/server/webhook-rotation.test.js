// A webhook secret rotated (docs/quests.md, Rotating a secret), on PGlite and on PostgreSQL: the
// outbox keeps no secret, so a delivery recorded before the rotation is retried signed with the
// new secret, and for a day with the old one too (the server's clock moved on by the test hooks,
// not waited for); the old secret is never exported; a delivery to an endpoint removed since it
// was recorded fails unsent. Signatures checked with the standardwebhooks package.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createDatabase } from '../../scripts/postgres.js';
import { postgresOrSkip } from '../postgres-or-skip.js';
import { importSource } from '../source-module.js';
import { startServer } from './reference-server.js';
import { startReceiver } from './webhook-receiver.js';

const ADMIN = 'sk_rotation_admin';
const OLD_SECRET = `whsec_${Buffer.from('the secret before the rotation..').toString('base64')}`;
const NEW_SECRET = `whsec_${Buffer.from('the secret after the rotation...').toString('base64')}`;
const STAYING_SECRET = `whsec_${Buffer.from('the secret of the endpoint kept.').toString('base64')}`;
const TASK = '22222222-2222-4222-8222-222222222222';
/** A task that completes at every log: each log is one task.completed. */
const REPEATED = '33333333-3333-4333-8333-333333333333';
const DAY_MS = 24 * 3_600_000;

/** @import { Received } from './webhook-receiver.js' */
/** @import { WebhookDelivery } from '../../src/api/admin-responses.js' */
/** @import { SqlDriver } from '../../src/store/sql/sql.js' */
/** @type {typeof import('../../src/store/sql/index.js')} */
let sql;
before(async () => {
  sql = await importSource('src/store/sql/index.ts');
});

/** @type {string[]} */
const files = [];
after(() => Promise.all(files.map((path) => rm(path, { recursive: true, force: true }))));

/**
 * A dataset file whose app has the webhooks given.
 * @param {{ url: string, secret: string, events: string[] }[]} webhooks
 */
async function datasetFile(webhooks) {
  const directory = await mkdtemp(join(tmpdir(), 'questboard-rotation-'));
  files.push(directory);
  const path = join(directory, 'dataset.json');
  const dataset = {
    admin_keys: [ADMIN],
    apps: [
      {
        app_id: 'hooks',
        settings: { webhooks, rate_limits: { per_key: null, per_member: null, per_ip: null } },
        users: [{ account_name: 'alice' }],
        challenges: [
          {
            challenge_id: '11111111-1111-4111-8111-111111111111',
            name: 'Welcome',
            tasks: [
              { task_id: TASK, name: 'Say hello', quantity: 1, operator: 0, points: 0 },
              { task_id: REPEATED, name: 'Post', quantity: 1, operator: 0, points: 0, allowretry: true },
            ],
          },
        ],
      },
    ],
  };
  await writeFile(path, JSON.stringify(dataset));
  return path;
}

/**
 * A call to a server on `port` with the admin key.
 * @param {number} port
 */
const call =
  (port) =>
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   */
  async (method, path, body) => {
    const response = await fetch(`http://127.0.0.1:${port}/${path.startsWith('_test/') ? '' : 'v1/'}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

/** @typedef {ReturnType<typeof call>} Api */

/**
 * @param {Api} api
 * @param {string} task_id
 */
const logTask = (api, task_id) => api('POST', 'admin/log_task', { task_id, account_name: 'alice', quantity: 1 });

/**
 * The app's webhooks replaced by a merge import, as a site's admin changes them.
 * @param {Api} api
 * @param {{ url: string, secret: string, events: string[] }[]} webhooks
 */
const saveWebhooks = (api, webhooks) => api('POST', 'admin/import', { apps: [{ app_id: 'hooks', settings: { webhooks } }] });

/**
 * Whether the delivery verifies with `secret` (the standardwebhooks package).
 * @param {Received} delivery
 * @param {string} secret
 * @returns {boolean}
 */
function verifiesWith(delivery, secret) {
  try {
    new Webhook(secret.slice('whsec_'.length)).verify(delivery.body, delivery.headers);
    return true;
  } catch {
    return false;
  }
}

/** @param {Received} delivery */
const signatureCount = (delivery) => delivery.headers['webhook-signature'].split(' ').length;

/** A promise and what resolves it: an answer the receiver holds back until the test has changed the setting. */
function held() {
  /** @type {() => void} */
  let release = () => {};
  /** @type {Promise<void>} */
  const promise = new Promise((resolve) => (release = () => resolve()));
  return { promise, release };
}

/**
 * The app's deliveries once `done` holds of them: attempts are recorded just after their answer,
 * so the list is asked again until it shows them (at most 20 s).
 * @param {Api} api
 * @param {(deliveries: WebhookDelivery[]) => boolean} done
 * @returns {Promise<WebhookDelivery[]>}
 */
async function deliveriesOnce(api, done) {
  for (let asked = 0; asked < 200; asked++) {
    const { deliveries } = (await api('GET', 'admin/webhook_deliveries?app_id=hooks&limit=100')).body;
    if (done(deliveries)) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail('the deliveries never got there');
}

/** Each store the server runs on: its arguments and a driver to read it with once stopped, or null where it cannot run here. */
/** @type {Record<string, (t: import('node:test').TestContext) => Promise<{ args: string[], openDriver: () => SqlDriver | Promise<SqlDriver> } | null>>} */
const STORES = {
  PGlite: async () => {
    const directory = await mkdtemp(join(tmpdir(), 'questboard-rotation-data-'));
    files.push(directory);
    return { args: ['--data-dir', directory], openDriver: () => sql.pgliteDriver(directory) };
  },
  PostgreSQL: async (t) => {
    if (!(await postgresOrSkip(t))) return null;
    const database = await createDatabase('questboard_rotation');
    after(() => database.drop());
    return { args: ['--database-url', database.url], openDriver: () => sql.postgresDriver({ url: database.url }) };
  },
};

/**
 * Every row of the outbox, each column's value as text, read once the server has stopped.
 * @param {() => SqlDriver | Promise<SqlDriver>} openDriver
 */
async function outboxRows(openDriver) {
  const driver = await openDriver();
  try {
    return await driver.transaction('read', (session) =>
      session.query({ text: 'SELECT * FROM webhook_deliveries ORDER BY created_at', values: [] }),
    );
  } finally {
    await driver.close();
  }
}

for (const [name, storage] of Object.entries(STORES)) {
  describe(`webhook secrets rotated on ${name}`, () => {
    it('retries a delivery recorded before the rotation signed with the new secret, the old one too for a day only', async (t) => {
      const store = await storage(t);
      if (store === null) return;
      const rotated = held();
      // The first attempt is answered (500) once the secret has changed: its retry comes after.
      const receiver = await startReceiver((_, index) => (index === 0 ? rotated.promise.then(() => 500) : 204));
      const endpoint = { url: receiver.url, secret: OLD_SECRET, events: ['task.completed'] };
      const data = await datasetFile([endpoint]);
      const server = await startServer([
        ...store.args,
        '--data',
        data,
        '--allow-bootstrap',
        '--allow-private-webhooks',
        '--test-hooks',
      ]);
      t.after(() => Promise.all([server.stop(), receiver.close()]));
      const api = call(server.port);

      assert.equal((await logTask(api, TASK)).status, 200);
      await receiver.receivedAtLeast(1);
      const [first] = receiver.received;
      assert.ok(verifiesWith(first, OLD_SECRET));
      assert.equal(verifiesWith(first, NEW_SECRET), false);
      assert.equal(signatureCount(first), 1);

      assert.equal((await saveWebhooks(api, [{ ...endpoint, secret: NEW_SECRET }])).status, 200);
      rotated.release();
      await receiver.receivedAtLeast(2);
      const retry = receiver.received[1];
      assert.equal(retry.headers['webhook-id'], first.headers['webhook-id']);
      assert.ok(verifiesWith(retry, NEW_SECRET), 'the retry is signed with the secret the site has now');
      assert.ok(verifiesWith(retry, OLD_SECRET), 'and, within the day, with the one it replaced');
      assert.equal(signatureCount(retry), 2);
      const [delivered] = await deliveriesOnce(api, ([delivery]) => delivery?.status !== 'pending');
      assert.deepEqual([delivered.status, delivered.attempts], ['delivered', 2]);

      // The secret replaced is kept, but never exported nor shown.
      const exported = await api('GET', 'admin/export?app_id=hooks');
      assert.deepEqual(exported.body.apps[0].settings.webhooks, [{ ...endpoint, secret: NEW_SECRET }]);
      const audit = await api('GET', 'admin/audit?app_id=hooks');
      assert.equal(audit.status, 200);
      for (const answer of [exported, audit]) assert.equal(JSON.stringify(answer.body).includes(OLD_SECRET), false);

      // A day later the old secret signs no more.
      assert.equal((await api('POST', '_test/clock', { advance_ms: DAY_MS + 1_000 })).status, 200);
      assert.equal((await logTask(api, REPEATED)).status, 200);
      await receiver.receivedAtLeast(3);
      const dayAfter = receiver.received[2];
      assert.ok(verifiesWith(dayAfter, NEW_SECRET));
      assert.equal(verifiesWith(dayAfter, OLD_SECRET), false);
      assert.equal(signatureCount(dayAfter), 1);
      await deliveriesOnce(api, (listed) => listed.length === 2 && listed.every((delivery) => delivery.status === 'delivered'));

      // No secret in the outbox's rows, in a column or anywhere else.
      assert.equal(await server.stop(), 0);
      const rows = await outboxRows(store.openDriver);
      assert.equal(rows.length, 2);
      assert.equal('secret' in rows[0], false);
      const kept = JSON.stringify(rows);
      for (const secret of [OLD_SECRET, NEW_SECRET]) {
        assert.equal(kept.includes(secret.slice('whsec_'.length)), false);
      }
    });

    it('fails a pending delivery, unsent, once its endpoint is removed', async (t) => {
      const store = await storage(t);
      if (store === null) return;
      const removed = held();
      const leaving = await startReceiver(() => removed.promise.then(() => 500));
      const staying = await startReceiver([204]);
      const kept = { url: staying.url, secret: STAYING_SECRET, events: ['task.completed'] };
      const data = await datasetFile([{ url: leaving.url, secret: OLD_SECRET, events: ['task.completed'] }, kept]);
      const server = await startServer([...store.args, '--data', data, '--allow-bootstrap', '--allow-private-webhooks']);
      t.after(() => Promise.all([server.stop(), leaving.close(), staying.close()]));
      const api = call(server.port);

      assert.equal((await logTask(api, TASK)).status, 200);
      await Promise.all([leaving.receivedAtLeast(1), staying.receivedAtLeast(1)]);
      assert.equal((await saveWebhooks(api, [kept])).status, 200);
      removed.release();
      const deliveries = await deliveriesOnce(api, (listed) => listed.every((delivery) => delivery.status !== 'pending'));
      const gone = /** @type {WebhookDelivery} */ (deliveries.find((delivery) => delivery.url === leaving.url));
      assert.deepEqual(
        { status: gone.status, attempts: gone.attempts, last_error: gone.last_error, next_attempt_at: gone.next_attempt_at },
        { status: 'failed', attempts: 1, last_error: 'the endpoint was removed', next_attempt_at: null },
      );
      assert.equal(deliveries.find((delivery) => delivery.url === staying.url)?.status, 'delivered');
      assert.equal(leaving.received.length, 1, 'not sent again');
    });

    it('fails a pending delivery, unsent, once its endpoint stops taking its event', async (t) => {
      const store = await storage(t);
      if (store === null) return;
      const answered = held();
      const receiver = await startReceiver(() => answered.promise.then(() => 500));
      const endpoint = { url: receiver.url, secret: STAYING_SECRET, events: ['task.completed'] };
      const data = await datasetFile([endpoint]);
      const server = await startServer([...store.args, '--data', data, '--allow-bootstrap', '--allow-private-webhooks']);
      t.after(() => Promise.all([server.stop(), receiver.close()]));
      const api = call(server.port);

      assert.equal((await logTask(api, TASK)).status, 200);
      await receiver.receivedAtLeast(1);
      assert.equal((await saveWebhooks(api, [{ ...endpoint, events: ['submission.created'] }])).status, 200);
      answered.release();
      const [delivery] = await deliveriesOnce(api, (listed) => listed.every((listed) => listed.status !== 'pending'));
      assert.deepEqual(
        { status: delivery.status, attempts: delivery.attempts, last_error: delivery.last_error },
        { status: 'failed', attempts: 1, last_error: 'the endpoint no longer subscribes to this event' },
      );
      assert.equal(receiver.received.length, 1, 'not sent again');
    });
  });
}
