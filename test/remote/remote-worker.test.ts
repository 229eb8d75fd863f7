// The strategy as the service worker hosts it: setting by message, kept across
// a restart of the worker, and its answers reaching the page through fetch.
import { expect } from '@open-wc/testing';
import { configureWorkerRemote } from '../../src/remote/worker-protocol.js';
import type { SyncErrorMessage } from '../../src/remote/remote-first.js';
import { registerWorker } from '../api/support.js';
import { deleteDatabase } from './local-handler.js';
import { receivedRequests, remoteUrl, resetRemote, startRemote, stopRemote } from './remote-server.js';

const KEY = { Authorization: 'Bearer pk_guild' };

async function startWorker(): Promise<ServiceWorker> {
  return (await registerWorker()).active!;
}

async function stopWorker(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  await registration?.unregister();
}

describe('remote-first in the service worker', () => {
  let remote: string;

  before(async () => {
    remote = await remoteUrl();
  });

  beforeEach(async () => {
    await resetRemote(remote);
  });

  afterEach(async () => {
    await stopWorker();
    await startRemote();
    await deleteDatabase('questboard-remote');
    await deleteDatabase('questboard');
  });

  it('forwards to the remote the page configured, and still does once the worker restarted', async () => {
    const settings = await configureWorkerRemote(await startWorker(), { remote, timeoutMs: 2_000 });
    expect(settings).to.deep.equal({ remote, timeout_ms: 2_000 });

    const answer = await fetch('/v1/get_userinfo?app_id=guild&account_name=alice', { headers: KEY });
    expect(answer.status).to.equal(200);
    expect((await answer.json()).current_xp).to.equal(5);

    await stopWorker();
    await startWorker();
    const again = await fetch('/v1/get_userinfo?app_id=guild&account_name=alice', { headers: KEY });
    expect((await again.json()).current_xp).to.equal(5);
    expect((await receivedRequests(remote)).map((r) => r.path)).to.deep.equal(['/v1/get_userinfo', '/v1/get_userinfo']);
  });

  it('refuses a remote that is not an http(s) URL, saying why', async () => {
    let refused: unknown = null;
    await configureWorkerRemote(await startWorker(), { remote: 'javascript:alert(1)' }).catch(
      (error: unknown) => (refused = error),
    );
    expect(String(refused)).to.contain('remote must be');
  });

  it('refuses an http: remote other than this machine, saying https: is needed', async () => {
    const worker = await startWorker();
    await configureWorkerRemote(worker, { remote });
    let refused: unknown = null;
    await configureWorkerRemote(worker, { remote: 'http://api.example.com' }).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.contain('https:');
    await fetch('/v1/health', { headers: KEY });
    expect(
      (await receivedRequests(remote)).map((r) => r.path),
      'the remote in force stays',
    ).to.deep.equal(['/v1/health']);
  });

  it('serves the kept answer while the remote is down, queues a write and replays it when it is back', async () => {
    await configureWorkerRemote(await startWorker(), { remote });
    await fetch('/v1/get_userinfo?app_id=guild&account_name=alice', { headers: KEY });
    await stopRemote();

    const kept = await fetch('/v1/get_userinfo?app_id=guild&account_name=alice', { headers: KEY });
    expect(kept.headers.get('X-Questboard-Source')).to.equal('cache');
    const write = await fetch('/v1/endorse_account', {
      method: 'POST',
      headers: { ...KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_id: 'guild', from_account: 'carol', to_account: 'alice', endorsement_id: 'mentor' }),
    });
    expect(write.status).to.equal(202);

    await startRemote();
    const fresh = await fetch('/v1/get_userinfo?app_id=guild&account_name=alice', { headers: KEY });
    expect(fresh.headers.get('X-Questboard-Source')).to.equal(null);
    expect((await fresh.json()).current_xp).to.equal(10);
    expect((await receivedRequests(remote)).map((r) => r.path)).to.deep.equal(['/v1/endorse_account', '/v1/get_userinfo']);
  });

  it('tells the page on the questboard channel when the remote refuses a queued write', async () => {
    await configureWorkerRemote(await startWorker(), { remote });
    await stopRemote();
    await fetch('/v1/connect_social', {
      method: 'POST',
      headers: { ...KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ app_id: 'no-such-app', account_name: 'carol', twitter_name: 'carol_c' }),
    });
    await startRemote();

    const channel = new BroadcastChannel('questboard');
    const reported = new Promise<SyncErrorMessage>((resolve) => {
      channel.onmessage = (event) => {
        if ((event.data as { type?: string }).type === 'questboard:sync-error') resolve(event.data as SyncErrorMessage);
      };
    });
    await fetch('/v1/health', { headers: KEY });
    const error = await reported;
    channel.close();
    expect(error.operation).to.equal('connect_social');
    expect(error.status).to.equal(404);
  });
});
