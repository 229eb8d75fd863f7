import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/components/qb-user-card/qb-user-card.js';
// The card's streak and badges (test/components/qb-user-highlights.test.ts), as the ES modules define them.
import '../../src/components/lazy.js';
import type { QbUserCard } from '../../src/components/qb-user-card/qb-user-card.js';
import { HOSTILE_NAMES, pwned } from './hostile-names.js';
import { APP_ID, API_KEY, guildDataset, injected, useApi, shadow } from './support.js';
import { canEmulateMedia, itWhere } from '../engine.js';

function card(name = 'alice') {
  return fixture<QbUserCard>(html`<qb-user-card app-id=${APP_ID} account-name=${name}></qb-user-card>`);
}

const ready = (element: QbUserCard) =>
  waitUntil(() => shadow(element).querySelector('.card, .qb-empty, .qb-error'), 'card never settled');

function stat(element: QbUserCard, label: string): string | undefined {
  const stats = [...shadow(element).querySelectorAll('.stat')];
  return stats.find((item) => item.querySelector('dt')!.textContent === label)?.querySelector('dd')!.textContent ?? undefined;
}

describe('<qb-user-card>', () => {
  const api = useApi(guildDataset([...HOSTILE_NAMES]));

  it('shows a loading state while the request runs', async () => {
    api.hold();
    const element = await card();
    const status = shadow(element).querySelector('[role="status"]')!;
    expect(status.textContent).to.contain('Loading');
    await expect(element).to.be.accessible();
    api.release();
    await ready(element);
    expect(shadow(element).querySelector('[role="status"]')).to.equal(null);
  });

  it('shows level, the XP bar and every total', async () => {
    const element = await card();
    await ready(element);
    const root = shadow(element);
    // alice: 2 of 3 posts, profile completed (+20), so 20 score and 20 XP at level 1.
    expect(root.querySelector('.name')!.textContent).to.equal('alice');
    expect(root.querySelector('.level')!.textContent).to.equal('Level 1');
    const bar = root.querySelector('[role="progressbar"]')!;
    expect(bar.getAttribute('aria-valuemin')).to.equal('0');
    expect(bar.getAttribute('aria-valuemax')).to.equal('100');
    expect(bar.getAttribute('aria-valuenow')).to.equal('20');
    expect(bar.getAttribute('aria-valuetext')).to.equal('20 of 100 XP');
    expect(root.querySelector('.xp-label')!.textContent).to.equal('20 of 100 XP');
    expect(stat(element, 'Total score')).to.equal('20');
    expect(stat(element, 'Tasks completed')).to.equal('1');
    expect(stat(element, 'Challenges completed')).to.equal('0');
    expect(stat(element, 'Achievements')).to.equal('1');
    // Set through the CSSOM (allowed by a strict CSP), not a style attribute in the markup.
    expect(root.querySelector<HTMLElement>('.bar-fill')!.style.getPropertyValue('--qb-fill')).to.equal('0.2');
    await expect(element).to.be.accessible();
  });

  it('formats numbers in the page language', async () => {
    const element = await fixture<QbUserCard>(
      html`<div lang="ar-EG"><qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card></div>`,
    ).then((wrapper) => wrapper.querySelector('qb-user-card')!);
    await ready(element);
    expect(stat(element, 'Total score')).to.equal(new Intl.NumberFormat('ar-EG').format(20));
    expect(stat(element, 'Total score')).to.not.equal('20');
  });

  it('says so for a member with no activity yet', async () => {
    const element = await card('nobody-yet');
    await ready(element);
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('nobody-yet has no activity yet.');
    await expect(element).to.be.accessible();
  });

  it('asks for a member when account-name is missing', async () => {
    const element = await fixture<QbUserCard>(html`<qb-user-card app-id=${APP_ID}></qb-user-card>`);
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('No member selected.');
    await expect(element).to.be.accessible();
  });

  it('shows a readable error with a retry that works', async () => {
    const element = await fixture<QbUserCard>(
      html`<qb-user-card app-id=${APP_ID} account-name="alice" api-key="pk_wrong"></qb-user-card>`,
    );
    await ready(element);
    const alert = shadow(element).querySelector('[role="alert"]')!;
    expect(alert.textContent).to.match(/^Could not load alice’s progress: .*key/i);
    await expect(element).to.be.accessible();
    element.apiKey = API_KEY;
    await waitUntil(() => shadow(element).querySelector('.card'), 'the corrected key never loaded');
  });

  it('refreshes when a write changes the member', async () => {
    const element = await card('bob');
    await ready(element);
    expect(shadow(element).querySelector('.xp-label')!.textContent).to.equal('10 of 100 XP');
    await api.member.endorseAccount({ app_id: APP_ID, from_account: 'alice', to_account: 'bob', endorsement_id: 'helpful' });
    await waitUntil(() => shadow(element).querySelector('.xp-label')!.textContent === '15 of 100 XP', 'never refreshed');
  });

  it('sends one request for fifty identical cards', async () => {
    api.sent.length = 0;
    const wrapper = await fixture<HTMLDivElement>(
      html`<div>${Array.from({ length: 50 }, () => html`<qb-user-card app-id=${APP_ID} account-name="carol"></qb-user-card>`)}</div>`,
    );
    const cards = [...wrapper.querySelectorAll('qb-user-card')];
    await Promise.all(cards.map(ready));
    expect(cards.every((element) => shadow(element).querySelector('.name')?.textContent === 'carol')).to.equal(true);
    expect(api.sent.filter((path) => path.startsWith('v1/get_userinfo'))).to.have.length(1);
  });

  it('renders hostile account names as text', async () => {
    for (const name of HOSTILE_NAMES) {
      const element = await card(name);
      await ready(element);
      expect(shadow(element).querySelector('.name')!.textContent).to.equal(name);
      expect(injected(shadow(element))).to.deep.equal([]);
    }
    expect(pwned()).to.equal(false);
  });

  itWhere(canEmulateMedia, 'its driver cannot emulate media features')(
    'follows the color scheme, reduced motion and rtl',
    async () => {
      const element = await fixture<QbUserCard>(
        html`<div dir="rtl"><qb-user-card app-id=${APP_ID} account-name="alice"></qb-user-card></div>`,
      ).then((wrapper) => wrapper.querySelector('qb-user-card')!);
      await ready(element);
      // The tests' default is no easing at all (support.ts): give this one some to take away.
      element.style.setProperty('--qb-duration', '200ms');
      const fill = shadow(element).querySelector('.bar-fill')!;
      const bar = shadow(element).querySelector('.bar')!;
      // rtl: the fill starts at the right edge of its track.
      expect(Math.round(fill.getBoundingClientRect().right)).to.equal(Math.round(bar.getBoundingClientRect().right));
      const lightText = getComputedStyle(element).color;
      await emulateMedia({ colorScheme: 'dark' });
      expect(getComputedStyle(element).color).to.not.equal(lightText);
      await expect(element).to.be.accessible();
      await emulateMedia({ colorScheme: 'light' });
      expect(getComputedStyle(fill).transitionDuration).to.not.equal('0s');
      await emulateMedia({ reducedMotion: 'reduce' });
      expect(getComputedStyle(fill).transitionDuration).to.equal('0s');
      await emulateMedia({ reducedMotion: 'no-preference' });
    },
  );
});
