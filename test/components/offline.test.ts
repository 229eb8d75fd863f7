// What members see while the configured remote cannot be reached: the last
// answer, marked as such, and a page event when a queued write is refused.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB } from 'idb';
import { configure, resolveTransport, QuestboardClient } from '../../src/client/index.js';
import { announceChange } from '../../src/client/changes.js';
import type { InPageTransport } from '../../src/client/in-page-transport.js';
import type { QbUserCard } from '../../src/components/qb-user-card/qb-user-card.js';
import '../../src/components/qb-user-card/qb-user-card.js';
import { startLeaderboardContainers } from '../../src/embed/leaderboard-containers.js';
import { injectFault, remoteUrl, resetRemote } from '../remote/remote-server.js';
import { API_KEY, APP_ID } from './support.js';

const kept = (el: HTMLElement) => el.shadowRoot!.querySelector('[part="kept"]');

describe('offline from the remote', () => {
  let remote: string;
  before(async () => {
    remote = await remoteUrl();
  });
  beforeEach(async () => {
    await resetRemote(remote);
    configure({ apiKey: API_KEY, serviceWorker: 'none', remote, baseUrl: undefined, transport: undefined });
  });
  after(async () => {
    await resetRemote(remote);
    const { transport } = await resolveTransport();
    await (transport as InPageTransport).close?.();
    configure({ apiKey: undefined, serviceWorker: undefined, remote: undefined });
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  it('shows the last answer with "Offline — last updated …" and drops the mark once the remote answers', async () => {
    const el = await fixture<QbUserCard>(html`<qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card>`);
    await waitUntil(() => el.shadowRoot!.querySelector('[part~="card"]'), 'the card never loaded', { timeout: 10_000 });
    expect(kept(el)).to.equal(null);

    await injectFault(remote, 503);
    announceChange({ type: 'questboard:change', app_id: APP_ID, scope: 'members', account_names: ['alice'] });
    await waitUntil(() => kept(el), 'the card never said it shows a kept answer', { timeout: 10_000 });
    expect(kept(el)!.textContent).to.match(/^Offline — last updated (now|\d+ sec\. ago|\d+ min\. ago)$/);
    expect(kept(el)!.getAttribute('role')).to.equal('status');
    expect(el.shadowRoot!.querySelector('[part~="card"]'), 'the kept data stays on screen').not.to.equal(null);
    await expect(el).to.be.accessible();

    await resetRemote(remote);
    announceChange({ type: 'questboard:change', app_id: APP_ID, scope: 'members', account_names: ['alice'] });
    await waitUntil(() => kept(el) === null, 'the mark stayed after the remote answered', { timeout: 10_000 });
  });

  it('shows the same notice above the rows of a leaderboard container the embed filled', async () => {
    const container = await fixture<HTMLDivElement>(html`<div data-questboard-leaderboard data-app-id=${APP_ID}></div>`);
    startLeaderboardContainers();
    const notice = () => container.querySelector('.qb-lb > .qb-lb__kept');
    const refreshed = () => container.getAttribute('aria-busy') === 'false' && container.querySelector('table') !== null;
    await waitUntil(refreshed, 'the container never filled', { timeout: 10_000 });
    expect(notice()).to.equal(null);

    await injectFault(remote, 503);
    announceChange({ type: 'questboard:change', app_id: APP_ID, scope: 'app' });
    await waitUntil(notice, 'the container never said it shows a kept answer', { timeout: 10_000 });
    expect(notice()!.textContent).to.match(/^Offline — last updated (now|\d+ sec\. ago|\d+ min\. ago)$/);
    expect(notice()!.getAttribute('role')).to.equal('status');
    expect(container.querySelectorAll('tbody tr').length, 'the kept rows stay on screen').to.be.greaterThan(0);
    await expect(container).to.be.accessible();

    await resetRemote(remote);
    announceChange({ type: 'questboard:change', app_id: APP_ID, scope: 'app' });
    await waitUntil(() => notice() === null, 'the notice stayed after the remote answered', { timeout: 10_000 });
  });

  it('tells the page with qb-sync-error when the remote refuses a queued write on replay', async () => {
    const { transport } = await resolveTransport();
    const client = new QuestboardClient({ transport, apiKey: API_KEY });
    const refused = new Promise<CustomEvent>((resolve) =>
      addEventListener('qb-sync-error', resolve as EventListener, { once: true }),
    );

    await injectFault(remote, 503);
    // Queued while the remote is down; the remote knows no member 'nobody', so it will refuse it.
    const queued = await client.endorseAccount({
      app_id: APP_ID,
      from_account: 'alice',
      to_account: 'nobody',
      endorsement_id: 'x',
    });
    expect(queued).to.include({ is_valid: true, queued: true });

    await resetRemote(remote);
    await client.getUserInfo({ app_id: APP_ID, account_name: 'alice' }); // the next request replays the outbox
    const event = await refused;
    expect(event.detail).to.include({ type: 'questboard:sync-error', operation: 'endorse_account', status: 404 });
  });
});
