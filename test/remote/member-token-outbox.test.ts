// Member tokens on their way to a remote server: forwarded as X-Questboard-Member, and kept by a
// queued write (sealed, never in clear) for its replay, which drops a write whose token has
// expired meanwhile and tells the page with qb-sync-error. The strategy in the page with a
// pinned clock, and the real service worker; the remote is the reference server, stopped to be
// offline, which verifies every token with the real clock.
import { expect } from '@open-wc/testing';
import { openDB } from 'idb';
import { subscribeToChanges } from '../../src/client/changes.js';
import { QuestboardClient } from '../../src/client/client.js';
import { fetchTransport } from '../../src/client/fetch-transport.js';
import type { SyncErrorMessage } from '../../src/api/broadcast.js';
import { remoteFirst, type RemoteFirst } from '../../src/remote/remote-first.js';
import { configureWorkerRemote } from '../../src/remote/worker-protocol.js';
import { registerWorker, unregisterWorker } from '../api/support.js';
import { MEMBER_KEY, memberTokensFor, mint, mintExpired, secretParts, siteKey, type SiteKey } from '../member-token-keys.js';
import { deleteDatabase, localHandler, type LocalHandler } from './local-handler.js';
import { receivedRequests, remoteUrl, resetRemote, startRemote, stopRemote } from './remote-server.js';

const REMOTE_DB = 'qb-test-member-token-outbox';
const PAGE = 'https://questboard.invalid';

function endorse(token: string, body: Record<string, unknown> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { Authorization: `Bearer ${MEMBER_KEY}`, 'Content-Type': 'application/json', 'X-Questboard-Member': token },
    body: JSON.stringify({ app_id: 'guild', to_account: 'bob', endorsement_id: 'mentor', ...body }),
  };
}

/** The remote's endorsements as [from, to, kind]. */
async function remoteEndorsements(remote: string): Promise<string[][]> {
  const answer = await fetch(`${remote}/v1/admin/export?app_id=guild`, { headers: { Authorization: 'Bearer sk_remote_admin' } });
  const exported = (await answer.json()) as { apps: { endorsements: Record<string, string>[] }[] };
  return exported.apps[0]!.endorsements.map((e) => [e.from_account!, e.to_account!, e.endorsement_id!]);
}

/** Every text a stored value holds, its binary parts read as UTF-8 and as Latin-1 too. */
function storedText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes =
      value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return `${new TextDecoder().decode(bytes)}\n${String.fromCharCode(...bytes)}`;
  }
  if (value instanceof CryptoKey) return JSON.stringify(value.algorithm);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([name, inner]) => `${name}:${storedText(inner)}`)
      .join('\n');
  }
  return String(value);
}

/** Everything the remote-first database holds, store by store. */
async function remoteDatabase(name: string): Promise<Record<string, unknown[]>> {
  const db = await openDB(name);
  try {
    const stores = [...db.objectStoreNames];
    return Object.fromEntries(await Promise.all(stores.map(async (store) => [store, await db.getAll(store)])));
  } finally {
    db.close();
  }
}

function nextSyncErrorEvent(): Promise<SyncErrorMessage> {
  // The page's own channel, as an element's page has it: the event is what a site listens to.
  subscribeToChanges(() => {})();
  return new Promise((resolve) => {
    window.addEventListener('qb-sync-error', (event) => resolve(event.detail), { once: true });
  });
}

describe('member tokens through the remote-first strategy', () => {
  let remote: string;
  let key: SiteKey;

  /** Starts the stopped remote, its dataset afresh, taking the site's member tokens again. */
  async function remoteBack(): Promise<void> {
    await startRemote();
    const imported = await fetch(`${remote}/v1/admin/import`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_remote_admin', 'Content-Type': 'application/json' },
      body: JSON.stringify(memberTokensFor(key)),
    });
    expect(imported.status, await imported.text()).to.equal(200);
  }

  before(async () => {
    remote = await remoteUrl();
    key = await siteKey();
  });
  after(async () => {
    // The next file finds the reference server's dataset as it was.
    await stopRemote();
    await startRemote();
  });

  describe('in the page', () => {
    let local: LocalHandler;
    let clock: number;
    let strategy: RemoteFirst;
    const handle = (path: string, init: RequestInit) => strategy.handle(new Request(`${PAGE}${path}`, init));

    beforeEach(async () => {
      clock = Date.now();
      local = await localHandler(`${REMOTE_DB}-local`);
      strategy = remoteFirst(local.handle, { databaseName: REMOTE_DB, now: () => clock });
      await strategy.configure({ remote });
      await stopRemote();
      await remoteBack();
      await resetRemote(remote);
    });
    afterEach(async () => {
      strategy.close();
      await local.remove();
      await deleteDatabase(REMOTE_DB);
    });

    it('forwards the member token: the remote takes the member from it', async () => {
      const answer = await handle('/v1/endorse_account', endorse(await mint(key)));
      expect(answer.status, await answer.clone().text()).to.equal(200);
      expect(await remoteEndorsements(remote)).to.deep.include(['alice', 'bob', 'mentor']);

      const asBob = await handle('/v1/endorse_account', endorse(await mint(key), { from_account: 'bob', to_account: 'carol' }));
      expect(asBob.status).to.equal(403);
      expect(await remoteEndorsements(remote)).not.to.deep.include(['bob', 'carol', 'mentor']);
    });

    it('queues a write with its token sealed, never in clear, and replays it with that token', async () => {
      const token = await mint(key, { sub: 'carol' });
      await handle('/v1/get_userinfo?app_id=guild&account_name=carol', {
        headers: { Authorization: `Bearer ${MEMBER_KEY}`, 'X-Questboard-Member': token },
      });
      await stopRemote();
      expect((await handle('/v1/endorse_account', endorse(token))).status).to.equal(202);

      strategy.close();
      const stored = await remoteDatabase(REMOTE_DB);
      expect(stored['outbox']).to.have.length(1);
      expect(stored['answers']).to.have.length(1);
      const text = storedText(stored);
      expect(text).to.contain('carol');
      for (const secret of secretParts(token)) expect(text.includes(secret), 'a token or its claims in clear').to.equal(false);
      const [sealingKey] = stored['keys'] as CryptoKey[];
      expect(sealingKey).to.be.instanceOf(CryptoKey);
      expect(sealingKey!.extractable).to.equal(false);
      expect(sealingKey!.algorithm.name).to.equal('AES-GCM');

      strategy = remoteFirst(local.handle, { databaseName: REMOTE_DB, now: () => clock });
      await remoteBack();
      await resetRemote(remote);
      // A restarted strategy knows no key until the page uses it again; the token it reads from the outbox.
      await handle('/v1/health', { headers: { Authorization: `Bearer ${MEMBER_KEY}` } });
      expect((await receivedRequests(remote)).map((r) => r.path)).to.deep.equal(['/v1/endorse_account', '/v1/health']);
      expect(await remoteEndorsements(remote)).to.deep.include(['carol', 'bob', 'mentor']);
    });

    it('drops a queued write whose token expired before its replay, and says so with qb-sync-error', async () => {
      await stopRemote();
      const queuedAt = clock;
      expect((await handle('/v1/endorse_account', endorse(await mint(key, { expiresIn: 120 })))).status).to.equal(202);
      expect((await handle('/v1/endorse_account', endorse(await mint(key, { sub: 'carol' })))).status).to.equal(202);
      clock += 10 * 60 * 1000;
      await remoteBack();
      await resetRemote(remote);

      const reported = nextSyncErrorEvent();
      await strategy.replayOutbox();
      const error = await reported;
      expect(error).to.deep.include({
        type: 'questboard:sync-error',
        reason: 'member-token',
        operation: 'endorse_account',
        status: null,
        queued_at: new Date(queuedAt).toISOString(),
      });
      expect(error.message).to.contain('expired');
      expect(error.request).to.deep.equal({ app_id: 'guild', to_account: 'bob', endorsement_id: 'mentor' });
      // The expired one was never sent; the one after it was.
      expect((await receivedRequests(remote)).map((r) => r.path)).to.deep.equal(['/v1/endorse_account']);
      const endorsements = await remoteEndorsements(remote);
      expect(endorsements).to.deep.include(['carol', 'bob', 'mentor']);
      expect(endorsements).not.to.deep.include(['alice', 'bob', 'mentor']);
      expect(await remoteDatabase(REMOTE_DB).then((stored) => stored['outbox'])).to.deep.equal([]);
    });

    it('drops a sealed token that does not open (moved onto another write) rather than sending it', async () => {
      await stopRemote();
      await handle('/v1/endorse_account', endorse(await mint(key)));
      await handle('/v1/endorse_account', endorse(await mint(key, { sub: 'carol' })));
      strategy.close();
      const db = await openDB(REMOTE_DB);
      const [first, second] = await db.getAll('outbox');
      await db.put('outbox', { ...second, member_token: first.member_token });
      db.close();
      const dropped: SyncErrorMessage[] = [];
      strategy = remoteFirst(local.handle, { databaseName: REMOTE_DB, now: () => clock, onSyncError: (e) => dropped.push(e) });
      await remoteBack();
      await resetRemote(remote);

      await handle('/v1/health', { headers: { Authorization: `Bearer ${MEMBER_KEY}` } });
      expect(dropped.map((e) => [e.reason, e.message])).to.deep.equal([
        ['member-token', 'the member token it was made with could not be read back from the outbox'],
      ]);
      expect(await remoteEndorsements(remote)).to.deep.include(['alice', 'bob', 'mentor']);
      expect(await remoteEndorsements(remote)).not.to.deep.include(['carol', 'bob', 'mentor']);
    });
  });

  describe('in the service worker', () => {
    afterEach(async () => {
      await unregisterWorker();
      await deleteDatabase('questboard-remote');
    });

    it('queues a write with the token the page gave for an expired one, replays it with that token, keeps none in clear', async () => {
      const worker = (await registerWorker()).active!;
      await configureWorkerRemote(worker, { remote });
      await stopRemote();
      const tokens = [await mintExpired(key, { sub: 'carol' }), await mint(key, { sub: 'carol' })];
      let asked = 0;
      const client = new QuestboardClient({
        transport: fetchTransport(`${location.origin}/`, 'service-worker'),
        apiKey: MEMBER_KEY,
        memberToken: async () => tokens[asked++]!,
      });
      // An expired token is refused at once (a queued write could only be dropped), so the page gives a new one.
      const queued = await client.endorseAccount({ app_id: 'guild', to_account: 'bob', endorsement_id: 'mentor' });
      expect(queued).to.deep.equal({ is_valid: true, message: null, queued: true });
      expect(asked).to.equal(2);

      const stored = await remoteDatabase('questboard-remote');
      expect(stored['outbox']).to.have.length(1);
      const text = storedText(stored);
      expect(text).to.contain('mentor');
      for (const secret of tokens.flatMap(secretParts))
        expect(text.includes(secret), 'a token or its claims in clear').to.equal(false);

      await remoteBack();
      await resetRemote(remote);
      await fetch('/v1/health', { headers: { Authorization: `Bearer ${MEMBER_KEY}` } });
      expect((await receivedRequests(remote)).map((r) => r.path)).to.deep.equal(['/v1/endorse_account', '/v1/health']);
      expect(await remoteEndorsements(remote)).to.deep.include(['carol', 'bob', 'mentor']);
    });
  });
});
