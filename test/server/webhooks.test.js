// Webhooks from the Node server (docs/quests.md, Webhooks), on PGlite and on PostgreSQL: signed
// as Standard Webhooks (checked with the standardwebhooks package, an implementation of its
// own), retried under the same webhook-id, kept across a crash, delivered once per attempt by
// processes sharing a database, and never sent to a private address without the operator's leave.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createDatabase } from '../../scripts/postgres.js';
import { postgresOrSkip } from '../postgres-or-skip.js';
import { startServer } from './reference-server.js';
import { startReceiver } from './webhook-receiver.js';

const ADMIN = 'sk_hooks_admin';
const SECRET = `whsec_${Buffer.from('a webhook secret of 32 bytes....').toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.from('another secret, 32 bytes long...').toString('base64')}`;
const CHALLENGE = '11111111-1111-4111-8111-111111111111';
const TASK = '22222222-2222-4222-8222-222222222222';
/** A task that completes at every log: each log is one task.completed. */
const REPEATED = '33333333-3333-4333-8333-333333333333';
const ALL_EVENTS = ['task.completed', 'challenge.completed', 'level.changed', 'ledger.transfer'];

/** @import { Received } from './webhook-receiver.js' */
/** @import { WebhookDelivery } from '../../src/api/admin-responses.js' */
/** @typedef {{ url: string, secret: string, events: string[] }} Endpoint */

/**
 * The dataset every server here starts from, its app's webhooks as given.
 * @param {Endpoint[]} webhooks
 */
function dataset(webhooks) {
  return {
    admin_keys: [ADMIN],
    apps: [
      {
        app_id: 'hooks',
        treasury: { account_id: '0.0.1001', balance: '10' },
        settings: { webhooks, rate_limits: { per_key: null, per_member: null, per_ip: null } },
        users: [{ account_name: 'alice' }, { account_name: 'bob' }],
        challenges: [
          {
            challenge_id: CHALLENGE,
            name: 'Welcome',
            points: 50,
            tasks: [
              { task_id: TASK, name: 'Say hello', quantity: 1, operator: 0, points: 100 },
              { task_id: REPEATED, name: 'Post', quantity: 1, operator: 0, points: 0, allowretry: true },
            ],
          },
        ],
      },
    ],
  };
}

/** @type {string[]} */
const files = [];
after(() => Promise.all(files.map((path) => rm(path, { recursive: true, force: true }))));

/** @param {Endpoint[]} webhooks */
async function datasetFile(webhooks) {
  const directory = await mkdtemp(join(tmpdir(), 'questboard-hooks-'));
  files.push(directory);
  const path = join(directory, 'dataset.json');
  await writeFile(path, JSON.stringify(dataset(webhooks)));
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
    const response = await fetch(`http://127.0.0.1:${port}/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

/** @typedef {ReturnType<typeof call>} Api */

/**
 * @param {Api} api
 * @param {string} [task_id]
 * @param {string} [account_name]
 */
const logTask = (api, task_id = TASK, account_name = 'alice') =>
  api('POST', 'admin/log_task', { task_id, account_name, quantity: 1 });

/**
 * Checks the delivery with the standardwebhooks package; returns its body, parsed.
 * @param {Received} delivery
 * @param {string} [secret]
 * @returns {any}
 */
function verified(delivery, secret = SECRET) {
  return new Webhook(secret.slice('whsec_'.length)).verify(delivery.body, delivery.headers);
}

/**
 * The app's deliveries once `done` holds of them: attempts are recorded just after their answer,
 * so the list is asked again until it shows them (at most 20 s).
 * @param {Api} api
 * @param {(deliveries: WebhookDelivery[]) => unknown} done
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

/** Resolves once the app's first delivery has its first attempt recorded. */
const attemptRecorded = (/** @type {Api} */ api) => deliveriesOnce(api, ([delivery]) => delivery?.last_attempt_at);

/** Each store the server runs on: its arguments, or null where it cannot run here (the test skipped). */
/** @type {Record<string, (t: import('node:test').TestContext) => Promise<string[] | null>>} */
const STORES = {
  PGlite: async () => {
    const directory = await mkdtemp(join(tmpdir(), 'questboard-hooks-data-'));
    files.push(directory);
    return ['--data-dir', directory];
  },
  PostgreSQL: async (t) => {
    if (!(await postgresOrSkip(t))) return null;
    const database = await createDatabase('questboard_hooks');
    after(() => database.drop());
    return ['--database-url', database.url];
  },
};

for (const [name, storage] of Object.entries(STORES)) {
  describe(`webhooks on ${name}`, () => {
    it('retries a delivery answered 500 under the same webhook-id, signed each time; the events carry their data', async (t) => {
      const args = await storage(t);
      if (args === null) return;
      const receiver = await startReceiver([500, 204]);
      const everything = await startReceiver([204]);
      const data = await datasetFile([
        { url: receiver.url, secret: SECRET, events: ['task.completed'] },
        { url: everything.url, secret: OTHER_SECRET, events: ALL_EVENTS },
      ]);
      const server = await startServer([...args, '--data', data, '--allow-bootstrap', '--allow-private-webhooks']);
      t.after(() => Promise.all([server.stop(), receiver.close(), everything.close()]));
      const api = call(server.port);

      // Alice's first task gives her 100 XP: level 1 to 2. The challenge waits for its other task.
      assert.equal((await logTask(api)).status, 200);
      assert.equal(
        (await api('POST', 'airdrop_token_ledger', { app_id: 'hooks', to_address: '0.0.2002', quantity: 1.5 })).status,
        200,
      );
      await receiver.receivedAtLeast(2);
      const [first, second] = receiver.received;
      assert.equal(first.headers['webhook-id'], second.headers['webhook-id']);
      assert.match(first.headers['webhook-id'], /^msg_[0-9a-f]{32}$/);
      const body = verified(first);
      assert.deepEqual(verified(second), body);
      assert.equal(body.type, 'task.completed');
      assert.deepEqual(body.data, {
        app_id: 'hooks',
        account_name: 'alice',
        task_id: TASK,
        challenge_id: CHALLENGE,
        times_completed: 1,
        points: 100,
      });
      assert.ok(second.at - first.at < 10_000 + 2_000, 'the first retry comes within 10 s');
      // A delivery signed with another secret does not verify.
      assert.throws(() => verified(first, OTHER_SECRET));

      await everything.receivedAtLeast(3);
      const events = Object.fromEntries(everything.received.map((delivery) => [verified(delivery, OTHER_SECRET).type, delivery]));
      assert.deepEqual(Object.keys(events).sort(), ['ledger.transfer', 'level.changed', 'task.completed']);
      assert.deepEqual(verified(events['level.changed'], OTHER_SECRET).data, {
        app_id: 'hooks',
        account_name: 'alice',
        previous_level: 1,
        current_level: 2,
        xp: 100,
      });
      const transfer = verified(events['ledger.transfer'], OTHER_SECRET).data;
      assert.deepEqual(
        { ...transfer, tx_id: 'any' },
        {
          app_id: 'hooks',
          tx_id: 'any',
          from_account: '0.0.1001',
          to_address: '0.0.2002',
          amount: '1.5',
          balance: '8.5',
        },
      );

      // Completing the other task completes the challenge.
      assert.equal((await logTask(api, REPEATED)).status, 200);
      await everything.receivedAtLeast(5);
      await receiver.receivedAtLeast(3);
      const types = everything.received.map((delivery) => verified(delivery, OTHER_SECRET).type);
      assert.ok(types.includes('challenge.completed'), types.join());

      const deliveries = await deliveriesOnce(api, (listed) => listed.every((delivery) => delivery.status !== 'pending'));
      const retried = /** @type {WebhookDelivery} */ (
        deliveries.find((delivery) => delivery.delivery_id === first.headers['webhook-id'])
      );
      assert.equal(retried.status, 'delivered');
      assert.equal(retried.attempts, 2);
      assert.equal(retried.last_status, 204);
      assert.equal(retried.next_attempt_at, null);
      assert.equal(retried.url, receiver.url);
      assert.equal(deliveries.length, 2 + 5);
      assert.equal(JSON.stringify(deliveries).includes('whsec_'), false, 'the list shows no secret');

      // Redelivered on demand, under its id.
      const again = await api('POST', 'admin/webhook_redeliver', { app_id: 'hooks', delivery_id: retried.delivery_id });
      assert.equal(again.status, 200);
      await receiver.receivedAtLeast(4);
      assert.equal(receiver.received[3].headers['webhook-id'], retried.delivery_id);
      const unknown = await api('POST', 'admin/webhook_redeliver', { app_id: 'hooks', delivery_id: `msg_${'0'.repeat(32)}` });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.message, /delivery_id/);
    });

    it('delivers after a restart what a killed server left undelivered', async (t) => {
      const args = await storage(t);
      if (args === null) return;
      let answering = false;
      const receiver = await startReceiver(() => (answering ? 204 : 500));
      const data = await datasetFile([{ url: receiver.url, secret: SECRET, events: ['task.completed'] }]);
      const flags = [...args, '--data', data, '--allow-bootstrap', '--allow-private-webhooks'];
      let server = await startServer(flags);
      t.after(() => Promise.all([server.stop(), receiver.close()]));
      assert.equal((await logTask(call(server.port))).status, 200);
      await receiver.receivedAtLeast(1);
      // On PGlite, killed at once, most likely mid-attempt: a process alone on its store takes the
      // leases it finds at start as a killed one's. On PostgreSQL another process may hold them, so
      // one runs out first (30 s): killed once the attempt is recorded, its retry due in 5 s.
      if (name === 'PostgreSQL') await attemptRecorded(call(server.port));
      await server.crash();
      answering = true;
      server = await startServer(flags);
      await receiver.receivedAtLeast(2);
      assert.equal(receiver.received[1].headers['webhook-id'], receiver.received[0].headers['webhook-id']);
      assert.equal(verified(receiver.received[1]).type, 'task.completed');
      const [delivered] = await deliveriesOnce(call(server.port), ([delivery]) => delivery?.status !== 'pending');
      assert.equal(delivered.status, 'delivered');
    });
  });
}

describe('webhooks from two server processes on one PostgreSQL database', () => {
  it('delivers each event once per attempt', async (t) => {
    const args = await STORES.PostgreSQL(t);
    if (args === null) return;
    // Each delivery's first attempt is answered 500: both processes then find its retry due at once.
    const seen = new Set();
    const receiver = await startReceiver(({ headers }) => {
      const first = !seen.has(headers['webhook-id']);
      seen.add(headers['webhook-id']);
      return first ? 500 : 204;
    });
    const data = await datasetFile([{ url: receiver.url, secret: SECRET, events: ['task.completed'] }]);
    const servers = [
      await startServer([...args, '--data', data, '--allow-bootstrap', '--allow-private-webhooks']),
      await startServer([...args, '--allow-private-webhooks']),
    ];
    t.after(() => Promise.all([...servers.map((server) => server.stop()), receiver.close()]));
    const EVENTS = 20;
    const answers = await Promise.all(
      Array.from({ length: EVENTS }, (_, index) =>
        logTask(call(servers[index % 2].port), REPEATED, index % 4 < 2 ? 'alice' : 'bob'),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      Array(EVENTS).fill(200),
    );
    await receiver.receivedAtLeast(2 * EVENTS);
    const counts = new Map();
    for (const delivery of receiver.received) {
      verified(delivery);
      counts.set(delivery.headers['webhook-id'], (counts.get(delivery.headers['webhook-id']) ?? 0) + 1);
    }
    assert.equal(counts.size, EVENTS);
    assert.deepEqual([...new Set(counts.values())], [2]);
    const deliveries = await deliveriesOnce(call(servers[1].port), (listed) =>
      listed.every((delivery) => delivery.status !== 'pending'),
    );
    assert.deepEqual(
      deliveries.map((delivery) => [delivery.status, delivery.attempts]),
      Array(EVENTS).fill(['delivered', 2]),
    );
  });
});

describe('webhooks to private addresses, without --allow-private-webhooks', () => {
  it('refuses http: URLs at import, naming the field', async (t) => {
    const server = await startServer(['--allow-bootstrap', '--data', await datasetFile([])]);
    t.after(() => server.stop());
    const api = call(server.port);
    for (const url of ['http://127.0.0.1/hooks', 'http://[::1]/hooks', 'http://169.254.169.254/latest/meta-data']) {
      const answer = await api('POST', 'admin/import', {
        apps: [{ app_id: 'hooks', settings: { webhooks: [{ url, secret: SECRET, events: ['task.completed'] }] } }],
      });
      assert.equal(answer.status, 400, url);
      assert.match(answer.body.message, /apps\.0\.settings\.webhooks\.0\.url: must be an https: URL/);
    }
    const exported = await api('GET', 'admin/export?app_id=hooks');
    assert.equal(exported.body.apps[0].settings.webhooks, undefined);
  });

  it('takes well-formed settings and exports them as imported; refuses a malformed secret or event', async (t) => {
    const server = await startServer(['--allow-bootstrap', '--data', await datasetFile([])]);
    t.after(() => server.stop());
    const api = call(server.port);
    const webhooks = [{ url: 'https://hooks.example.org/questboard', secret: SECRET, events: ['level.changed'] }];
    assert.equal((await api('POST', 'admin/import', { apps: [{ app_id: 'hooks', settings: { webhooks } }] })).status, 200);
    assert.deepEqual((await api('GET', 'admin/export?app_id=hooks')).body.apps[0].settings.webhooks, webhooks);
    for (const { endpoint, field } of [
      { endpoint: { ...webhooks[0], secret: 'whsec_c2hvcnQ=' }, field: 'secret' },
      { endpoint: { ...webhooks[0], secret: SECRET.slice('whsec_'.length) }, field: 'secret' },
      { endpoint: { ...webhooks[0], events: ['task.done'] }, field: 'events' },
      { endpoint: { ...webhooks[0], url: 'ftp://hooks.example.org/' }, field: 'url' },
    ]) {
      const answer = await api('POST', 'admin/import', { apps: [{ app_id: 'hooks', settings: { webhooks: [endpoint] } }] });
      assert.equal(answer.status, 400, JSON.stringify(endpoint));
      assert.match(answer.body.message, new RegExp(`webhooks\\.0\\.${field}`));
    }
  });
});
