// A callback task on the Node server (docs/quests.md, Callbacks): submit_task asks the site's
// endpoint, signed as a webhook delivery is, whether the member did it. Its "completed" counts the
// task; its "not yet" is a 422 with the site's reason; no answer is a 502. Without the operator's
// --allow-private-webhooks an http: callback is refused at import.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startServer } from './reference-server.js';
import { startReceiver } from './webhook-receiver.js';

const ADMIN = 'sk_callbacks_admin';
const WRITER = 'pk_callbacks_write';
const SECRET = `whsec_${Buffer.from('a callback secret of 32 bytes...').toString('base64')}`;
const ROTATED_SECRET = `whsec_${Buffer.from('the callback secret rotated to..').toString('base64')}`;
const CHALLENGE = '61111111-1111-4111-8111-111111111111';
const TASK = '62111111-1111-4111-8111-111111111111';

/** @import { RunningServer } from './reference-server.js' */
/** @import { Answer } from './webhook-receiver.js' */

/** @param {string} callbackUrl */
function dataset(callbackUrl) {
  return {
    admin_keys: [ADMIN],
    apps: [
      {
        app_id: 'callbacks',
        api_keys: [{ key: WRITER, scopes: ['read', 'write'] }],
        // The secret a callback is signed with: the app's webhook's.
        settings: { webhooks: [{ url: callbackUrl, secret: SECRET, events: ['task.completed'] }] },
        users: ['alice', 'bob', 'carol', 'dave', 'erin'].map((account_name) => ({ account_name })),
        challenges: [
          {
            challenge_id: CHALLENGE,
            name: 'Show your work',
            tasks: [
              {
                task_id: TASK,
                name: 'Ship it',
                quantity: 1,
                operator: 0,
                points: 30,
                verification: { kind: 'callback', url: callbackUrl },
              },
            ],
          },
        ],
      },
    ],
  };
}

/** @type {string[]} */
const directories = [];
after(() => Promise.all(directories.map((path) => rm(path, { recursive: true, force: true }))));

/** @param {string} callbackUrl */
async function datasetFile(callbackUrl) {
  const directory = await mkdtemp(join(tmpdir(), 'questboard-callbacks-'));
  directories.push(directory);
  const path = join(directory, 'dataset.json');
  await writeFile(path, JSON.stringify(dataset(callbackUrl)));
  return path;
}

describe('a callback task on the server', () => {
  /** @type {Awaited<ReturnType<typeof startReceiver>>} */
  let receiver;
  /** @type {RunningServer} */
  let server;
  /**
   * What the site answers the next check, by member: an answer, or what it does first and answers.
   * @type {Record<string, Answer | (() => Promise<Answer>)>}
   */
  const verdicts = {
    alice: { status: 200, body: '{"completed":true}' },
    bob: { status: 200, body: '{"completed":false,"reason":"no pull request yet"}' },
    // A site whose backend, asked about dave, first records erin's task through the API: on a
    // server that asked inside the write, that write would wait for the check to end (PGlite has
    // one connection), and the check for that write, until the 10 s timeout.
    dave: async () => {
      siteWrite = await call('admin/log_task', ADMIN, { task_id: TASK, account_name: 'erin', quantity: 1 });
      return { status: 200, body: '{"completed":true}' };
    },
  };
  /**
   * The answer to the write the site made while it was asked.
   * @type {Awaited<ReturnType<typeof call>> | undefined}
   */
  let siteWrite;

  before(async () => {
    receiver = await startReceiver((request) => {
      const { data } = JSON.parse(request.body);
      const verdict = verdicts[data.account_name] ?? 503;
      return typeof verdict === 'function' ? verdict() : verdict;
    });
    const data = await datasetFile(receiver.url);
    // --test-hooks: the server's clock moved a day on (POST /_test/clock).
    server = await startServer(['--data', data, '--allow-bootstrap', '--allow-private-webhooks', '--test-hooks']);
  });
  after(async () => {
    await server?.stop();
    await receiver?.close();
  });

  /**
   * @param {string} operation
   * @param {string} key
   * @param {unknown} body
   */
  const call = async (operation, key, body) => {
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/${operation}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, code: response.headers.get('x-questboard-error'), body: await response.json() };
  };
  /** @param {string} account_name */
  const submit = (account_name) => call('submit_task', WRITER, { task_id: TASK, account_name });
  /** @param {string} account_name */
  const scoreOf = async (account_name) => {
    const response = await fetch(
      `http://127.0.0.1:${server.port}/v1/get_userinfo?app_id=callbacks&account_name=${account_name}`,
      {
        headers: { authorization: `Bearer ${WRITER}` },
      },
    );
    return (await response.json()).total_score;
  };

  it('counts the task when the site says it is done, asking with a signed request', async () => {
    const answer = await submit('alice');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.task_id, TASK);
    assert.equal(await scoreOf('alice'), 30 + 50, 'the task and the challenge it completes');
    const check = receiver.received.find((request) => JSON.parse(request.body).data.account_name === 'alice');
    assert.ok(check, 'the site was asked');
    const body = /** @type {any} */ (new Webhook(SECRET.slice('whsec_'.length)).verify(check.body, check.headers));
    assert.equal(body.type, 'task.check');
    assert.equal(body.data.task_id, TASK);
  });

  it('refuses with the site’s reason when it says not yet, and counts nothing', async () => {
    const answer = await submit('bob');
    assert.equal(answer.status, 422);
    assert.equal(answer.code, 'callback-not-completed');
    assert.match(answer.body.message, /no pull request yet/);
  });

  it('asks with no transaction open: the site may write to the API while it answers', async () => {
    const answer = await submit('dave');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(siteWrite?.status, 200, JSON.stringify(siteWrite?.body));
    assert.equal(await scoreOf('dave'), 30 + 50);
    assert.equal(await scoreOf('erin'), 30 + 50, 'the write the site made meanwhile');
  });

  it('answers 502 when the site does not answer', async () => {
    const answer = await submit('carol');
    assert.equal(answer.status, 502);
    assert.equal(answer.code, 'callback-unanswered');
    assert.equal(answer.body.is_valid, false);
  });

  it('signs with a secret changed and, for a day, with the one it replaced', async () => {
    /**
     * @param {string} path
     * @param {unknown} body
     */
    const admin = (path, body) =>
      fetch(`http://127.0.0.1:${server.port}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const webhooks = [{ url: receiver.url, secret: ROTATED_SECRET, events: ['task.completed'] }];
    assert.equal((await admin('v1/admin/import', { apps: [{ app_id: 'callbacks', settings: { webhooks } }] })).status, 200);
    /** The secrets the next check verifies with, of the previous and the rotated one. */
    const nextCheckVerifiesWith = async () => {
      assert.equal((await submit('bob')).status, 422);
      const check = /** @type {import('./webhook-receiver.js').Received} */ (receiver.received.at(-1));
      return [SECRET, ROTATED_SECRET].filter((secret) => {
        try {
          new Webhook(secret.slice('whsec_'.length)).verify(check.body, check.headers);
          return true;
        } catch {
          return false;
        }
      });
    };
    assert.deepEqual(await nextCheckVerifiesWith(), [SECRET, ROTATED_SECRET]);
    assert.equal((await admin('_test/clock', { advance_ms: 24 * 3_600_000 + 1_000 })).status, 200);
    assert.deepEqual(await nextCheckVerifiesWith(), [ROTATED_SECRET]);
  });
});

it('refuses an http: callback at import without --allow-private-webhooks', async () => {
  const server = await startServer([], { env: { QUESTBOARD_ADMIN_KEYS: ADMIN } });
  try {
    const [app] = dataset('http://127.0.0.1:9/callback').apps;
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/admin/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apps: [{ ...app, settings: {} }] }),
    });
    assert.equal(response.status, 400);
    assert.match((await response.json()).message, /^apps\.0\.challenges\.0\.tasks\.0\.verification\.url: must be an https: URL/);
  } finally {
    await server.stop();
  }
});
