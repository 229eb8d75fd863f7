// The strategy as the in-page transport hosts it: the window's `online` event replays the outbox.
import { expect } from '@open-wc/testing';
import { remoteFirstInPage } from '../../src/remote/remote-first-page.js';
import type { RemoteFirst } from '../../src/remote/remote-first.js';
import { deleteDatabase, localHandler, type LocalHandler } from './local-handler.js';
import { receivedRequests, remoteUrl, resetRemote, startRemote, stopRemote } from './remote-server.js';

const LOCAL_DB = 'qb-test-remote-page-local';
const REMOTE_DB = 'qb-test-remote-page-remote';

async function untilReceived(remote: string, count: number): Promise<string[]> {
  for (;;) {
    const paths = (await receivedRequests(remote)).map((r) => r.path);
    if (paths.length >= count) return paths;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('remote-first in the page', () => {
  let remote: string;
  let local: LocalHandler;
  let strategy: RemoteFirst;

  before(async () => {
    remote = await remoteUrl();
  });

  beforeEach(async () => {
    local = await localHandler(LOCAL_DB);
    strategy = remoteFirstInPage(local.handle, { databaseName: REMOTE_DB });
    await strategy.configure({ remote });
    await resetRemote(remote);
  });

  afterEach(async () => {
    strategy.close();
    await local.remove();
    await deleteDatabase(REMOTE_DB);
    await startRemote();
  });

  it('replays the outbox when the window comes back online', async () => {
    await stopRemote();
    const write = await strategy.handle(
      new Request('https://questboard.invalid/v1/connect_social', {
        method: 'POST',
        headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json' },
        body: JSON.stringify({ app_id: 'guild', account_name: 'carol', twitter_name: 'carol_c' }),
      }),
    );
    expect(write.status).to.equal(202);
    await startRemote();

    window.dispatchEvent(new Event('online'));
    expect(await untilReceived(remote, 1)).to.deep.equal(['/v1/connect_social']);
  });
});
