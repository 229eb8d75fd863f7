import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB } from 'idb';
import { QuestboardClient, configure, resolveTransport, subscribeToChanges, type ChangeNotice } from '../../src/client/index.js';
import type { InPageTransport } from '../../src/client/in-page-transport.js';
import { connectServiceWorker } from '../../src/client/service-worker.js';
import { configureWorkerRemote } from '../../src/remote/worker-protocol.js';
import { receivedRequests, remoteUrl, resetRemote } from '../remote/remote-server.js';
import '../../src/components/qb-user-card/qb-user-card.js';
import { ADMIN_KEY, API_KEY, APP_ID, guildDataset } from '../components/support.js';

const RESET = { apiKey: API_KEY, transport: undefined, baseUrl: undefined, serviceWorker: undefined, remote: undefined };

async function unregisterAll() {
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
}

describe('transport choice and the service worker', () => {
  after(async () => {
    configure({ ...RESET, apiKey: undefined });
    await unregisterAll();
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  it('falls back to the in-page transport when the worker is disabled or on another origin', async () => {
    configure({ ...RESET, serviceWorker: 'none' });
    expect(await resolveTransport()).to.deep.include({ reason: 'service worker disabled' });
    expect((await resolveTransport()).transport.kind).to.equal('in-page');
    configure({ serviceWorker: 'https://cdn.example/questboard-sw.js' });
    const crossOrigin = await resolveTransport();
    expect(crossOrigin.transport.kind).to.equal('in-page');
    expect(crossOrigin.reason).to.equal('the worker URL https://cdn.example/questboard-sw.js is not on this origin');
    expect(await navigator.serviceWorker.getRegistrations()).to.have.length(0);
  });

  it('asks a configured remote first from the in-page handler', async () => {
    const remote = await remoteUrl();
    await resetRemote(remote);
    configure({ ...RESET, serviceWorker: 'none', remote });
    const { transport, reason } = await resolveTransport();
    expect(transport.kind).to.equal('in-page');
    expect(reason).to.equal(`service worker disabled; remote ${remote} first`);
    // Only the remote knows this app and bob's endorsement of alice.
    const alice = await new QuestboardClient({ transport, apiKey: API_KEY }).getUserInfo({
      app_id: APP_ID,
      account_name: 'alice',
    });
    expect(alice.current_xp).to.equal(5);
    expect((await receivedRequests(remote)).map((request) => request.path.split('?')[0])).to.include('/v1/get_userinfo');
    await (transport as InPageTransport).close();
  });

  it('never replaces a worker the site registered at that scope', async () => {
    const site = await navigator.serviceWorker.register('/test/client/site-worker.js', { scope: '/test/client/' });
    await waitUntil(() => site.active, 'site worker never activated');
    const connection = await connectServiceWorker('/test/client/questboard-sw.js', API_KEY);
    expect(connection.scope).to.equal(null);
    expect((connection as { reason: string }).reason).to.equal(
      `the site's own worker ${location.origin}/test/client/site-worker.js is registered at ${location.origin}/test/client/`,
    );
    const still = await navigator.serviceWorker.getRegistration('/test/client/');
    expect(still!.active!.scriptURL).to.equal(`${location.origin}/test/client/site-worker.js`);
    await site.unregister();
  });

  it('hands a configured remote to the worker', async () => {
    const remote = await remoteUrl();
    await resetRemote(remote);
    configure({ ...RESET, serviceWorker: '/questboard-sw.js', remote });
    const { transport, reason } = await resolveTransport();
    expect(transport.kind).to.equal('service-worker');
    expect(reason).to.equal(`worker controls this page, remote ${remote} first`);
    try {
      const alice = await new QuestboardClient({ transport, apiKey: API_KEY }).getUserInfo({
        app_id: APP_ID,
        account_name: 'alice',
      });
      expect(alice.current_xp).to.equal(5);
      expect((await receivedRequests(remote)).map((request) => request.path.split('?')[0])).to.include('/v1/get_userinfo');
    } finally {
      await configureWorkerRemote(navigator.serviceWorker.controller!, { remote: null });
    }
  });

  it('registers a same-origin worker, talks through it and hears its changes', async () => {
    configure({ ...RESET, serviceWorker: '/questboard-sw.js' });
    const { transport, reason } = await resolveTransport();
    expect(transport.kind).to.equal('service-worker');
    expect(reason).to.equal('worker controls this page');
    expect(navigator.serviceWorker.controller!.scriptURL).to.equal(`${location.origin}/questboard-sw.js`);

    const admin = new QuestboardClient({ transport, apiKey: ADMIN_KEY });
    await admin.admin.importDataset(guildDataset(), { mode: 'replace' });
    const member = new QuestboardClient({ transport, apiKey: API_KEY });
    const heard = new Promise<ChangeNotice>((resolve) => {
      const stop = subscribeToChanges((change) => {
        if (change.scope === 'members' && change.account_names.includes('bob')) {
          stop();
          resolve(change);
        }
      });
    });
    await member.endorseAccount({ app_id: APP_ID, from_account: 'alice', to_account: 'bob', endorsement_id: 'helpful' });
    expect((await heard).app_id).to.equal(APP_ID);
    expect((await member.getUserInfo({ app_id: APP_ID, account_name: 'bob' })).current_xp).to.equal(15);

    // Registered already: a second page load reuses it rather than registering again.
    configure({ serviceWorker: '/questboard-sw.js' });
    expect((await resolveTransport()).transport.kind).to.equal('service-worker');
  });

  it('lets one element talk to another base URL than the page', async () => {
    configure({ ...RESET, serviceWorker: 'none' });
    const element = await fixture(
      html`<qb-user-card app-id=${APP_ID} account-name="bob" base-url=${`${location.origin}/`}></qb-user-card>`,
    );
    await waitUntil(() => element.shadowRoot!.querySelector('.card'), 'never loaded through the worker');
    expect(element.shadowRoot!.querySelector('.xp-label')!.textContent).to.equal('15 of 100 XP');
  });
});
