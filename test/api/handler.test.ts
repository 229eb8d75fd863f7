// The handler's own promises: a bug is a 500 with the usual body, never a
// rejection, a hang or a stack trace in the answer; and what a host sets: the
// database the health check asks, and whether an empty store takes a bootstrap.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { addAdminKeys } from '../../src/core/access.js';
import { createHandler } from '../../src/handler/handler.js';
import type { Store } from '../../src/store/index.js';
import { openIndexedDbStore } from '../../src/store/indexeddb/index.js';
import { ADMIN_KEY, dataset, WEDNESDAY } from './support.js';

const failingStore: Store = {
  read: async () => {
    throw new TypeError('secret internals at store.ts:42');
  },
  write: async () => {
    throw new TypeError('secret internals at store.ts:42');
  },
  ping: async () => undefined,
  close: async () => undefined,
};

describe('handler', () => {
  it('answers a bug with 500 {is_valid:false, message} and no internals', async () => {
    const originalError = console.error;
    const logged: unknown[] = [];
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const handle = createHandler({ store: failingStore });
      const response = await handle(
        new Request('https://q.test/v1/get_userinfo?app_id=a&account_name=b', { headers: { authorization: 'Bearer k' } }),
      );
      expect(response.status).to.equal(500);
      const text = await response.text();
      expect(JSON.parse(text)).to.deep.equal({ is_valid: false, message: 'Internal error: the request could not be completed.' });
      expect(text).not.to.contain('store.ts');
      expect(logged).to.have.length(1);
    } finally {
      console.error = originalError;
    }
  });

  it('routes under any scope: the path after the last /v1/ names the operation', async () => {
    const handle = createHandler({ store: failingStore });
    const response = await handle(new Request('https://q.test/community/forum/v1/health'));
    expect(response.status).to.equal(200);
    expect((await response.json()).version).to.be.a('string');
    const outside = await handle(new Request('https://q.test/health'));
    expect(outside.status).to.equal(404);
  });

  it('asks the database for the health check: 503 when it does not answer, its reason told only to the host', async () => {
    const told: unknown[] = [];
    const unreachable: Store = {
      ...failingStore,
      ping: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
      },
    };
    const handle = createHandler({
      store: unreachable,
      onUnexpectedError: (error) => told.push(error),
    });
    const response = await handle(new Request('https://q.test/v1/health'));
    expect(response.status).to.equal(503);
    expect(await response.json()).to.deep.equal({
      is_valid: false,
      message: "The database does not answer; the server's log says why.",
    });
    expect(told.map((error) => (error as Error).message)).to.deep.equal(['connect ECONNREFUSED 10.0.0.5:5432']);
  });

  it('refuses the bootstrap import where the host takes none, telling its operator what to do, then serves the keys it is given', async () => {
    const name = `questboard-test-${crypto.randomUUID()}`;
    const store = openIndexedDbStore({ name });
    try {
      const handle = createHandler({ store, allowBootstrap: false });
      const importing = (key: string) =>
        handle(
          new Request('https://q.test/v1/admin/import', {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(dataset(WEDNESDAY)),
          }),
        );
      const refused = await importing(ADMIN_KEY);
      expect(refused.status).to.equal(401);
      const { message } = await refused.json();
      expect(message).to.match(/no admin key yet.*QUESTBOARD_ADMIN_KEYS or --admin-keys-file.*--allow-bootstrap/);
      await store.write((tx) => addAdminKeys(tx, ['sk_installed']));
      expect((await importing('sk_installed')).status).to.equal(200);
    } finally {
      store.close();
      await deleteDB(name);
    }
  });
});
