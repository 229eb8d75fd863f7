// The handler's own promises: a bug is a 500 with the usual body, never a
// rejection, a hang or a stack trace in the answer.
import { expect } from '@open-wc/testing';
import { createHandler } from '../../src/server/handler.js';
import type { Store } from '../../src/store/index.js';

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
});
