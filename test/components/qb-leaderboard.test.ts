import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/qb-leaderboard/qb-leaderboard.js';
import type { QbLeaderboard } from '../../src/components/qb-leaderboard/qb-leaderboard.js';
import { HOSTILE_NAMES, pwned } from './hostile-names.js';
import { APP_ID, POST_TASK_ID, PROFILE_TASK_ID, guildDataset, injected, setupApi, shadow, type TestApi } from './support.js';

const SEASON = '5e450000-0000-4000-8000-000000000001';
const MEMBERS = Array.from({ length: 12 }, (_, index) => `member-${String(index).padStart(2, '0')}`);

const settled = (element: QbLeaderboard) =>
  waitUntil(() => shadow(element).querySelector('table, .qb-empty, .qb-error'), 'leaderboard never settled');

const names = (element: QbLeaderboard, body = 'tbody:not(.qb-lb__pinned)') =>
  [...shadow(element).querySelectorAll(`${body} th[scope="row"]`)].map((cell) => cell.textContent);

function board(attributes: { limit?: number; highlight?: string; type?: string } = {}) {
  return fixture<QbLeaderboard>(html`<qb-leaderboard
    app-id=${APP_ID}
    limit=${attributes.limit ?? 10}
    highlight=${attributes.highlight ?? ''}
    type=${attributes.type ?? 'score'}
  ></qb-leaderboard>`);
}

describe('<qb-leaderboard>', () => {
  let api: TestApi;
  before(async () => {
    // alice 20 and bob 10 points; the twelve members 20 each for a profile completed after
    // alice's, in order; the hostile names none.
    const dataset = guildDataset([...MEMBERS, ...HOSTILE_NAMES]);
    dataset.apps![0]!.progress!.push(
      ...MEMBERS.map((account_name, index) => ({
        task_id: PROFILE_TASK_ID,
        account_name,
        quantity: 1,
        at: `2026-11-03T10:${String(index).padStart(2, '0')}:00Z`,
      })),
    );
    // A season whose board is not the app's: bob leads it, alice has no points in it.
    dataset.apps![0]!.seasons = [
      {
        season_id: SEASON,
        name: 'Autumn',
        starts_at: '2026-09-01T00:00:00Z',
        ends_at: '2026-12-01T00:00:00Z',
        board: [
          { account_name: 'bob', points: 30, at: '2026-11-01T00:00:00Z' },
          { account_name: 'member-05', points: 12, at: '2026-11-02T00:00:00Z' },
        ],
      },
    ];
    api = await setupApi(dataset);
  });
  after(() => api.teardown());

  it('shows a loading state while the request runs', async () => {
    api.hold();
    const element = await board();
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.equal('Loading the leaderboard…');
    await expect(element).to.be.accessible();
    api.release();
    await settled(element);
  });

  it('is an accessible table of rank, member, score, XP, challenges and tasks', async () => {
    const element = await board({ limit: 3 });
    await settled(element);
    const root = shadow(element);
    expect(root.querySelector('caption')!.textContent).to.equal('Leaderboard by score');
    // A header with a short form for narrow tables keeps its label as its name.
    expect(
      [...root.querySelectorAll('thead th')].map((cell) => cell.getAttribute('aria-label') ?? cell.textContent),
    ).to.deep.equal(['Rank', 'Member', 'Score', 'XP', 'Challenges', 'Tasks']);
    const rows = [...root.querySelectorAll('tbody tr')].map((row) => [...row.children].map((cell) => cell.textContent));
    // Equal scores share a rank; the tie goes to who reached it first.
    expect(rows).to.deep.equal([
      ['1', 'alice', '20', '20', '0', '1'],
      ['1', 'member-00', '20', '20', '0', '1'],
      ['1', 'member-01', '20', '20', '0', '1'],
    ]);
    expect(root.querySelector('.qb-lb__summary')!.textContent!.trim()).to.equal('Showing 1–3 of 25 members');
    await expect(element).to.be.accessible();
  });

  it("shows a season's board, and pages it, with season", async () => {
    api.sent.length = 0;
    const element = await fixture<QbLeaderboard>(
      html`<qb-leaderboard app-id=${APP_ID} limit="1" season=${SEASON}></qb-leaderboard>`,
    );
    await settled(element);
    expect(names(element)).to.deep.equal(['bob']);
    expect(api.sent).to.deep.equal([`v1/get_leaderboard?app_id=guild&leaderboard_type=score&season=${SEASON}&limit=1&offset=0`]);
    shadow(element).querySelector<HTMLButtonElement>('[part="load-more"]')!.click();
    await waitUntil(() => names(element).length === 2, 'second page never came');
    expect(names(element)).to.deep.equal(['bob', 'member-05']);
    expect(api.sent[1]).to.equal(`v1/get_leaderboard?app_id=guild&leaderboard_type=score&season=${SEASON}&limit=1&offset=1`);
    // Without it, the app's board again.
    element.season = '';
    await waitUntil(() => names(element)[0] === 'alice', "the app's board never came back");
    await expect(element).to.be.accessible();
  });

  it('loads more with offset paging, from the keyboard', async () => {
    const element = await board({ limit: 10 });
    await settled(element);
    const firstPage = names(element);
    expect(firstPage).to.have.length(10);
    api.sent.length = 0;
    shadow(element).querySelector<HTMLButtonElement>('[part="load-more"]')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => names(element).length === 20, 'second page never came');
    expect(api.sent).to.deep.equal(['v1/get_leaderboard?app_id=guild&leaderboard_type=score&limit=10&offset=10']);
    expect(names(element).slice(0, 10)).to.deep.equal(firstPage);
    expect(new Set(names(element)).size).to.equal(20);
    expect(shadow(element).querySelector('.qb-lb__summary')!.textContent!.trim()).to.equal('Showing 1–20 of 25 members');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => names(element).length === 25, 'last page never came');
    expect(shadow(element).querySelector('[part="load-more"]')).to.equal(null);
    await expect(element).to.be.accessible();
  });

  it('highlights the current member and pins their row while they are outside the list', async () => {
    const element = await board({ limit: 3, highlight: 'bob' });
    await settled(element);
    await waitUntil(() => names(element, 'tbody.qb-lb__pinned').length === 1, 'no pinned row');
    const pinned = shadow(element).querySelector('tbody.qb-lb__pinned tr')!;
    expect(pinned.getAttribute('aria-current')).to.equal('true');
    expect(pinned.querySelector('th')!.textContent).to.equal('bob');
    expect(pinned.querySelector('td')!.textContent).to.equal('14');
    expect(pinned.getAttribute('part')).to.equal('row highlighted-row');
    await expect(element).to.be.accessible();

    const inside = await board({ limit: 3, highlight: names(element)[1]! });
    await settled(inside);
    const current = shadow(inside).querySelectorAll('[aria-current="true"]');
    expect(current).to.have.length(1);
    expect(shadow(inside).querySelector('tbody.qb-lb__pinned')).to.equal(null);
  });

  it('names its columns after the leaderboard type', async () => {
    const element = await board({ type: 'weekly' });
    await settled(element);
    expect(shadow(element).querySelector('caption')!.textContent).to.equal('Leaderboard this week');
    expect(shadow(element).querySelectorAll('thead th')[2]!.getAttribute('aria-label')).to.equal('Score this week');
  });

  it('reorders itself when a write changes scores', async () => {
    const element = await board({ limit: 30 });
    await settled(element);
    expect(names(element).indexOf('carol')).to.be.greaterThan(10);
    await api.admin.admin.logTask({ task_id: POST_TASK_ID, account_name: 'carol', quantity: 3 });
    await api.admin.admin.logTask({ task_id: PROFILE_TASK_ID, account_name: 'carol', quantity: 1 });
    await waitUntil(() => names(element)[0] === 'carol', 'never reordered');
    expect(names(element)).to.have.length(25);
  });

  it('says so when the app has no members', async () => {
    await api.admin.admin.importDataset({ apps: [{ app_id: 'empty-app', api_keys: [{ key: 'pk_empty', scopes: ['read'] }] }] });
    const element = await fixture<QbLeaderboard>(html`<qb-leaderboard app-id="empty-app" api-key="pk_empty"></qb-leaderboard>`);
    await settled(element);
    expect(shadow(element).querySelector('tbody')!.textContent!.trim()).to.equal('No members on this leaderboard yet.');
    expect(shadow(element).querySelector('[part="load-more"]')).to.equal(null);
    await expect(element).to.be.accessible();
  });

  it('shows a readable error for an unknown app', async () => {
    const element = await fixture<QbLeaderboard>(html`<qb-leaderboard app-id="no-such-app"></qb-leaderboard>`);
    await settled(element);
    expect(shadow(element).querySelector('[role="alert"]')!.textContent).to.match(
      /^Could not load the leaderboard: app_id not found/,
    );
    await expect(element).to.be.accessible();
  });

  it('formats numbers in the page language', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="hi-IN-u-nu-deva"><qb-leaderboard app-id=${APP_ID} limit="1"></qb-leaderboard></div>`,
    );
    const element = wrapper.querySelector('qb-leaderboard')!;
    await settled(element);
    expect(shadow(element).querySelector('tbody td')!.textContent).to.equal(new Intl.NumberFormat('hi-IN-u-nu-deva').format(1));
    expect(shadow(element).querySelector('[part="base"]')!.getAttribute('lang')).to.equal('hi-IN-u-nu-deva');
  });

  it('renders hostile member names as text', async () => {
    const element = await board({ limit: 50, highlight: HOSTILE_NAMES[0] });
    await settled(element);
    const shown = names(element);
    for (const name of HOSTILE_NAMES) expect(shown).to.include(name);
    expect(injected(shadow(element))).to.deep.equal([]);
    expect(pwned()).to.equal(false);
  });
});
