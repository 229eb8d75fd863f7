// Every element and the HTML fragment in the member's language: no English left where the
// language has its own words, the same numbers in the table and the elements, plural forms,
// a site's own messages, and which language wins where several are given.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import type { TemplateResult } from 'lit';
import { configure } from '../../src/client/config.js';
import '../../src/components/index.js';
import '../../src/components/lazy.js';
import { localeOf } from '../../src/components/shared/locale.js';
import { loadCatalogChunk } from '../../src/i18n/catalog-chunks.js';
import { setCatalogLoader } from '../../src/i18n/page-catalogs.js';
import { renderLeaderboardFragment } from '../../src/ui/index.js';
import { insertFragment } from '../../src/embed/insert-fragment.js';
import { ADMIN_KEY, API_KEY, APP_ID, setupApi, type TestApi } from '../components/support.js';
import type { Dataset } from '../../src/api/schemas.js';
import { ENGLISH, catalogOf, englishWordsReplacedBy, shownText } from './support.js';

setCatalogLoader(loadCatalogChunk);

const CHALLENGE = '5a0c1e2d-3b4f-4a6e-8c7d-9e0f1a2b3c4d';
const SHIP = '6b1d2f3e-4c5a-4b7f-9d8e-0f1a2b3c4d5e';
const REVIEW = '7c2e3a4f-5d6b-4c8a-8e9f-1a2b3c4d5e6f';
const MENTOR = '8d3f4b5a-6e7c-4d9b-9f0a-2b3c4d5e6f7a';

/** alice's total score is 1,234,567, so digit grouping shows in every language; her review stands at 1.25 of 2.5. */
function bigNumbersDataset(): Dataset {
  return {
    admin_keys: [ADMIN_KEY],
    apps: [
      {
        app_id: APP_ID,
        api_keys: [{ key: API_KEY, scopes: ['read', 'write'] }],
        users: ['alice', 'bob', 'carol'].map((account_name) => ({ account_name, is_active: true })),
        challenges: [
          {
            challenge_id: CHALLENGE,
            name: 'Release train',
            description: 'Ship it.',
            start_date: '2026-01-01T00:00:00Z',
            tasks: [
              { task_id: SHIP, name: 'Ship', quantity: 1, operator: 0, points: 1_000_000 },
              { task_id: REVIEW, name: 'Review', quantity: 2.5, operator: 0, points: 1 },
              { task_id: MENTOR, name: 'Mentor', quantity: 1, operator: 0, points: 234_567 },
            ],
          },
        ],
        progress: [
          { task_id: SHIP, account_name: 'alice', quantity: 1, at: '2026-11-01T10:00:00Z' },
          { task_id: REVIEW, account_name: 'alice', quantity: 1.25, at: '2026-11-01T10:00:00Z' },
          { task_id: MENTOR, account_name: 'alice', quantity: 1, at: '2026-11-01T10:00:00Z' },
          { task_id: SHIP, account_name: 'bob', quantity: 1, at: '2026-11-02T10:00:00Z' },
        ],
      },
    ],
  } as Dataset;
}

/** Every element, as a page would place them, plus a container for the fragment. */
const everything = (): TemplateResult => html`
  <qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card>
  <qb-user-card app-id=${APP_ID} account-name="nobody-yet"></qb-user-card>
  <qb-challenge challenge-id=${CHALLENGE} account-name="alice"></qb-challenge>
  <qb-challenge challenge-id=${CHALLENGE}></qb-challenge>
  <qb-task-progress task-id=${REVIEW} account-name="alice"></qb-task-progress>
  <qb-leaderboard app-id=${APP_ID} highlight="carol" limit="2"></qb-leaderboard>
  <qb-endorse-button app-id=${APP_ID} from="alice" to="bob" endorsement-id="helpful"></qb-endorse-button>
  <qb-connect-social app-id=${APP_ID} account-name="alice"></qb-connect-social>
  <qb-connect-social></qb-connect-social>
  <div class="container"></div>
`;

/** Fills the page's containers as the embed does: the fragment in the container's own language. */
async function fillContainers(api: TestApi, root: Element) {
  for (const container of root.querySelectorAll<HTMLElement>('.container')) {
    const answer = await api.member.getLeaderboard({ app_id: APP_ID, widget_response: 'html', locale: localeOf(container) });
    insertFragment(container, answer.html);
  }
}

/** Waits until every element shows its data (or its empty state), nothing loading. */
async function settled(root: Element) {
  const elements = [...root.querySelectorAll('*')].filter((element) => element.localName.startsWith('qb-'));
  await waitUntil(
    () =>
      elements.every((element) => {
        const shadow = element.shadowRoot;
        if (!shadow || shadow.childElementCount === 0) return false;
        if (shadow.querySelector('[part~="status"], [part~="error"]')) return false;
        // A challenge's own task elements settle too, and a card's streak and badges.
        return [...shadow.querySelectorAll('qb-task-progress, qb-user-highlights')].every(
          (task) => task.shadowRoot?.childElementCount && !task.shadowRoot.querySelector('[part~="status"]'),
        );
      }),
    'the elements never settled',
    { timeout: 10_000 },
  );
}

describe('every element and the fragment in the member’s language', () => {
  let api: TestApi;
  before(async () => {
    api = await setupApi(bigNumbersDataset());
  });
  after(() => api.teardown());

  for (const language of ['de', 'ja', 'ar', 'ko']) {
    it(`leaves no English on a ${language} page`, async () => {
      const page = await fixture<HTMLDivElement>(
        html`<div lang=${language} dir=${language === 'ar' ? 'rtl' : 'ltr'}>${everything()}</div>`,
      );
      await fillContainers(api, page);
      await settled(page);
      const text = shownText(page).join('\n');
      const left = englishWordsReplacedBy(await catalogOf(language)).filter((piece) => text.includes(piece));
      expect(left, `English on the ${language} page`).to.deep.equal([]);
      // And the page's own words are there: the card's first statistic, the table's caption.
      const catalog = await catalogOf(language);
      expect(text).to.include(catalog['userCard.totalScore'] as string);
      expect(text).to.include(catalog['leaderboard.caption.score'] as string);
    });
  }

  it('shows English words on an English page', async () => {
    const page = await fixture<HTMLDivElement>(html`<div lang="en">${everything()}</div>`);
    await fillContainers(api, page);
    await settled(page);
    const text = shownText(page).join('\n');
    for (const id of [
      'userCard.totalScore',
      'leaderboard.caption.score',
      'connectSocial.signIn',
      'leaderboard.loadMore',
    ] as const) {
      expect(text).to.include(ENGLISH[id] as string);
    }
  });

  it('shows the same numbers in the table and the elements: a German page in an English browser', async () => {
    expect(navigator.language.startsWith('de'), 'the browser itself is not German').to.equal(false);
    const page = await fixture<HTMLDivElement>(html`<div lang="de">${everything()}</div>`);
    await fillContainers(api, page);
    await settled(page);
    const card = page.querySelector('qb-user-card')!.shadowRoot!;
    const total = [...card.querySelectorAll('.stat')].find((stat) => stat.querySelector('dt')!.textContent === 'Gesamtpunkte');
    expect(total!.querySelector('dd')!.textContent).to.equal('1.234.567');
    const scoreIn = (root: ParentNode) =>
      [...root.querySelectorAll('tbody tr')].find((row) => row.querySelector('th')!.textContent === 'alice')!.children[2]!
        .textContent;
    expect(scoreIn(page.querySelector('.container')!)).to.equal('1.234.567');
    expect(scoreIn(page.querySelector('qb-leaderboard')!.shadowRoot!)).to.equal('1.234.567');
    const review = page.querySelector('qb-task-progress')!.shadowRoot!.querySelector('[part="label"]')!;
    expect(review.textContent).to.equal('1,25 von 2,5');
  });

  it('words the summary in the plural form of each language', () => {
    const summary = (locale: string, total: number) => {
      const template = document.createElement('template');
      template.innerHTML = renderLeaderboardFragment([], { locale, totalUsers: total });
      return template.content.querySelector('.qb-lb__summary')!.textContent;
    };
    expect([1, 2].map((total) => summary('en', total))).to.deep.equal(['1 member', '2 members']);
    expect([1, 2].map((total) => summary('de', total))).to.deep.equal(['1 Mitglied', '2 Mitglieder']);
    expect([1, 3, 5, 21].map((total) => summary('ru', total))).to.deep.equal([
      '1 участник',
      '3 участника',
      '5 участников',
      '21 участник',
    ]);
    expect([2, 3, 11, 100].map((total) => summary('ar', total))).to.deep.equal(['2 عضوان', '3 أعضاء', '11 عضوًا', '100 عضو']);
    expect(summary('ja', 1)).to.equal('メンバー 1人');
    expect([1, 2].map((total) => summary('ko', total))).to.deep.equal(['멤버 1명', '멤버 2명']);
  });
});

describe('a site’s own messages', () => {
  let api: TestApi;
  before(async () => {
    api = await setupApi(bigNumbersDataset());
  });
  afterEach(() => configure({ messages: undefined }));
  after(() => api.teardown());

  const statLabels = (card: Element) => [...card.shadowRoot!.querySelectorAll('dt')].map((term) => term.textContent);

  it('take the place of the shipped words, and add a language Questboard lacks', async () => {
    configure({
      messages: { de: { 'userCard.totalScore': 'Punkte insgesamt' }, 'sv-SE': { 'userCard.achievements': 'Prestationer' } },
    });
    const page = await fixture<HTMLDivElement>(html`<div>
      <div lang="de-DE"><qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card></div>
      <div lang="sv-SE"><qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card></div>
    </div>`);
    await settled(page);
    const [german, swedish] = page.querySelectorAll('qb-user-card');
    expect(statLabels(german!)[0]).to.equal('Punkte insgesamt');
    expect(statLabels(german!)[1]).to.equal('Punkte diese Woche');
    expect(statLabels(swedish!).slice(-1)).to.deep.equal(['Prestationer']);
    expect(statLabels(swedish!)[0]).to.equal('Total score');
  });

  it('apply to elements already on the page when configure() runs', async () => {
    const card = await fixture(html`<qb-user-card lang="en" app-id=${APP_ID} account-name="alice"></qb-user-card>`);
    await settled(card.parentElement!);
    expect(statLabels(card)[0]).to.equal('Total score');
    configure({ messages: { en: { 'userCard.totalScore': 'Lifetime points' } } });
    await waitUntil(() => statLabels(card)[0] === 'Lifetime points', 'the card kept its old words');
  });

  it('refuses a language that is not a tag', () => {
    expect(() => configure({ messages: { 'not a tag': {} } })).to.throw(TypeError, /not a BCP 47 language tag/);
    expect(() => configure({ locale: 'de_DE!' })).to.throw(TypeError, /not a BCP 47 language tag/);
  });
});

describe('which language an element shows', () => {
  const documentLang = document.documentElement.getAttribute('lang');
  afterEach(() => {
    if (documentLang === null) document.documentElement.removeAttribute('lang');
    else document.documentElement.setAttribute('lang', documentLang);
    configure({ locale: undefined });
  });

  it('its nearest lang, across shadow roots, beats the document’s, which beats configure(), which beats the browser’s', async () => {
    const host = await fixture<HTMLDivElement>(html`<div><div lang="de"><span></span></div><span></span><div></div></div>`);
    const [inGerman, outside] = host.querySelectorAll('span');
    const shadowed = host.querySelector('div:last-child')!.attachShadow({ mode: 'open' });
    shadowed.innerHTML = '<p lang=""><i></i></p>';
    const inShadow = shadowed.querySelector('i')!;
    host.querySelector('div:last-child')!.setAttribute('lang', 'ja');

    configure({ locale: 'es' });
    document.documentElement.setAttribute('lang', 'fr-CA');
    expect([localeOf(inGerman!), localeOf(inShadow), localeOf(outside!)]).to.deep.equal(['de', 'ja', 'fr-CA']);
    document.documentElement.removeAttribute('lang');
    expect(localeOf(outside!)).to.equal('es');
    configure({ locale: undefined });
    // The browser's own, which can be a POSIX name (en-US@posix).
    const browser = (navigator.languages[0] ?? navigator.language).split(/[@.]/)[0]!.replace(/_/g, '-');
    expect(localeOf(outside!)).to.equal(Intl.getCanonicalLocales(browser)[0]);
  });

  it('follows the page when its lang changes', async () => {
    const api = await setupApi(bigNumbersDataset());
    try {
      const page = await fixture<HTMLDivElement>(
        html`<div lang="en"><qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card></div>`,
      );
      await settled(page);
      const card = page.querySelector('qb-user-card')!;
      page.setAttribute('lang', 'fr');
      await waitUntil(() => card.shadowRoot!.querySelector('dt')?.textContent === 'Score total', 'the card stayed English');
    } finally {
      await api.teardown();
    }
  });
});
