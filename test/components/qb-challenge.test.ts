import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import '../../src/components/qb-challenge/qb-challenge.js';
import type { QbChallenge } from '../../src/components/qb-challenge/qb-challenge.js';
import { HOSTILE_NAMES, pwned } from './hostile-names.js';
import { CHALLENGE_ID, FUTURE_CHALLENGE_ID, guildDataset, injected, useApi, shadow } from './support.js';

const settled = (element: QbChallenge) =>
  waitUntil(() => shadow(element).querySelector('.card, .qb-empty, .qb-error'), 'challenge never settled');

const progressOf = (element: QbChallenge) => [...shadow(element).querySelectorAll('qb-task-progress')];

async function progressSettled(element: QbChallenge) {
  await waitUntil(
    () => progressOf(element).every((task) => task.shadowRoot?.querySelector('.task, .qb-empty')),
    'task progress never settled',
  );
}

describe('<qb-challenge>', () => {
  const api = useApi(guildDataset([...HOSTILE_NAMES]));

  it('shows a loading state while the request runs', async () => {
    api.hold();
    const element = await fixture<QbChallenge>(html`<qb-challenge challenge-id=${CHALLENGE_ID}></qb-challenge>`);
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.equal('Loading the challenge…');
    await expect(element).to.be.accessible();
    api.release();
    await settled(element);
  });

  it('shows name, description and each task with the member’s progress', async () => {
    const element = await fixture<QbChallenge>(
      html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name="alice"></qb-challenge>`,
    );
    await settled(element);
    const root = shadow(element);
    expect(root.querySelector('.name')!.textContent).to.equal('Onboarding');
    expect(root.querySelector('.description')!.textContent).to.equal('Find your way around the guild.');
    const tasks = progressOf(element);
    expect(tasks.map((task) => task.accountName)).to.deep.equal(['alice', 'alice']);
    await progressSettled(element);
    expect(tasks.map((task) => task.shadowRoot!.querySelector('.label')!.textContent)).to.deep.equal(['2 of 3', '✓ Completed']);
    await expect(element).to.be.accessible();
  });

  it('keeps each task row’s height while its progress loads, and where there is none', async () => {
    const element = await fixture<QbChallenge>(
      html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name="alice"></qb-challenge>`,
    );
    await settled(element);
    await progressSettled(element);
    // Whole pixels: the rows' heights are sums of em lengths.
    const heights = () => progressOf(element).map((task) => Math.round(task.getBoundingClientRect().height));
    const withProgress = heights();
    api.hold();
    element.accountName = 'newcomer';
    await waitUntil(
      () => progressOf(element).every((task) => task.shadowRoot?.querySelector('[part="status"]')),
      'the rows never showed loading',
    );
    expect(heights(), 'loading').to.deep.equal(withProgress);
    api.release();
    await progressSettled(element);
    expect(progressOf(element).every((task) => task.shadowRoot!.querySelector('[part="empty"]'))).to.equal(true);
    expect(heights(), 'not started').to.deep.equal(withProgress);
  });

  it('lists the tasks without progress when no member is given', async () => {
    const element = await fixture<QbChallenge>(html`<qb-challenge challenge-id=${CHALLENGE_ID}></qb-challenge>`);
    await settled(element);
    expect(
      [...shadow(element).querySelectorAll('li')].map((item) => item.textContent!.replace(/\s+/g, ' ').trim()),
    ).to.deep.equal(['Post 3 times × 3', 'Fill in your profile × 1']);
    await expect(element).to.be.accessible();
  });

  it('says when the challenge has not started yet', async () => {
    const element = await fixture<QbChallenge>(html`<qb-challenge challenge-id=${FUTURE_CHALLENGE_ID}></qb-challenge>`);
    await settled(element);
    expect(shadow(element).querySelector('[part="not-started"]')!.textContent).to.equal('This challenge has not started yet.');
    await expect(element).to.be.accessible();
  });

  it('asks for a challenge when challenge-id is missing', async () => {
    const element = await fixture<QbChallenge>(html`<qb-challenge></qb-challenge>`);
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('No challenge selected.');
    await expect(element).to.be.accessible();
  });

  it('shows a readable error for an unknown challenge, and retries', async () => {
    const element = await fixture<QbChallenge>(
      html`<qb-challenge challenge-id="99999999-9999-4999-8999-999999999999"></qb-challenge>`,
    );
    await settled(element);
    const alert = shadow(element).querySelector('[role="alert"]')!;
    expect(alert.textContent).to.match(/^Could not load the challenge: .*not found/i);
    await expect(element).to.be.accessible();
    const sentBefore = api.sent.length;
    shadow(element).querySelector<HTMLButtonElement>('[part="retry-button"]')!.click();
    await settled(element);
    expect(api.sent.length).to.equal(sentBefore + 1);
  });

  it('renders hostile member names as text in every task', async () => {
    for (const name of HOSTILE_NAMES.slice(0, 4)) {
      const element = await fixture<QbChallenge>(
        html`<qb-challenge challenge-id=${CHALLENGE_ID} account-name=${name}></qb-challenge>`,
      );
      await settled(element);
      await progressSettled(element);
      expect(injected(shadow(element))).to.deep.equal([]);
      for (const task of progressOf(element)) expect(injected(task.shadowRoot!)).to.deep.equal([]);
    }
    expect(pwned()).to.equal(false);
  });
});
