// How a page passes its member token: Questboard.configure({ memberToken }) as a string or a
// function, sent as X-Questboard-Member with the member writes through every transport (the
// in-page handler, the real service worker, a remote server, and the worker forwarding to
// one), asked for again once when an answer says it has expired, and its refusals classified.
import { expect } from '@open-wc/testing';
import { deleteDB } from 'idb';
import { clientFor, configure } from '../../src/client/config.js';
import { QuestboardClient } from '../../src/client/client.js';
import { fetchTransport } from '../../src/client/fetch-transport.js';
import type { InPageTransport } from '../../src/client/in-page-transport.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import { QuestboardError } from '../../src/client/questboard-error.js';
import type { Transport } from '../../src/client/transport.js';
import type { Dataset } from '../../src/api/schemas.js';
import { configureWorkerRemote } from '../../src/remote/worker-protocol.js';
import { registerWorker, unregisterWorker } from '../api/support.js';
import { ADMIN_KEY, APP_ID, guildDataset } from '../components/support.js';
import { MEMBER_KEY, memberTokensFor, mint, mintExpired, siteKey, type SiteKey } from '../member-token-keys.js';
import { deleteDatabase } from '../remote/local-handler.js';
import { remoteUrl, startRemote, stopRemote } from '../remote/remote-server.js';

const RESET = { transport: undefined, baseUrl: undefined, serviceWorker: undefined, remote: undefined, memberToken: undefined };
const REMOTE_ADMIN_KEY = 'sk_remote_admin';

/** The endorsements of the app, as [from, to] pairs, read with an admin key. */
async function endorsementsOf(transport: Transport, adminKey = ADMIN_KEY): Promise<string[][]> {
  const exported = await new QuestboardClient({ transport, apiKey: adminKey }).admin.exportApp({ app_id: APP_ID });
  return (exported.apps?.[0]?.endorsements ?? []).map((e) => [e.from_account, e.to_account]);
}

const endorseBob = (client: QuestboardClient, from?: string) =>
  client.endorseAccount({
    app_id: APP_ID,
    to_account: 'bob',
    endorsement_id: 'helpful',
    ...(from ? { from_account: from } : {}),
  });

async function refusal(write: Promise<unknown>): Promise<QuestboardError> {
  try {
    await write;
  } catch (error) {
    if (error instanceof QuestboardError) return error;
    throw error;
  }
  throw new Error('the write was not refused');
}

describe('member tokens from the page', () => {
  let key: SiteKey;
  before(async () => {
    key = await siteKey();
  });

  describe('through the in-page transport', () => {
    let transport: InPageTransport;
    const dbName = `qb-member-tokens-${crypto.randomUUID()}`;

    beforeEach(async () => {
      transport = inPageTransport({ dbName });
      const admin = new QuestboardClient({ transport, apiKey: ADMIN_KEY });
      await admin.admin.importDataset(guildDataset(), { mode: 'replace' });
      await admin.admin.importDataset(memberTokensFor(key) as Dataset);
    });
    afterEach(async () => {
      configure(RESET);
      await transport.close();
      await deleteDB(dbName);
      await deleteDB(`${dbName}-remote`);
    });

    it("configure({ memberToken }) as a string: endorses as the token's member, without from_account", async () => {
      const token = await mint(key);
      configure({ ...RESET, transport, apiKey: MEMBER_KEY, memberToken: token });
      const client = await clientFor();
      expect(await client.signedInMember()).to.equal('alice');
      expect(await endorseBob(client)).to.deep.equal({ is_valid: true, message: null });
      expect(await endorsementsOf(transport)).to.deep.equal([['alice', 'bob']]);
    });

    it('configure({ memberToken }) as an async function: asked once for every write and element', async () => {
      let asked = 0;
      configure({
        ...RESET,
        transport,
        apiKey: MEMBER_KEY,
        memberToken: async () => {
          asked += 1;
          return mint(key, { sub: 'carol' });
        },
      });
      const client = await clientFor();
      await endorseBob(client);
      await client.connectSocial({ app_id: APP_ID, twitter_name: 'carol_c' });
      expect(await (await clientFor({ apiKey: MEMBER_KEY })).signedInMember()).to.equal('carol');
      expect(asked).to.equal(1);
      expect(await endorsementsOf(transport)).to.deep.equal([['carol', 'bob']]);
      const carol = await client.getUserInfo({ app_id: APP_ID, account_name: 'carol' });
      expect(carol.account_name).to.equal('carol');
    });

    it('asks the function once more when the answer says the token expired, and the write goes through', async () => {
      const tokens = [await mintExpired(key), await mint(key)];
      let asked = 0;
      configure({ ...RESET, transport, apiKey: MEMBER_KEY, memberToken: () => Promise.resolve(tokens[asked++]!) });
      expect(await endorseBob(await clientFor())).to.deep.equal({ is_valid: true, message: null });
      expect(asked).to.equal(2);
      expect(await endorsementsOf(transport)).to.deep.equal([['alice', 'bob']]);
    });

    it('retries only once: a function that gives expired tokens leaves the member signed out', async () => {
      let asked = 0;
      configure({
        ...RESET,
        transport,
        apiKey: MEMBER_KEY,
        memberToken: () => {
          asked += 1;
          return mintExpired(key);
        },
      });
      const error = await refusal(endorseBob(await clientFor()));
      expect(asked).to.equal(2);
      expect(error).to.include({ status: 401, kind: 'signed-out', code: 'member-token-expired' });
      expect(await endorsementsOf(transport)).to.deep.equal([]);
    });

    it('cannot ask a string again: an expired one is refused once, as signed-out', async () => {
      configure({ ...RESET, transport, apiKey: MEMBER_KEY, memberToken: await mintExpired(key) });
      const error = await refusal(endorseBob(await clientFor()));
      expect(error).to.include({ status: 401, kind: 'signed-out', code: 'member-token-expired' });
    });

    it('classifies the refusals: no token is signed-out, a token of another key is the site’s to fix', async () => {
      configure({ ...RESET, transport, apiKey: MEMBER_KEY });
      const client = await clientFor();
      expect(await client.signedInMember()).to.equal(null);
      expect(await refusal(endorseBob(client))).to.include({ kind: 'signed-out', code: 'member-token-missing' });

      configure({ memberToken: await mint(await siteKey('rotated-out')) });
      expect(await refusal(endorseBob(await clientFor()))).to.include({
        status: 401,
        kind: 'member-token',
        code: 'member-token-unknown-key',
      });
    });

    it('a token for alice cannot endorse as bob or connect bob’s profile: 403, nothing written', async () => {
      configure({ ...RESET, transport, apiKey: MEMBER_KEY, memberToken: await mint(key) });
      const client = await clientFor();
      const asBob = await refusal(
        client.endorseAccount({ app_id: APP_ID, from_account: 'bob', to_account: 'carol', endorsement_id: 'helpful' }),
      );
      expect(asBob).to.include({ status: 403, kind: 'forbidden', code: 'not-that-member' });
      const forBob = await refusal(client.connectSocial({ app_id: APP_ID, account_name: 'bob', twitter_name: 'not_bob' }));
      expect(forBob).to.include({ status: 403, kind: 'forbidden' });
      expect(await endorsementsOf(transport)).to.deep.equal([]);
    });

    it('keeps the transport when only the member changes, and asks the new function', async () => {
      configure({ ...RESET, transport, apiKey: MEMBER_KEY, memberToken: await mint(key) });
      const before = await clientFor();
      configure({ memberToken: () => mint(key, { sub: 'carol' }) });
      const after = await clientFor();
      expect(after).not.to.equal(before);
      expect(after.transport).to.equal(before.transport);
      expect(await after.signedInMember()).to.equal('carol');
    });
  });

  describe('through the service worker', () => {
    const worker = () => fetchTransport(`${location.origin}/`, 'service-worker');

    beforeEach(async () => {
      await registerWorker();
      const admin = new QuestboardClient({ transport: worker(), apiKey: ADMIN_KEY });
      await admin.admin.importDataset(guildDataset(), { mode: 'replace' });
      await admin.admin.importDataset(memberTokensFor(key) as Dataset);
    });
    afterEach(async () => {
      configure(RESET);
      await unregisterWorker();
      await deleteDatabase('questboard-remote');
    });

    it('sends the token on the fetch the worker answers, and the expired-token retry works there too', async () => {
      const tokens = [await mintExpired(key), await mint(key, { sub: 'carol' })];
      let asked = 0;
      configure({ ...RESET, baseUrl: `${location.origin}/`, apiKey: MEMBER_KEY, memberToken: async () => tokens[asked++]! });
      const client = await clientFor();
      expect(client.transport.kind).to.equal('service-worker');
      await endorseBob(client);
      expect(asked).to.equal(2);
      expect(await endorsementsOf(worker())).to.deep.equal([['carol', 'bob']]);
    });
  });

  describe('through a remote server', () => {
    let remote: string;

    before(async () => {
      remote = await remoteUrl();
    });
    beforeEach(async () => {
      const admin = new QuestboardClient({ transport: fetchTransport(remote), apiKey: REMOTE_ADMIN_KEY });
      await admin.admin.importDataset(memberTokensFor(key) as Dataset);
    });
    afterEach(async () => {
      configure(RESET);
      // The next file finds the reference server's dataset as it was.
      await stopRemote();
      await startRemote();
    });

    it('sends the token cross-origin, reads the refusal code across CORS, and retries', async () => {
      const tokens = [await mintExpired(key), await mint(key)];
      let asked = 0;
      configure({ ...RESET, baseUrl: remote, apiKey: MEMBER_KEY, memberToken: async () => tokens[asked++]! });
      await endorseBob(await clientFor());
      expect(asked).to.equal(2);
      expect(await endorsementsOf(fetchTransport(remote), REMOTE_ADMIN_KEY)).to.deep.include(['alice', 'bob']);
    });

    it('through the worker forwarding to the remote: the remote takes the member from the token', async () => {
      const registration = await registerWorker();
      try {
        await configureWorkerRemote(registration.active!, { remote });
        configure({
          ...RESET,
          baseUrl: `${location.origin}/`,
          apiKey: MEMBER_KEY,
          memberToken: await mint(key, { sub: 'carol' }),
        });
        expect(await endorseBob(await clientFor())).to.deep.equal({ is_valid: true, message: null });
        expect(await endorsementsOf(fetchTransport(remote), REMOTE_ADMIN_KEY)).to.deep.include(['carol', 'bob']);
        const asBob = await refusal(endorseBob(await clientFor(), 'bob'));
        expect(asBob).to.include({ status: 403, kind: 'forbidden' });
      } finally {
        await unregisterWorker();
        await deleteDatabase('questboard-remote');
      }
    });
  });
});
