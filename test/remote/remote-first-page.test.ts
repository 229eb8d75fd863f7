// The strategy as the in-page transport hosts it: the window's `online` event replays the outbox.
import { expect } from '@open-wc/testing';
import { inPageTransport, type InPageTransport } from '../../src/client/index.js';
import { deleteDatabase } from './local-handler.js';
import { receivedRequests, remoteUrl, resetRemote, startRemote, stopRemote } from './remote-server.js';

const DB = 'qb-test-remote-page';

async function untilReceived(remote: string, count: number): Promise<string[]> {
  for (;;) {
    const paths = (await receivedRequests(remote)).map((r) => r.path);
    if (paths.length >= count) return paths;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('remote-first in the page', () => {
  let remote: string;
  let transport: InPageTransport;

  before(async () => {
    remote = await remoteUrl();
  });

  beforeEach(async () => {
    transport = inPageTransport({ dbName: DB, remote: { remote } });
    await resetRemote(remote);
  });

  afterEach(async () => {
    await transport.close();
    await deleteDatabase(DB);
    await deleteDatabase(`${DB}-remote`);
    await startRemote();
  });

  it('replays the outbox when the window comes back online', async () => {
    await stopRemote();
    const write = await transport.send('v1/connect_social', {
      method: 'POST',
      headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_id: 'guild', account_name: 'carol', twitter_name: 'carol_c' }),
    });
    expect(write.status).to.equal(202);
    await startRemote();

    window.dispatchEvent(new Event('online'));
    expect(await untilReceived(remote, 1)).to.deep.equal(['/v1/connect_social']);
  });
});
