// <qb-achievements>: the streak, every badge of the app earned or not yet with the progress
// toward it, live updates, a member the app has not heard of, and axe.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import '../../src/components/lazy.js';
import type { QbAchievements } from '../../src/components/qb-achievements/qb-achievements.js';
import type { Dataset } from '../../src/api/schemas.js';
import { APP_ID, CHALLENGE_ID, POST_TASK_ID, guildDataset, useApi, shadow } from './support.js';

/** The guild with a badge of every kind a wall shows differently. */
function withBadges(): Dataset {
  const dataset = guildDataset();
  const [app] = dataset.apps!;
  const badge = (badge_id: string, rule: Record<string, unknown>) => ({
    badge_id,
    name: `Badge ${badge_id}`,
    description: `For ${badge_id}.`,
    image_url: null,
    rule,
  });
  Object.assign(app!, {
    badges: [
      badge('first-task', { kind: 'tasks_completed', at_least: 1 }),
      badge('three-tasks', { kind: 'tasks_completed', at_least: 3 }),
      badge('onboarded', { kind: 'challenge', challenge_id: CHALLENGE_ID }),
      badge('helper', { kind: 'manual' }),
    ],
  });
  return dataset;
}

const wall = (name = 'alice') =>
  fixture<QbAchievements>(html`<qb-achievements app-id=${APP_ID} account-name=${name}></qb-achievements>`);
const ready = (element: QbAchievements) =>
  waitUntil(() => shadow(element).querySelector('.card, .qb-error'), 'wall never settled');

/** Each badge shown: its name, whether earned, and what its status line says. */
const badgesOf = (element: QbAchievements) =>
  [...shadow(element).querySelectorAll('[part~="badge"]')].map((item) => ({
    name: item.querySelector('[part="badge-name"]')!.textContent,
    earned: item.matches('[part~="badge-earned"]'),
    status: item.querySelector('[part="badge-status"]')!.textContent,
  }));

const streakOf = (element: QbAchievements) =>
  Object.fromEntries(
    [...shadow(element).querySelectorAll('.streak > div')].map((row) => [
      row.querySelector('dt')!.textContent,
      row.querySelector('dd')!.textContent,
    ]),
  );

describe('<qb-achievements>', () => {
  const api = useApi(withBadges());

  it('shows every badge, earned or with the progress toward it, and the streak', async () => {
    const element = await wall();
    await ready(element);
    const root = shadow(element);
    expect(root.querySelector('[part="heading"]')!.textContent).to.equal('alice’s achievements');
    expect(root.querySelector('[part="badge-count"]')!.textContent).to.equal('1 of 4 badges earned');
    const [first, three, onboarded, helper] = badgesOf(element);
    expect(first).to.include({ name: 'Badge first-task', earned: true });
    expect(first!.status).to.match(/^Earned \w+ \d+, \d{4}$/);
    expect(three).to.deep.equal({ name: 'Badge three-tasks', earned: false, status: '1 of 3' });
    expect(onboarded).to.deep.equal({ name: 'Badge onboarded', earned: false, status: '0 of 1' });
    expect(helper).to.deep.equal({ name: 'Badge helper', earned: false, status: 'Given by the community team' });
    const bar = root.querySelectorAll('[part~="badge"]')[1]!.querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute('aria-label')).to.equal('Progress toward Badge three-tasks');
    expect([
      bar.getAttribute('aria-valuenow'),
      bar.getAttribute('aria-valuemax'),
      bar.getAttribute('aria-valuetext'),
    ]).to.deep.equal(['1', '3', '1 of 3']);
    // alice was last active on 1 November: a day's streak, long broken.
    expect(streakOf(element)).to.deep.equal({ 'Current streak': '0 days', 'Longest streak': '1 day' });
    await expect(element).to.be.accessible();
  });

  it('follows a write: a completed challenge shows its badge earned, the progress moves on', async () => {
    const element = await wall();
    await ready(element);
    // alice's third post completes the challenge (her profile is done).
    await api.admin.admin.logTask({ task_id: POST_TASK_ID, account_name: 'alice', quantity: 1 });
    await waitUntil(() => badgesOf(element)[2]?.earned, 'the challenge badge never showed earned');
    expect(shadow(element).querySelector('[part="badge-count"]')!.textContent).to.equal('2 of 4 badges earned');
    expect(badgesOf(element)[1]).to.deep.equal({ name: 'Badge three-tasks', earned: false, status: '2 of 3' });
  });

  it('shows a member the app has not heard of every badge still to earn', async () => {
    const element = await wall('newcomer');
    await ready(element);
    expect(badgesOf(element).map(({ earned, status }) => [earned, status])).to.deep.equal([
      [false, '0 of 1'],
      [false, '0 of 3'],
      [false, '0 of 1'],
      [false, 'Given by the community team'],
    ]);
    expect(streakOf(element)).to.deep.equal({ 'Current streak': '0 days', 'Longest streak': '0 days' });
  });
});
