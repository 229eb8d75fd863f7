// App keys are kept as their SHA-256 alone, as installation admin keys are: the store, its
// idempotency records and an export hold no key, and an export imported elsewhere answers to the
// same keys. On every adapter (the store read as it is kept: IndexedDB's records, the SQL table's rows).
import { expect } from '@open-wc/testing';
import { sha256Hex } from '../../src/api/key-hash.js';
import { ADMIN_KEY, GUIDS, WEDNESDAY, dataset, localApi } from './support.js';

const APP_KEYS = dataset(WEDNESDAY).apps.flatMap((app) => app.api_keys.map(({ key }) => key));

describe('app keys kept as their SHA-256', () => {
  let api: ReturnType<typeof localApi>;
  beforeEach(async () => {
    api = localApi({ now: WEDNESDAY });
    const seeded = await api.call('POST', '/v1/admin/import', { body: dataset(WEDNESDAY) });
    expect(seeded.status, seeded.text).to.equal(200);
  });
  afterEach(() => api.close());

  it('stores no app key in clear, neither in its record nor in its idempotency records', async () => {
    const connected = await api.call('POST', '/v1/connect_social', {
      key: 'pk_write',
      body: { app_id: 'guild', account_name: 'alice', twitter_name: 'alice_x' },
      headers: { 'idempotency-key': 'once' },
    });
    expect(connected.status, connected.text).to.equal(200);

    const stored = await api.storedApiKeys();
    expect(stored).to.have.length(APP_KEYS.length);
    const hashes = stored.map((text) => (JSON.parse(text) as { key_sha256: string }).key_sha256);
    expect(hashes).to.have.members(APP_KEYS.map(sha256Hex));
    for (const key of APP_KEYS) expect(stored.join('\n'), key).not.to.contain(key);
    const idempotency = await api.idempotencyRecords();
    expect(idempotency.map((record) => record.api_key)).to.deep.equal([sha256Hex('pk_write')]);
  });

  it('exports each app key as its SHA-256, never the key', async () => {
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    expect(exported.status).to.equal(200);
    expect(exported.body.apps[0].api_keys).to.have.deep.members([
      { key_sha256: sha256Hex('pk_read'), scopes: ['read'] },
      { key_sha256: sha256Hex('pk_write'), scopes: ['read', 'write'] },
      { key_sha256: sha256Hex('pk_ledger'), scopes: ['ledger'] },
      { key_sha256: sha256Hex('pk_guild_admin'), scopes: ['admin', 'read'] },
    ]);
    for (const key of APP_KEYS) expect(exported.text, key).not.to.contain(key);
  });

  it('answers to the same keys in a store an export was imported into', async () => {
    const exported = await api.call('GET', '/v1/admin/export?app_id=guild');
    const copy = localApi({ now: WEDNESDAY });
    try {
      const imported = await copy.call('POST', '/v1/admin/import', { body: { admin_keys: [ADMIN_KEY], ...exported.body } });
      expect(imported.status, imported.text).to.equal(200);
      const read = (key: string) => copy.call('GET', '/v1/get_userinfo?app_id=guild&account_name=alice', { key });
      expect((await read('pk_read')).status).to.equal(200);
      expect((await read('pk_ledger')).status).to.equal(403);
      // The hash is not a key: only the key it was made of opens the app.
      expect((await read(sha256Hex('pk_read'))).status).to.equal(401);
      const exportedByAppAdmin = await copy.call('GET', '/v1/admin/export?app_id=guild', { key: 'pk_guild_admin' });
      expect(exportedByAppAdmin.text).to.equal(exported.text);
      expect(await copy.storedApiKeys()).to.have.length(4);
    } finally {
      await copy.close();
    }
  });

  it('imports a key by its key_sha256, and by the key in clear', async () => {
    const imported = await api.call('POST', '/v1/admin/import', {
      body: {
        apps: [
          {
            app_id: 'guild',
            api_keys: [
              { key_sha256: sha256Hex('pk_by_hash'), scopes: ['read'] },
              { key: 'pk_in_clear', scopes: ['read'] },
            ],
          },
        ],
      },
    });
    expect(imported.status, imported.text).to.equal(200);
    for (const key of ['pk_by_hash', 'pk_in_clear']) {
      const answer = await api.call('GET', `/v1/get_challenge?challenge_id=${GUIDS.onboarding}`, { key });
      expect(answer.status, key).to.equal(200);
    }
    expect((await api.storedApiKeys()).join('\n')).not.to.contain('pk_in_clear');
  });

  it('takes key or key_sha256 for each key, not both, and a hash as SHA-256 writes it', async () => {
    const importKeys = (api_keys: unknown[]) =>
      api.call('POST', '/v1/admin/import', { body: { apps: [{ app_id: 'guild', api_keys }] } });
    const refusals = [
      [
        [{ key: 'pk_x', key_sha256: sha256Hex('pk_x'), scopes: ['read'] }],
        'apps.0.api_keys.0.key: give key or key_sha256, not both.',
      ],
      [[{ scopes: ['read'] }], 'apps.0.api_keys.0.key: is required.'],
      [
        [{ key_sha256: sha256Hex('pk_x').toUpperCase(), scopes: ['read'] }],
        "apps.0.api_keys.0.key_sha256: must be the key's SHA-256: 64 lowercase hex digits.",
      ],
      [
        [{ key_sha256: 'pk_x', scopes: ['read'] }],
        "apps.0.api_keys.0.key_sha256: must be the key's SHA-256: 64 lowercase hex digits.",
      ],
    ] as const;
    for (const [api_keys, message] of refusals) {
      const answer = await importKeys([...api_keys]);
      expect(answer.status, JSON.stringify(api_keys)).to.equal(400);
      expect(answer.body.message).to.equal(message);
    }
  });

  it('refuses the installation a hash of a key that is taken, naming key_sha256', async () => {
    for (const taken of ['pk_other', ADMIN_KEY]) {
      const answer = await api.call('POST', '/v1/admin/import', {
        body: { apps: [{ app_id: 'guild', api_keys: [{ key_sha256: sha256Hex(taken), scopes: ['read'] }] }] },
      });
      expect(answer.status, taken).to.equal(409);
      expect(answer.body.message).to.equal('apps[0].api_keys[0].key_sha256: this key is not available.');
    }
  });

  it('answers an app admin’s import of hashes alike whether they are free, another app’s or the installation’s', async () => {
    const importing = (key: string) =>
      api.call('POST', '/v1/admin/import', {
        key: 'pk_other',
        body: { apps: [{ app_id: 'other', api_keys: [{ key_sha256: sha256Hex(key), scopes: ['read', 'admin'] }] }] },
      });
    const free = await importing('pk_other_new_0123456789');
    expect(free.status).to.equal(200);
    for (const taken of ['pk_read', ADMIN_KEY]) {
      const answer = await importing(taken);
      expect({ status: answer.status, body: answer.body }, taken).to.deep.equal({ status: free.status, body: free.body });
    }
    // Each key stays its owner's.
    expect((await api.call('GET', '/v1/admin/export?app_id=other', { key: 'pk_read' })).status).to.equal(403);
    expect((await api.call('GET', '/v1/admin/export?app_id=guild', { key: 'pk_guild_admin' })).status).to.equal(200);
    expect((await api.call('GET', '/v1/admin/export?app_id=other', { key: ADMIN_KEY })).status).to.equal(200);
  });
});
