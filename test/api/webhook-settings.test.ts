// An app's webhooks setting, the admin operations on its endpoints and on its deliveries, on every
// adapter: a browser's store takes and exports the setting as the server's does, and keeps no
// deliveries (only the Node server delivers: test/server/webhooks.test.js).
import { expect } from '@open-wc/testing';
import { ADMIN_KEY, localApi, registerWorker, unregisterWorker, workerCall as call } from './support.js';

const SECRET = `whsec_${btoa('a webhook secret of 32 bytes....')}`;
/** An event no rule makes yet: nothing is ever delivered to this endpoint, on any adapter. */
const WEBHOOKS = [{ url: 'https://hooks.example.org/questboard', secret: SECRET, events: ['season.ended'] }];

const importApp = (settings: Record<string, unknown>) =>
  call('POST', '/v1/admin/import?mode=replace', {
    body: {
      admin_keys: [ADMIN_KEY],
      apps: [{ app_id: 'hooked', treasury: { account_id: '0.0.1001', balance: '10' }, settings }],
    },
  });

describe('settings.webhooks', () => {
  before(registerWorker);
  after(unregisterWorker);

  it('is taken, exported as imported, and removed by null', async () => {
    expect((await importApp({ webhooks: WEBHOOKS })).status).to.equal(200);
    expect((await call('GET', '/v1/admin/export?app_id=hooked')).body.apps[0].settings.webhooks).to.deep.equal(WEBHOOKS);
    const merged = await call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'hooked', settings: { webhooks: null } }] },
    });
    expect(merged.status, merged.text).to.equal(200);
    expect((await call('GET', '/v1/admin/export?app_id=hooked')).body.apps[0].settings).not.to.have.property('webhooks');
  });

  it('exports a secret changed, by a merge or a replace, as given: never the one it replaced', async () => {
    const rotated = [{ ...WEBHOOKS[0], secret: `whsec_${btoa('the secret it was changed to....')}` }];
    expect((await importApp({ webhooks: WEBHOOKS })).status).to.equal(200);
    const merged = await call('POST', '/v1/admin/import', {
      body: { apps: [{ app_id: 'hooked', settings: { webhooks: rotated } }] },
    });
    expect(merged.status, merged.text).to.equal(200);
    const exported = await call('GET', '/v1/admin/export?app_id=hooked');
    expect(exported.body.apps[0].settings.webhooks).to.deep.equal(rotated);
    expect(exported.text).not.to.contain(SECRET);
    // Changed back by a replace: the secret it replaced is not exported either.
    expect((await importApp({ webhooks: WEBHOOKS })).status).to.equal(200);
    const replaced = await call('GET', '/v1/admin/export?app_id=hooked');
    expect(replaced.body.apps[0].settings.webhooks).to.deep.equal(WEBHOOKS);
    expect(replaced.text).not.to.contain(rotated[0].secret);
  });

  it('refuses an http: URL, a secret without whsec_ or too short, an unknown event', async () => {
    for (const [endpoint, field] of [
      [{ ...WEBHOOKS[0], url: 'http://hooks.example.org/' }, 'url'],
      [{ ...WEBHOOKS[0], secret: btoa('a webhook secret of 32 bytes....') }, 'secret'],
      [{ ...WEBHOOKS[0], secret: 'whsec_c2hvcnQ=' }, 'secret'],
      [{ ...WEBHOOKS[0], events: ['task.done'] }, 'events'],
    ] as const) {
      const answer = await importApp({ webhooks: [endpoint] });
      expect(answer.status, JSON.stringify(endpoint)).to.equal(400);
      expect(answer.body.message).to.match(new RegExp(`webhooks\\.0\\.${field}`));
    }
  });

  it('lists no deliveries where none was made, and refuses to redeliver one the app does not have', async () => {
    expect((await importApp({ webhooks: WEBHOOKS })).status).to.equal(200);
    const paid = await call('POST', '/v1/airdrop_token_ledger', {
      body: { app_id: 'hooked', to_address: '0.0.2002', quantity: 1 },
    });
    expect(paid.status, paid.text).to.equal(200);
    const listed = await call('GET', '/v1/admin/webhook_deliveries?app_id=hooked&limit=10');
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body).to.deep.equal({ is_valid: true, message: null, app_id: 'hooked', offset: 0, limit: 10, deliveries: [] });
    const redelivered = await call('POST', '/v1/admin/webhook_redeliver', {
      body: { app_id: 'hooked', delivery_id: `msg_${'0'.repeat(32)}` },
    });
    expect(redelivered.status).to.equal(400);
    expect(redelivered.body.message).to.equal('delivery_id: no such delivery of this app.');
  });
});

describe('the admin API on webhook endpoints', () => {
  let api: ReturnType<typeof localApi>;
  const URL_A = 'https://hooks.example.org/a';
  const save = (body: Record<string, unknown>, key?: string) =>
    api.call('POST', '/v1/admin/save_webhook', { body: { app_id: 'hooked', ...body }, ...(key ? { key } : {}) });
  const listed = async () => (await api.call('GET', '/v1/admin/webhooks?app_id=hooked')).body.webhooks;
  const exported = async () => (await api.call('GET', '/v1/admin/export?app_id=hooked')).body.apps[0].settings.webhooks;

  beforeEach(async () => {
    api = localApi();
    const imported = await api.call('POST', '/v1/admin/import', {
      body: {
        admin_keys: [ADMIN_KEY],
        apps: [
          { app_id: 'hooked', api_keys: [{ key: 'pk_hooked', scopes: ['read', 'write'] }], settings: { webhooks: WEBHOOKS } },
        ],
      },
    });
    expect(imported.status, imported.text).to.equal(200);
  });
  afterEach(() => api.close());

  it('lists endpoints without their secrets', async () => {
    const answer = await api.call('GET', '/v1/admin/webhooks?app_id=hooked');
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body).to.deep.equal({
      is_valid: true,
      message: null,
      webhooks: [{ url: WEBHOOKS[0].url, events: ['season.ended'] }],
    });
    expect(answer.text).not.to.include(SECRET);
  });

  it('adds an endpoint with a secret made and answered once, keeps it on an edit, makes a new one when asked', async () => {
    const added = await save({ url: URL_A, events: ['task.completed'] });
    expect(added.status, added.text).to.equal(200);
    expect(added.body.webhook).to.deep.equal({ url: URL_A, events: ['task.completed'] });
    expect(added.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(await listed()).to.deep.equal([
      { url: WEBHOOKS[0].url, events: ['season.ended'] },
      { url: URL_A, events: ['task.completed'] },
    ]);
    const secretOf = async () => (await exported()).find((endpoint: { url: string }) => endpoint.url === URL_A).secret;
    expect(await secretOf()).to.equal(added.body.secret);

    const edited = await save({ url: URL_A, events: ['task.completed', 'badge.awarded'] });
    expect(edited.status, edited.text).to.equal(200);
    expect(edited.body).not.to.have.property('secret');
    expect(await secretOf()).to.equal(added.body.secret, 'an edit keeps the secret');

    const rotated = await save({ url: URL_A, events: ['task.completed'], new_secret: true });
    expect(rotated.status, rotated.text).to.equal(200);
    expect(rotated.body.secret)
      .to.match(/^whsec_/)
      .and.not.equal(added.body.secret);
    expect(await secretOf()).to.equal(rotated.body.secret);
  });

  it('removes an endpoint; one it does not have is a 404', async () => {
    const removed = await api.call('POST', '/v1/admin/remove_webhook', { body: { app_id: 'hooked', url: WEBHOOKS[0].url } });
    expect(removed.status, removed.text).to.equal(200);
    expect(await listed()).to.deep.equal([]);
    expect(await exported()).to.equal(undefined);
    const again = await api.call('POST', '/v1/admin/remove_webhook', { body: { app_id: 'hooked', url: WEBHOOKS[0].url } });
    expect(again.status).to.equal(404);
    expect(again.headers.get('x-questboard-error')).to.equal('webhook-not-found');
  });

  it('refuses an http: URL, an unknown event, an eleventh endpoint, and a key without the admin scope', async () => {
    for (const [body, field] of [
      [{ url: 'http://hooks.example.org/', events: ['task.completed'] }, 'url'],
      [{ url: URL_A, events: ['task.done'] }, 'events'],
      [{ url: URL_A, events: [] }, 'events'],
    ] as const) {
      const answer = await save(body);
      expect(answer.status, JSON.stringify(body)).to.equal(400);
      expect(answer.body.message).to.match(new RegExp(`^${field}`));
    }
    for (let index = 1; index < 10; index++) {
      expect((await save({ url: `${URL_A}/${index}`, events: ['task.completed'] })).status).to.equal(200);
    }
    const eleventh = await save({ url: URL_A, events: ['task.completed'] });
    expect(eleventh.status).to.equal(400);
    expect(eleventh.body.message).to.match(/^url: the app has 10 endpoints/);
    expect((await save({ url: `${URL_A}/1`, events: ['badge.awarded'] })).status, 'an edit at the limit').to.equal(200);
    expect((await save({ url: URL_A, events: ['task.completed'] }, 'pk_hooked')).status).to.equal(403);
    expect((await api.call('GET', '/v1/admin/webhooks?app_id=hooked', { key: 'pk_hooked' })).status).to.equal(403);
  });
});
