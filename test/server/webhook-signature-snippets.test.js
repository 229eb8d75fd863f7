// The signature checks docs/quests.md gives sites, in Node and in Python, run as written there
// against a real delivery of the server: each takes it, and refuses it altered.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startServer } from './reference-server.js';
import { startReceiver } from './webhook-receiver.js';

const SECRET = `whsec_${Buffer.from('a webhook secret of 32 bytes....').toString('base64')}`;
const TASK = '22222222-2222-4222-8222-222222222222';

/**
 * The code block of `language` in the Webhooks section of docs/quests.md.
 * @param {string} language
 */
async function snippet(language) {
  const doc = await readFile(new URL('../../docs/quests.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Webhooks'));
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  assert.ok(block, `docs/quests.md shows no ${language} check`);
  return block[1];
}

describe('the signature checks of docs/quests.md', () => {
  /** @type {string} */
  let directory;
  /** @type {{ headers: Record<string, string>, body: string }} */
  let delivery;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'questboard-snippets-'));
    const receiver = await startReceiver([204]);
    const data = join(directory, 'dataset.json');
    await writeFile(
      data,
      JSON.stringify({
        admin_keys: ['sk_snippets_admin'],
        apps: [
          {
            app_id: 'snippets',
            settings: { webhooks: [{ url: receiver.url, secret: SECRET, events: ['task.completed'] }] },
            users: [{ account_name: 'zoë' }],
            challenges: [{ name: 'One', tasks: [{ task_id: TASK, name: 'Hello', quantity: 1, operator: 0, points: 1 }] }],
          },
        ],
      }),
    );
    const server = await startServer(['--data', data, '--allow-bootstrap', '--allow-private-webhooks']);
    try {
      const answer = await fetch(`http://127.0.0.1:${server.port}/v1/admin/log_task`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk_snippets_admin', 'content-type': 'application/json' },
        // A name beyond ASCII: the checks must sign the body's bytes, not its characters.
        body: JSON.stringify({ task_id: TASK, account_name: 'zoë', quantity: 1 }),
      });
      assert.equal(answer.status, 200);
      await receiver.receivedAtLeast(1);
      delivery = receiver.received[0];
    } finally {
      await server.stop();
      await receiver.close();
    }
  });
  after(() => rm(directory, { recursive: true, force: true }));

  const altered = () => ({ ...delivery, body: delivery.body.replace('zoë', 'zoe') });

  it('Node: node:crypto', async () => {
    const file = join(directory, 'verify.mjs');
    await writeFile(file, await snippet('js'));
    const { verifyWebhook } = await import(pathToFileURL(file).href);
    assert.equal(verifyWebhook(SECRET, delivery.headers, delivery.body), true);
    assert.equal(verifyWebhook(SECRET, altered().headers, altered().body), false);
    assert.equal(
      verifyWebhook(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`, delivery.headers, delivery.body),
      false,
    );
  });

  it('Python: hmac and hashlib', async () => {
    const file = join(directory, 'verify.py');
    await writeFile(
      file,
      `${await snippet('python')}
import json, sys
given = json.load(sys.stdin)
print(json.dumps([verify_webhook(given["secret"], d["headers"], d["body"].encode()) for d in given["deliveries"]]))
`,
    );
    const run = promisify(execFile)('python3', [file]);
    run.child.stdin?.end(JSON.stringify({ secret: SECRET, deliveries: [delivery, altered()] }));
    const { stdout } = await run;
    assert.deepEqual(JSON.parse(stdout), [true, false]);
  });
});
