// Live updates across browsers: the reference server streams each app's changes on
// GET /v1/events, and a page configured with it as its remote refreshes its elements and
// containers when another browser writes there, with one stream for all of them.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB } from 'idb';
import { configure, inPageTransport, resolveTransport, type InPageTransport } from '../../src/client/index.js';
import type { QbUserCard } from '../../src/components/qb-user-card/qb-user-card.js';
import '../../src/components/qb-user-card/qb-user-card.js';
import '../../src/components/qb-leaderboard/qb-leaderboard.js';
import { startLeaderboardContainers } from '../../src/embed/leaderboard-containers.js';
import { deleteDatabase } from './local-handler.js';
import { endEventStreams, injectFault, openSubscriptions, receivedRequests, remoteUrl, resetRemote } from './remote-server.js';

/** An app of these tests' own on the shared reference server, so other test files find its dataset as it was. */
const APP = 'live';
const KEY = 'pk_live';
const AUTHORIZATION = `Bearer ${KEY}`;
const WAIT = { timeout: 10_000 };

interface ReceivedEvent {
  id?: string;
  event?: string;
  data?: unknown;
}

/**
 * An event stream read with fetch, as a page reads it, one block at a time (comments skipped).
 * Parsed here on its own, so the test reads what the server wrote, not what the page's parser makes of it.
 */
async function openEvents(remote: string, { app_id = APP, lastEventId }: { app_id?: string; lastEventId?: string } = {}) {
  const stop = new AbortController();
  const headers: Record<string, string> = { Authorization: AUTHORIZATION };
  if (lastEventId !== undefined) headers['Last-Event-ID'] = lastEventId;
  const response = await fetch(`${remote}/v1/events?app_id=${app_id}`, { headers, signal: stop.signal });
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async next(): Promise<ReceivedEvent> {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end !== -1) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block.startsWith(':')) continue;
          const fields = Object.fromEntries(
            block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
          );
          return { ...fields, ...(fields.data === undefined ? {} : { data: JSON.parse(fields.data) }) };
        }
        const { done, value } = await reader.read();
        if (done) throw new Error(`the stream ended; left unread: ${JSON.stringify(text)}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    close: () => stop.abort(),
  };
}

async function write(remote: string, operation: string, body: Record<string, string>, key = AUTHORIZATION): Promise<void> {
  const answer = await fetch(`${remote}/v1/${operation}`, {
    method: 'POST',
    headers: { Authorization: key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.clone().text()).to.equal(200);
}

/** Another browser endorses `to`: a new endorsement each time, so the member's XP grows. */
const endorse = (remote: string, to: string) =>
  write(remote, 'endorse_account', {
    app_id: APP,
    from_account: 'carol',
    to_account: to,
    endorsement_id: crypto.randomUUID(),
  });

const membersChanged = (account_name: string) => ({
  type: 'questboard:change',
  app_id: APP,
  scope: 'members',
  account_names: [account_name],
});

async function currentXp(remote: string, account_name: string): Promise<number> {
  const answer = await fetch(`${remote}/v1/get_userinfo?app_id=${APP}&account_name=${account_name}`, {
    headers: { Authorization: AUTHORIZATION },
  });
  return ((await answer.json()) as { current_xp: number }).current_xp;
}

const xpLabel = (card: QbUserCard) => card.shadowRoot!.querySelector('[part="xp-label"]')?.textContent ?? '';

const eventStreamsReceived = async (remote: string) =>
  (await receivedRequests(remote)).filter((request) => request.path === '/v1/events');

before(async () => {
  const apps = [
    {
      app_id: APP,
      api_keys: [{ key: KEY, scopes: ['read', 'write'] }],
      users: ['alice', 'bob', 'carol'].map((account_name) => ({ account_name })),
    },
    { app_id: 'elsewhere', api_keys: [{ key: 'pk_elsewhere', scopes: ['read', 'write'] }], users: [{ account_name: 'dan' }] },
  ];
  const imported = await fetch(`${await remoteUrl()}/v1/admin/import`, {
    method: 'POST',
    headers: { Authorization: 'Bearer sk_remote_admin', 'Content-Type': 'application/json' },
    body: JSON.stringify({ apps }),
  });
  expect(imported.status).to.equal(200);
});

describe('GET /v1/events on the reference server', () => {
  let remote: string;
  before(async () => {
    remote = await remoteUrl();
    await resetRemote(remote);
  });

  it('streams the notice of each write to the app, with an id to resume from', async () => {
    const events = await openEvents(remote);
    try {
      const opening = await events.next();
      expect(opening).to.have.keys('id');
      await write(remote, 'connect_social', { app_id: APP, account_name: 'bob', twitter_name: 'bob_live' });
      const change = await events.next();
      expect(change.event).to.equal('change');
      expect(change.data).to.deep.equal(membersChanged('bob'));
      expect(change.id).to.be.a('string').and.not.equal(opening.id);
    } finally {
      events.close();
    }
  });

  it('replays what a client missed since its Last-Event-ID, and says reset for an id it cannot replay', async () => {
    const first = await openEvents(remote);
    const { id: seen } = await first.next();
    first.close();
    await endorse(remote, 'alice');
    await write(remote, 'connect_social', { app_id: APP, account_name: 'carol', twitter_name: 'carol_live' });

    const again = await openEvents(remote, { lastEventId: seen! });
    try {
      const missed = [await again.next(), await again.next()];
      expect(missed.map((event) => [event.event, event.data])).to.deep.equal([
        ['change', membersChanged('alice')],
        ['change', membersChanged('carol')],
      ]);
    } finally {
      again.close();
    }

    // An id of another run of the server (it restarted, and kept nothing): everything must load again.
    const stale = await openEvents(remote, { lastEventId: 'another-run-7' });
    try {
      const reset = await stale.next();
      expect(reset.event).to.equal('reset');
      expect(reset.data).to.deep.equal({ type: 'questboard:change', app_id: APP, scope: 'app' });
    } finally {
      stale.close();
    }
  });

  it('does not deliver the events of another app', async () => {
    const events = await openEvents(remote);
    try {
      await events.next();
      await write(
        remote,
        'connect_social',
        { app_id: 'elsewhere', account_name: 'dan', twitter_name: 'dan_d' },
        'Bearer pk_elsewhere',
      );
      await write(remote, 'connect_social', { app_id: APP, account_name: 'alice', twitter_name: 'alice_live' });
      // Events come in the order of the writes: the first this stream hears is its own app's.
      expect((await events.next()).data).to.deep.equal(membersChanged('alice'));
    } finally {
      events.close();
    }
  });

  it('answers a bad app_id, a missing key or another app’s with the JSON error', async () => {
    const cases: Array<[string, string | null, number, string]> = [
      ['', AUTHORIZATION, 400, 'app_id: is required.'],
      ['app_id=', AUTHORIZATION, 400, 'app_id: must not be empty.'],
      ['app_id=nowhere', AUTHORIZATION, 404, "app_id not found: no app 'nowhere'."],
      ['app_id=elsewhere', AUTHORIZATION, 403, ''],
      [`app_id=${APP}`, null, 401, ''],
    ];
    for (const [query, key, status, message] of cases) {
      const answer = await fetch(`${remote}/v1/events?${query}`, { headers: key === null ? {} : { Authorization: key } });
      expect(answer.status, query).to.equal(status);
      expect(answer.headers.get('content-type'), query).to.match(/^application\/json/);
      const body = (await answer.json()) as { is_valid: boolean; message: string };
      expect(body.is_valid, query).to.equal(false);
      if (message) expect(body.message, query).to.equal(message);
      else expect(body.message, query).to.be.a('string').and.not.equal('');
    }
  });

  it('is not served by the handler in the page, which has no feed of changes: a JSON error at once, remote or not', async () => {
    const dbName = 'qb-test-live-updates';
    for (const transport of [inPageTransport({ dbName }), inPageTransport({ dbName, remote: { remote } })]) {
      try {
        const answer = await transport.send(`v1/events?app_id=${APP}`, { headers: { Authorization: AUTHORIZATION } });
        expect(answer.status).to.equal(501);
        expect(await answer.json()).to.deep.equal({
          is_valid: false,
          message: 'Live updates (GET /v1/events) are not served here: only a Questboard server has a feed of changes to stream.',
        });
      } finally {
        await transport.close();
      }
    }
    await deleteDatabase(dbName);
    await deleteDatabase(`${dbName}-remote`);
  });
});

describe('a page with a remote server follows its changes', () => {
  let remote: string;
  before(async () => {
    remote = await remoteUrl();
  });
  beforeEach(async () => {
    await resetRemote(remote);
    configure({ apiKey: KEY, serviceWorker: 'none', remote, baseUrl: undefined, transport: undefined });
  });
  afterEach(async () => {
    fixtureCleanup();
    await resetRemote(remote);
    const { transport } = await resolveTransport();
    configure({ apiKey: undefined, serviceWorker: undefined, remote: undefined });
    await (transport as InPageTransport).close();
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  async function loadedCard(account_name: string): Promise<QbUserCard> {
    const card = await fixture<QbUserCard>(html`<qb-user-card app-id=${APP} account-name=${account_name}></qb-user-card>`);
    await waitUntil(() => xpLabel(card) !== '', `${account_name}’s card never loaded`, WAIT);
    return card;
  }

  it('refreshes an element when another browser writes there, with one stream for every element of the app', async () => {
    const cards = await fixture<HTMLElement>(html`<div>
      <qb-user-card app-id=${APP} account-name="alice"></qb-user-card>
      <qb-user-card app-id=${APP} account-name="bob"></qb-user-card>
      <qb-leaderboard app-id=${APP}></qb-leaderboard>
    </div>`);
    const alice = cards.querySelector('qb-user-card')!;
    await waitUntil(() => xpLabel(alice) !== '', 'alice’s card never loaded', WAIT);
    await waitUntil(async () => (await openSubscriptions(remote)) === 1, 'the page never opened its stream', WAIT);

    await endorse(remote, 'alice');
    const xp = await currentXp(remote, 'alice');
    await waitUntil(() => xpLabel(alice).startsWith(`${xp} of`), `alice’s card never showed ${xp} XP`, WAIT);
    expect(await eventStreamsReceived(remote)).to.have.length(1);
  });

  it('reconnects with Last-Event-ID when its stream is cut, and hears what it missed meanwhile', async () => {
    const alice = await loadedCard('alice');
    await waitUntil(async () => (await eventStreamsReceived(remote)).length === 1, 'the page never opened its stream', WAIT);

    // The stream is cut and cannot be opened again for now; meanwhile another browser writes.
    await injectFault(remote, 503, '/v1/events');
    await endEventStreams(remote);
    await endorse(remote, 'alice');
    const xp = await currentXp(remote, 'alice');
    expect(xpLabel(alice)).not.to.match(new RegExp(`^${xp} of`));

    await resetRemote(remote);
    await waitUntil(() => xpLabel(alice).startsWith(`${xp} of`), `alice’s card never showed ${xp} XP`, WAIT);
    const [reconnect] = await eventStreamsReceived(remote);
    expect(reconnect?.last_event_id).to.be.a('string').and.not.equal('');
  });

  it('fills a leaderboard container that refreshes on another browser’s write too', async () => {
    startLeaderboardContainers();
    const container = await fixture<HTMLElement>(html`<div data-questboard-leaderboard data-app-id=${APP}></div>`);
    await waitUntil(() => container.getAttribute('aria-busy') === 'false', 'the container was never filled', WAIT);
    await waitUntil(async () => (await openSubscriptions(remote)) === 1, 'the page never opened its stream', WAIT);
    const boardsRead = async () => (await receivedRequests(remote)).filter((r) => r.path === '/v1/get_leaderboard').length;
    const before = await boardsRead();

    await endorse(remote, 'bob');
    await waitUntil(async () => (await boardsRead()) > before, 'the container never loaded again', WAIT);
  });

  it('closes its stream once no element shows the app, and opens none without a remote', async () => {
    await loadedCard('alice');
    await waitUntil(async () => (await openSubscriptions(remote)) === 1, 'the page never opened its stream', WAIT);
    fixtureCleanup();
    await waitUntil(async () => (await openSubscriptions(remote)) === 0, 'the stream stayed open', WAIT);

    const { transport } = await resolveTransport();
    configure({ remote: undefined });
    await (transport as InPageTransport).close();
    await fixture(html`<qb-user-card app-id=${APP} account-name="alice"></qb-user-card>`);
    // The thing tested is that no stream opens: there is no event for that to wait on, so the
    // test gives the card the time a stream took to open above, then counts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventStreamsReceived(remote)).to.have.length(1);
  });
});
