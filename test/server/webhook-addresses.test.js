// Where the server may send a webhook or a callback check (src/server/public-address.ts), the
// signed POST that is connected to the address checked and no other (outbound-post.ts), and
// the callback check the handler is given (callback-check.ts). DNS is injected: no test
// depends on what a name resolves to here.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { importSource } from '../source-module.js';
import { startReceiver } from './webhook-receiver.js';

const { checkedAddress, notPublic, postSigned, createCallbackCheck, CallbackUnanswered, AddressRefused } = await importSource(
  'src/server/public-address.ts',
  'src/server/outbound-post.ts',
  'src/server/callback-check.ts',
);

const SECRET = `whsec_${Buffer.from('a webhook secret of 32 bytes....').toString('base64')}`;
/**
 * A lookup that answers every name with `address`, and counts what it was asked.
 * @param {string} address
 */
const resolvingTo = (address) => {
  /** @type {string[]} */
  const asked = [];
  /** @param {string} hostname */
  const lookup = async (hostname) => {
    asked.push(hostname);
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(lookup, { asked });
};
const noLookup = async () => assert.fail('an address literal is not looked up');

describe('the addresses webhooks may go to', () => {
  it('refuses loopback, link-local, private and the rest without --allow-private-webhooks', async () => {
    for (const url of [
      'http://127.0.0.1/hooks',
      'http://[::1]/hooks',
      'http://169.254.169.254/latest/meta-data',
      'https://127.0.0.1/hooks',
      'https://[::1]/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[::ffff:a9fe:a9fe]/hooks',
      'https://[fe80::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://[::]/hooks',
      'https://0.0.0.0/hooks',
      'https://100.64.0.1/hooks',
      'https://172.16.5.4/hooks',
      'https://192.168.1.1/hooks',
      // 127.0.0.1 spelled otherwise: the URL parser writes the address in its one form.
      'https://2130706433/hooks',
      'https://0x7f.1/hooks',
    ]) {
      await assert.rejects(checkedAddress(new URL(url), { allowPrivate: false, lookup: noLookup }), AddressRefused, url);
    }
  });

  it('refuses a host name that resolves to 10.x, after resolving it', async () => {
    const lookup = resolvingTo('10.1.2.3');
    await assert.rejects(
      checkedAddress(new URL('https://hooks.internal.example/x'), { allowPrivate: false, lookup }),
      /hooks\.internal\.example is at 10\.1\.2\.3, a private address: refused/,
    );
    assert.deepEqual(lookup.asked, ['hooks.internal.example']);
    // A name with one private address among public ones is refused too: it could be the one connected to.
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await assert.rejects(
      checkedAddress(new URL('https://mixed.example/'), { allowPrivate: false, lookup: mixed }),
      AddressRefused,
    );
  });

  it('takes public addresses, and private ones and http: with --allow-private-webhooks', async () => {
    assert.deepEqual(
      await checkedAddress(new URL('https://hooks.example.org/'), { allowPrivate: false, lookup: resolvingTo('93.184.215.14') }),
      {
        host: 'hooks.example.org',
        address: '93.184.215.14',
        family: 4,
      },
    );
    assert.equal(
      (await checkedAddress(new URL('https://[2606:4700::1111]/'), { allowPrivate: false, lookup: noLookup })).address,
      '2606:4700::1111',
    );
    assert.equal(
      (await checkedAddress(new URL('http://10.1.2.3/'), { allowPrivate: true, lookup: noLookup })).address,
      '10.1.2.3',
    );
    await assert.rejects(
      checkedAddress(new URL('http://hooks.example.org/'), { allowPrivate: false, lookup: noLookup }),
      /http: is refused/,
    );
    assert.equal(notPublic('8.8.8.8'), null);
    assert.equal(notPublic('::ffff:8.8.8.8'), null);
    assert.equal(notPublic('64:ff9b::7f00:1'), 'a loopback address');
  });

  it('connects to the address checked, not to what the name resolves to later (no DNS rebinding)', async () => {
    const receiver = await startReceiver([204]);
    try {
      // The name exists nowhere but in this lookup, asked once: the connection cannot have resolved it again.
      const lookup = resolvingTo('127.0.0.1');
      const answer = await postSigned(
        { url: `http://rebinding.invalid:${receiver.port}/hooks`, id: 'msg_1', body: '{"type":"x"}', secrets: [SECRET] },
        { allowPrivate: true, lookup },
      );
      assert.equal(answer.status, 204);
      assert.deepEqual(lookup.asked, ['rebinding.invalid']);
      assert.equal(receiver.received[0].headers.host, `rebinding.invalid:${receiver.port}`);
      new Webhook(SECRET.slice('whsec_'.length)).verify(receiver.received[0].body, receiver.received[0].headers);
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing to a host name that resolves to 10.x', async () => {
    await assert.rejects(
      postSigned(
        { url: 'https://hooks.internal.example/', id: 'msg_1', body: '{}', secrets: [SECRET] },
        { allowPrivate: false, lookup: resolvingTo('10.9.8.7') },
      ),
      AddressRefused,
    );
  });
});

describe('the callback check', () => {
  const app = { app_id: 'guild', webhooks: [{ url: 'https://example.org/', secret: SECRET, events: ['task.completed'] }] };
  /** @param {string} url */
  const task = (url) => ({ task_id: 't1', app_id: 'guild', challenge_id: 'c1', verification: { kind: 'callback', url } });
  const rules = { allowPrivate: true };

  it('counts 200 {"completed":true}, and passes on the reason of any other answer', async () => {
    const receiver = await startReceiver(
      (_request, index) =>
        [
          { status: 200, body: '{"completed":true}' },
          { status: 200, body: '{"completed":false,"reason":"no post found"}' },
          { status: 404, body: 'not here' },
        ][index],
    );
    try {
      const check = createCallbackCheck(rules);
      assert.deepEqual(await check(task(receiver.url), { account_name: 'alice' }, app), { completed: true });
      assert.deepEqual(await check(task(receiver.url), { account_name: 'alice' }, app), {
        completed: false,
        reason: 'no post found',
      });
      assert.deepEqual(await check(task(receiver.url), { account_name: 'alice' }, app), {
        completed: false,
        reason: 'the site answered 404',
      });
      const body = /** @type {any} */ (
        new Webhook(SECRET.slice('whsec_'.length)).verify(receiver.received[0].body, receiver.received[0].headers)
      );
      assert.deepEqual(body.data, { app_id: 'guild', task_id: 't1', challenge_id: 'c1', account_name: 'alice' });
      assert.equal(body.type, 'task.check');
    } finally {
      await receiver.close();
    }
  });

  it('throws CallbackUnanswered when the site does not answer, answers 5xx, or is at a refused address', async () => {
    // A site that takes the connection and closes it without a word.
    const silent = createServer((socket) => socket.destroy());
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const failing = await startReceiver([503]);
    try {
      const check = createCallbackCheck(rules);
      await assert.rejects(
        check(
          task(`http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (silent.address()).port}/`),
          {
            account_name: 'alice',
          },
          app,
        ),
        CallbackUnanswered,
      );
      await assert.rejects(check(task(failing.url), { account_name: 'alice' }, app), CallbackUnanswered);
      const strict = createCallbackCheck({ allowPrivate: false });
      await assert.rejects(strict(task('https://127.0.0.1/check'), { account_name: 'alice' }, app), /loopback/);
    } finally {
      silent.close();
      await failing.close();
    }
  });

  it('refuses to check for an app without a webhook secret to sign with', async () => {
    const check = createCallbackCheck(rules);
    assert.deepEqual(await check(task('https://example.org/'), { account_name: 'alice' }, { webhooks: [] }), {
      completed: false,
      reason: 'the app has no webhook secret to sign the check with (settings.webhooks)',
    });
  });
});
