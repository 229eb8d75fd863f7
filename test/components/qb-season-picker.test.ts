// <qb-season-picker>: the app's seasons said as under way, ended or to come; choosing one sets
// the season of the leaderboard its `for` names, which then shows that season's board, and says
// so in an event; nothing at all for an app without seasons.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import '../../src/components/index.js';
import '../../src/components/lazy.js';
import type { QbSeasonChangeEvent, QbSeasonPicker } from '../../src/components/qb-season-picker/qb-season-picker.js';
import type { QbLeaderboard } from '../../src/components/qb-leaderboard/qb-leaderboard.js';
import type { Dataset } from '../../src/api/schemas.js';
import { APP_ID, guildDataset, useApi, shadow } from './support.js';

const AUTUMN = '61111111-1111-4111-8111-111111111111';
const WINTER = '62111111-1111-4111-8111-111111111111';
const SPRING = '63111111-1111-4111-8111-111111111111';

/** The guild with a season past (its board frozen as imported), one under way and one to come. */
function withSeasons(): Dataset {
  const dataset = guildDataset();
  Object.assign(dataset.apps![0]!, {
    seasons: [
      {
        season_id: AUTUMN,
        name: 'Autumn',
        starts_at: '2026-09-01T00:00:00Z',
        ends_at: '2026-10-01T00:00:00Z',
        frozen: true,
        board: [
          { account_name: 'carol', points: 40, at: '2026-09-10T00:00:00Z' },
          { account_name: 'bob', points: 15, at: '2026-09-12T00:00:00Z' },
        ],
      },
      { season_id: WINTER, name: 'Winter', starts_at: '2026-10-01T00:00:00Z', ends_at: '2098-01-01T00:00:00Z' },
      { season_id: SPRING, name: 'Spring', starts_at: '2098-01-01T00:00:00Z', ends_at: '2098-04-01T00:00:00Z' },
    ],
  });
  return dataset;
}

const names = (board: QbLeaderboard) =>
  [...shadow(board).querySelectorAll('tbody:not(.qb-lb__pinned) th[scope="row"]')].map((cell) => cell.textContent);

describe('<qb-season-picker>', () => {
  useApi(withSeasons());

  it('sets the season of the leaderboard it is for, which shows that season’s board', async () => {
    const page = await fixture<HTMLElement>(html`<div>
      <qb-season-picker app-id=${APP_ID} for="board"></qb-season-picker>
      <qb-leaderboard id="board" app-id=${APP_ID}></qb-leaderboard>
    </div>`);
    const picker = page.querySelector<QbSeasonPicker>('qb-season-picker')!;
    const board = page.querySelector<QbLeaderboard>('qb-leaderboard')!;
    await waitUntil(() => shadow(picker).querySelector('select'), 'no seasons to choose from');
    const select = shadow(picker).querySelector('select')!;
    expect([...select.options].map((option) => option.textContent)).to.deep.equal([
      'All time',
      'Autumn (ended)',
      'Winter (under way)',
      'Spring (starts later)',
    ]);
    expect(shadow(picker).querySelector('label')!.textContent).to.equal('Season');
    await expect(picker).to.be.accessible();

    const chosen: (string | null)[] = [];
    page.addEventListener('qb-season-change', (event: QbSeasonChangeEvent) => chosen.push(event.detail.season_id));
    select.value = AUTUMN;
    select.dispatchEvent(new Event('change'));
    expect(board.getAttribute('season')).to.equal(AUTUMN);
    await waitUntil(() => names(board).join() === 'carol,bob', 'the board never showed the autumn season');

    select.value = '';
    select.dispatchEvent(new Event('change'));
    expect(board.hasAttribute('season')).to.equal(false);
    await waitUntil(() => names(board).includes('alice'), 'the board never went back to all time');
    expect(chosen).to.deep.equal([AUTUMN, null]);
  });
});

describe('<qb-season-picker> for an app without seasons', () => {
  const api = useApi();

  it('shows nothing once it has asked', async () => {
    const picker = await fixture<QbSeasonPicker>(html`<qb-season-picker app-id=${APP_ID}></qb-season-picker>`);
    // Its loading status shows before its request goes out, and goes once the answer is in.
    await waitUntil(
      () => api.sent.some((path) => path.includes('get_seasons')) && !shadow(picker).querySelector('[part~="status"]'),
      'the seasons never loaded',
    );
    await picker.updateComplete;
    expect(shadow(picker).textContent!.trim()).to.equal('');
    expect(shadow(picker).querySelector('select, [part~="error"]')).to.equal(null);
  });
});
