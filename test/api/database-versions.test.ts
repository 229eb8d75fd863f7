// Another tab's Questboard holds the database at another version: requests
// answer 503 saying what to do, in bounded time, and the elements show it.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB, openDB } from 'idb';
import { configure } from '../../src/client/config.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import '../../src/components/qb-user-card/qb-user-card.js';
import { createHandler } from '../../src/handler/handler.js';
import { openIndexedDbStore } from '../../src/store/indexeddb/index.js';
import { DATABASE_VERSION } from '../../src/store/indexeddb/migrations.js';
import { openEarlierVersion } from './earlier-layouts.js';
import { localApi, registerWorker, seed, unregisterWorker, workerCall } from './support.js';

const OLDER_OPEN = /another tab holds an older version of Questboard's database open; close or reload it/;
const NEWER_OPEN = /a newer version of Questboard is open in another tab; reload this page/i;

/**
 * A version-1 database held open by a connection that, like a tab of an old
 * Questboard, never lets go when asked to. Version 1 because its layout never
 * changes; every migration since runs when it is released.
 */
const holdVersion1 = (name: string) => openEarlierVersion(name, 1);

/** What a newer Questboard in another tab leaves: the database one version ahead of this code. */
async function openNewer(name: string) {
  return openDB(name, DATABASE_VERSION + 1);
}

describe('database versions held by other tabs', () => {
  it('answers 503 while an older version holds the database open, and serves once it lets go', async () => {
    const api = localApi();
    const old = await holdVersion1(api.name);
    try {
      const blocked = await api.call('GET', '/v1/get_leaderboard?app_id=guild');
      expect(blocked.status).to.equal(503);
      expect(blocked.body.is_valid).to.equal(false);
      expect(blocked.body.message).to.match(OLDER_OPEN);
      // Still blocked: the next request gets the same answer, not a hang.
      expect((await api.call('GET', '/v1/get_leaderboard?app_id=guild')).status).to.equal(503);
    } finally {
      old.close();
    }
    expect((await seed(api.call, Date.now())).status).to.equal(200);
    expect((await api.call('GET', '/v1/get_leaderboard?app_id=guild')).status).to.equal(200);
    await api.close();
  });

  it('answers 503, never 500, once a newer version has opened the database', async () => {
    const api = localApi();
    expect((await seed(api.call, Date.now())).status).to.equal(200);
    // The store lets go when asked, so the newer version opens at once.
    const newer = await openNewer(api.name);
    for (const attempt of [1, 2]) {
      const answer = await api.call('GET', '/v1/get_leaderboard?app_id=guild');
      expect(answer.status, `attempt ${attempt}`).to.equal(503);
      expect(answer.body.is_valid).to.equal(false);
      expect(answer.body.message).to.match(NEWER_OPEN);
    }
    newer.close();
    await api.close();
  });

  it('tells its host each time the database is newer than this code', async () => {
    const name = `questboard-test-${crypto.randomUUID()}`;
    (await openNewer(name)).close();
    let told = 0;
    const store = openIndexedDbStore({ name, onNewerVersion: () => told++ });
    const handle = createHandler({ store });
    const request = () =>
      new Request('https://questboard.test/v1/get_leaderboard?app_id=guild', { headers: { authorization: 'Bearer sk_admin' } });
    for (let i = 0; i < 2; i++) expect((await handle(request())).status).to.equal(503);
    expect(told).to.equal(2);
    store.close();
    await deleteDB(name);
  });

  it('shows the member what to do, with a way to try again', async () => {
    const dbName = `qb-versions-${crypto.randomUUID()}`;
    (await openNewer(dbName)).close();
    const transport = inPageTransport({ dbName });
    configure({ apiKey: 'pk_guild', transport, baseUrl: undefined, serviceWorker: undefined, remote: undefined });
    try {
      const card = await fixture(html`<qb-user-card app-id="guild" account-name="alice"></qb-user-card>`);
      await waitUntil(() => card.shadowRoot!.querySelector('.qb-error'), 'no error shown');
      const error = card.shadowRoot!.querySelector('.qb-error')!;
      expect(error.querySelector('[role="alert"]')!.textContent).to.match(NEWER_OPEN);
      expect(error.querySelector('button')!.textContent).to.contain('Try again');
    } finally {
      configure({ apiKey: undefined, transport: undefined });
      await transport.close();
      await deleteDB(dbName);
      await deleteDB(`${dbName}-remote`);
    }
  });

  describe('through the service worker', () => {
    before(registerWorker);
    after(unregisterWorker);

    it('answers 503 once a newer version has opened the database', async () => {
      const newer = await openNewer('questboard');
      try {
        const answer = await workerCall('GET', '/v1/get_leaderboard?app_id=guild');
        expect(answer.status).to.equal(503);
        expect(answer.body.message).to.match(NEWER_OPEN);
      } finally {
        newer.close();
      }
    });
  });
});
