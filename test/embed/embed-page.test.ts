// The real dist/questboard.js (run `npm run build` first) on pages with a strict CSP and
// Trusted Types enforced, with and without its service worker.
import { expect } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { deleteDB } from 'idb';
import { QuestboardClient } from '../../src/client/client.js';
import { inPageTransport } from '../../src/client/local-in-page-transport.js';
import { ADMIN_KEY, APP_ID, guildDataset } from '../components/support.js';
import { HOSTILE_NAMES } from '../components/hostile-names.js';
import { catalogOf, englishWordsReplacedBy, shownText } from '../i18n/support.js';
import { openFrame, openFrames } from './frames.js';

interface PageRecord {
  violations: string[];
  console: string[];
  rowsAtDomContentLoaded: number;
}

type PageWindow = Window &
  typeof globalThis & { pageRecord: PageRecord; Questboard?: Record<string, unknown>; __qbPwned?: number };

async function openPage(name: string): Promise<{ frame: HTMLIFrameElement; win: PageWindow; doc: Document }> {
  const frame = await openFrame(name);
  return { frame, win: frame.contentWindow as PageWindow, doc: frame.contentDocument! };
}

const SEASON = '5e450000-0000-4000-8000-000000000002';

const rowNames = (container: Element) => [...container.querySelectorAll('tbody th[scope="row"]')].map((cell) => cell.textContent);

/** Waits for the container's current answer: a kept one may show before it (aria-busy stays true meanwhile). */
async function filled(container: Element) {
  await waitUntil(() => container.getAttribute('aria-busy') === 'false', 'container never filled', { timeout: 10_000 });
  expect(container.textContent).not.to.match(/unavailable/);
  expect(container.querySelector('table')).not.to.equal(null);
}

async function unregisterAll() {
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
}

describe('the script-tag embed (dist/questboard.js)', () => {
  before(async () => {
    const available = await fetch('/dist/questboard.js', { method: 'HEAD' });
    expect(available.ok, 'run npm run build before the embed tests').to.equal(true);
    // The pages share this origin's default database with the worker and the in-page handler.
    const seeder = inPageTransport();
    const dataset = guildDataset([...HOSTILE_NAMES]);
    // A season whose board is not the app's (data-season).
    dataset.apps![0]!.seasons = [
      {
        season_id: SEASON,
        name: 'Autumn',
        starts_at: '2026-09-01T00:00:00Z',
        ends_at: '2026-12-01T00:00:00Z',
        board: [
          { account_name: 'carol', points: 40, at: '2026-11-01T00:00:00Z' },
          { account_name: 'bob', points: 5, at: '2026-11-02T00:00:00Z' },
        ],
      },
    ];
    await new QuestboardClient({ transport: seeder, apiKey: ADMIN_KEY }).admin.importDataset(dataset, { mode: 'replace' });
    await seeder.close();
  });

  afterEach(() => {
    for (const frame of openFrames.splice(0)) frame.remove();
  });

  after(async () => {
    await unregisterAll();
    await deleteDB('questboard');
    await deleteDB('questboard-remote');
  });

  it('works without a worker under a strict CSP with Trusted Types, and says so once', async () => {
    const { win, doc } = await openPage('no-worker');
    const board = doc.getElementById('board')!;
    await filled(board);
    expect(rowNames(board)).to.include.members(['alice', 'bob', 'carol', ...HOSTILE_NAMES]);
    const card = doc.querySelector('qb-user-card')!;
    await waitUntil(() => card.shadowRoot?.querySelector('.card'), 'user card never loaded');
    expect(card.shadowRoot!.querySelector('.name')!.textContent).to.equal('alice');
    await waitUntil(() => win.pageRecord.console.some((line) => line.includes('[questboard]')), 'no transport line');
    expect(win.pageRecord.console.filter((line) => line.includes('[questboard]'))).to.deep.equal([
      'info: [questboard] transport: in-page (service worker disabled)',
    ]);
    expect(win.pageRecord.violations).to.deep.equal([]);
    expect(await navigator.serviceWorker.getRegistrations()).to.have.length(0);
  });

  it('renders hostile names in the fragment as text, with the fragment’s look applied', async () => {
    const { win, doc } = await openPage('no-worker');
    const board = doc.getElementById('board')!;
    await filled(board);
    expect(
      [...board.querySelectorAll('*')]
        .map((element) => element.localName)
        .filter(
          (name) => !['div', 'table', 'caption', 'thead', 'tbody', 'tr', 'th', 'td', 'bdi', 'p', 'span', 'abbr'].includes(name),
        ),
    ).to.deep.equal([]);
    expect(board.querySelector('style')).to.equal(null);
    expect(win.getComputedStyle(board.querySelector('table')!).borderCollapse).to.equal('collapse');
    expect(win.__qbPwned).to.equal(undefined);
    expect(win.pageRecord.violations).to.deep.equal([]);
  });

  it('fills containers added after load, and leaves non-empty ones alone', async () => {
    const { doc } = await openPage('no-worker');
    await filled(doc.getElementById('board')!);
    const later = doc.createElement('section');
    const added = doc.createElement('div');
    Object.assign(added.dataset, { questboardLeaderboard: '', appId: APP_ID, limit: '2' });
    const owned = doc.createElement('div');
    Object.assign(owned.dataset, { questboardLeaderboard: '', appId: APP_ID });
    owned.textContent = 'Own content';
    later.append(added, owned);
    doc.body.append(later);
    await filled(added);
    expect(rowNames(added)).to.have.length(2);
    expect(owned.textContent).to.equal('Own content');
  });

  it("fills a container with data-season with that season's board", async () => {
    const { doc } = await openPage('no-worker');
    await filled(doc.getElementById('board')!);
    const season = doc.createElement('div');
    Object.assign(season.dataset, { questboardLeaderboard: '', appId: APP_ID, season: SEASON });
    doc.body.append(season);
    await filled(season);
    expect(rowNames(season)).to.deep.equal(['carol', 'bob']);
    expect(rowNames(doc.getElementById('board')!)).not.to.deep.equal(['carol', 'bob']);
  });

  it('replaces a loading placeholder, and leaves a container with anything else in it alone', async () => {
    const { doc } = await openPage('placeholder');
    const loading = doc.getElementById('loading')!;
    await filled(loading);
    expect(loading.querySelector('[data-questboard-placeholder]')).to.equal(null);
    expect(rowNames(loading)).to.include.members(['alice', 'bob', 'carol']);
    // Claimed containers are marked busy at once, before their fragment arrives.
    const mixed = doc.getElementById('mixed')!;
    expect(mixed.hasAttribute('aria-busy')).to.equal(false);
    expect([...mixed.children].map((child) => child.textContent)).to.deep.equal([
      'Loading leaderboard…',
      'Our own note about the leaderboard.',
    ]);
    const later = doc.createElement('div');
    Object.assign(later.dataset, { questboardLeaderboard: '', appId: APP_ID, limit: '1' });
    const placeholder = doc.createElement('span');
    placeholder.dataset.questboardPlaceholder = '';
    placeholder.textContent = 'Loading…';
    later.append(placeholder);
    doc.body.append(later);
    await filled(later);
    expect(rowNames(later)).to.have.length(1);
    expect(later.textContent).not.to.contain('Loading…');
  });

  it('refreshes a filled container after a write', async () => {
    const { win, doc } = await openPage('no-worker');
    const board = doc.getElementById('board')!;
    await filled(board);
    const client = await (win.Questboard!.clientFor as () => Promise<QuestboardClient>)();
    await client.connectSocial({ app_id: APP_ID, account_name: 'newcomer', twitter_name: 'newcomer_x' });
    await waitUntil(() => rowNames(board).includes('newcomer'), 'the container never refreshed');
  });

  it('shows a returning visitor the last answer it kept at once, then the current one', async () => {
    localStorage.clear();
    const first = await openPage('no-worker');
    await filled(first.doc.getElementById('board')!);
    expect(first.win.pageRecord.rowsAtDomContentLoaded, 'a first visit has nothing kept').to.equal(0);
    first.frame.remove();

    const again = await openPage('no-worker');
    const board = again.doc.getElementById('board')!;
    expect(again.win.pageRecord.rowsAtDomContentLoaded).to.be.greaterThan(0);
    await filled(board);
    expect(rowNames(board)).to.include('alice');
    expect(board.querySelector('style'), 'kept without its style').to.equal(null);
  });

  it('adds no global but window.Questboard', async () => {
    const baseline = await openPage('baseline');
    const before = new Set(Object.getOwnPropertyNames(baseline.win));
    const added = (win: Window) => Object.getOwnPropertyNames(win).filter((name) => !before.has(name));
    // While an element loaded on demand is defined, Lit's globals are lent back to it
    // (src/embed/page-globals.ts), and a page's elements may still be loading when its board is
    // filled: what the page keeps is what is left once its loads have ended.
    const keptBy = async (win: Window) => {
      await waitUntil(() => added(win).length === 1, 'a library’s global stayed on the page');
      return added(win);
    };
    const { win, doc } = await openPage('no-worker');
    await filled(doc.getElementById('board')!);
    expect(await keptBy(win)).to.deep.equal(['Questboard']);
    expect(win.Questboard!.version).to.equal('0.1.0');
    // Nor once it has loaded an element on demand, whose definition needs Lit's globals lent back.
    const onDemand = await openPage('on-demand');
    await waitUntil(() => onDemand.doc.getElementById('first')!.shadowRoot?.querySelector('.card'), 'never loaded');
    expect(await keptBy(onDemand.win)).to.deep.equal(['Questboard']);
  });

  it('sanitizes with its own allowlist where the browser has no setHTML', async () => {
    const { win, doc } = await openPage('without-set-html');
    expect('setHTML' in win.Element.prototype).to.equal(false);
    const board = doc.getElementById('board')!;
    await filled(board);
    expect(rowNames(board)).to.include.members([...HOSTILE_NAMES]);
    expect(board.querySelectorAll('img, script, svg, iframe, style')).to.have.length(0);
    expect(win.pageRecord.violations).to.deep.equal([]);
  });

  it('shows a German page in German, its words from the catalog beside the script', async () => {
    const { win, doc } = await openPage('german');
    const board = doc.getElementById('board')!;
    await filled(board);
    const elements = [...doc.querySelectorAll('main > *')].filter((element) => element.localName.startsWith('qb-'));
    await waitUntil(
      () =>
        elements.every(
          (element) => element.shadowRoot?.childElementCount && !element.shadowRoot.querySelector('[part~="status"]'),
        ),
      'the elements never loaded',
      { timeout: 10_000 },
    );
    // The user card's streak and badges, loaded on demand inside it.
    const highlights = doc.querySelector('qb-user-card')!.shadowRoot!.querySelector('qb-user-highlights')!;
    await waitUntil(() => highlights.shadowRoot?.querySelector('[part="streak"]'), 'the card’s highlights never loaded');
    expect(highlights.shadowRoot!.querySelector('[part="streak"]')!.textContent).to.contain('Aktuelle Serie');
    expect(board.querySelector('caption')!.textContent).to.equal('Bestenliste dieser Woche');
    const text = shownText(doc.body).join('\n');
    expect(englishWordsReplacedBy(await catalogOf('de')).filter((piece) => text.includes(piece))).to.deep.equal([]);
    const fetched = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(fetched.filter((path) => path.includes('/locales/'))).to.deep.equal(['/dist/locales/de.js']);
    expect(fetched.filter((path) => path.includes('/elements/')).sort()).to.deep.equal([
      '/dist/elements/qb-achievements.js',
      '/dist/elements/qb-connect-social.js',
      '/dist/elements/qb-user-highlights.js',
    ]);
    expect(win.pageRecord.violations).to.deep.equal([]);
  });

  it('loads the user card’s streak and badges from beside itself once a card shows a member', async () => {
    const { win, doc } = await openPage('no-worker');
    const card = doc.querySelector('qb-user-card')!;
    // The tag sits in the card's shadow root, where the embed's observer does not look: the card asks for it.
    const highlights = () => card.shadowRoot?.querySelector('qb-user-highlights');
    await waitUntil(() => highlights()?.shadowRoot?.querySelector('[part="streak"]'), 'the highlights never loaded', {
      timeout: 10_000,
    });
    // alice was last active on 1 November, and the guild has no badges.
    expect(highlights()!.shadowRoot!.querySelector('[part="streak"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'Current streak 0 days',
    );
    const fetched = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(fetched.filter((path) => path.includes('/elements/'))).to.deep.equal(['/dist/elements/qb-user-highlights.js']);
    expect(win.pageRecord.violations).to.deep.equal([]);
  });

  it('loads an element it does not carry from beside itself, once, sharing its settings', async () => {
    const { win, doc } = await openPage('on-demand');
    const first = doc.getElementById('first')!;
    // The script tag's api key and the page's store: the element took them from the embed.
    await waitUntil(() => first.shadowRoot?.querySelector('.card'), 'the element never loaded', { timeout: 10_000 });
    expect(first.shadowRoot!.querySelector('[part="heading"]')!.textContent).to.equal('alice’s achievements');
    const later = doc.createElement('qb-achievements');
    later.setAttribute('app-id', 'guild');
    later.setAttribute('account-name', 'bob');
    doc.querySelector('main')!.append(later);
    await waitUntil(() => later.shadowRoot?.querySelector('.card'), 'an element added later never loaded');
    expect(later.shadowRoot!.querySelector('[part="heading"]')!.textContent).to.equal('bob’s achievements');
    const fetched = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(fetched.filter((path) => path.includes('/elements/'))).to.deep.equal(['/dist/elements/qb-achievements.js']);
    expect(win.pageRecord.violations).to.deep.equal([]);
    expect(win.pageRecord.console.filter((line) => !line.includes('[questboard] transport'))).to.deep.equal([]);
  });

  it('loads no catalog on an English page', async () => {
    const { win, doc } = await openPage('no-worker');
    await filled(doc.getElementById('board')!);
    const fetched = win.performance.getEntriesByType('resource').map((entry) => entry.name);
    expect(fetched.filter((url) => url.includes('/locales/'))).to.deep.equal([]);
  });

  it('registers its same-origin worker and is served through it', async () => {
    const { win, doc } = await openPage('worker');
    const board = doc.getElementById('board')!;
    await filled(board);
    await waitUntil(() => win.pageRecord.console.some((line) => line.includes('[questboard]')), 'no transport line', {
      timeout: 10_000,
    });
    expect(win.pageRecord.console.filter((line) => line.includes('[questboard]'))).to.deep.equal([
      'info: [questboard] transport: service-worker (worker controls this page)',
    ]);
    expect(win.navigator.serviceWorker.controller?.scriptURL).to.equal(`${location.origin}/questboard-sw.js`);
    expect(rowNames(board)).to.include('alice');
    expect(win.pageRecord.violations).to.deep.equal([]);
  });
});
