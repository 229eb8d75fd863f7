// <qb-user-highlights> in <qb-user-card>: the member's current streak and latest badges (with a
// count of the rest), live updates, a member without either, a newcomer, German, and axe.
import { expect, fixture, html } from '@open-wc/testing';
import { waitUntil } from '../wait-until.js';
import '../../src/components/qb-user-card/qb-user-card.js';
import '../../src/components/lazy.js';
import type { QbUserCard } from '../../src/components/qb-user-card/qb-user-card.js';
import type { QbUserHighlights } from '../../src/components/qb-user-highlights/qb-user-highlights.js';
import type { Dataset } from '../../src/api/schemas.js';
import { loadCatalogChunk } from '../../src/i18n/catalog-chunks.js';
import { setCatalogLoader } from '../../src/i18n/page-catalogs.js';
import { APP_ID, CHALLENGE_ID, POST_TASK_ID, guildDataset, useApi, shadow } from './support.js';

// Other languages' words load as the ES modules load them.
setCatalogLoader(loadCatalogChunk);

/** The guild with badges alice earned on different days, by rule and by hand. */
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
  const byHand = (badge_id: string, earned_at: string) => ({ badge_id, account_name: 'alice', earned_at });
  Object.assign(app!, {
    badges: [
      badge('pioneer', { kind: 'manual' }),
      badge('helper', { kind: 'manual' }),
      badge('mentor', { kind: 'manual' }),
      badge('onboarded', { kind: 'challenge', challenge_id: CHALLENGE_ID }),
    ],
    badge_awards: [
      byHand('pioneer', '2026-11-02T10:00:00Z'),
      byHand('helper', '2026-11-03T10:00:00Z'),
      byHand('mentor', '2026-11-05T10:00:00Z'),
    ],
  });
  return dataset;
}

const card = (name: string, wrapper = html`<div></div>`) =>
  fixture(html`<div>${wrapper}</div>`).then(async (root) => {
    const element = document.createElement('qb-user-card');
    element.setAttribute('app-id', APP_ID);
    element.setAttribute('account-name', name);
    root.firstElementChild!.append(element);
    await waitUntil(() => shadow(element).querySelector('.card, .qb-empty, .qb-error'), 'card never settled');
    return element;
  });

const highlightsOf = (element: QbUserCard) => shadow(element).querySelector<QbUserHighlights>('qb-user-highlights');

async function settled(element: QbUserCard): Promise<ShadowRoot> {
  await waitUntil(() => highlightsOf(element)?.shadowRoot?.querySelector('.row, .qb-error'), 'highlights never settled');
  return highlightsOf(element)!.shadowRoot!;
}

/** What the row says: the streak, each badge shown, and the count of the rest. */
const shown = (root: ShadowRoot) => ({
  streak: [...root.querySelectorAll('[part="streak"] > span')].map((span) => span.textContent).join(' '),
  badges: [...root.querySelectorAll('[part="badge-name"]')].map((name) => name.textContent),
  more: root.querySelector('[part="more"]')?.textContent ?? null,
});

describe('<qb-user-card> with the member’s highlights', () => {
  const api = useApi(withBadges());

  it('shows the streak and the three latest badges, counting the rest', async () => {
    const element = await card('alice');
    const root = await settled(element);
    expect(highlightsOf(element)!.getAttribute('part')).to.equal('highlights');
    expect(shown(root)).to.deep.equal({
      // alice was last active on 1 November: her streak is long broken.
      streak: 'Current streak 0 days',
      badges: ['Badge mentor', 'Badge helper', 'Badge pioneer'],
      more: null,
    });
    expect(root.querySelector('[part="badges"]')!.getAttribute('aria-label')).to.equal('Badges');
    expect(root.querySelector('[part="badge"]')!.getAttribute('title')).to.equal('For mentor.');
    await expect(element).to.be.accessible();
  });

  it('follows a write: today’s progress starts a streak, a badge it earns comes first', async () => {
    const element = await card('alice');
    const root = await settled(element);
    // alice's third post completes the challenge (her profile is done), which earns its badge.
    await api.admin.admin.logTask({ task_id: POST_TASK_ID, account_name: 'alice', quantity: 1 });
    await waitUntil(() => shown(root).more !== null, 'the new badge never showed');
    expect(shown(root)).to.deep.equal({
      streak: 'Current streak 1 day',
      badges: ['Badge onboarded', 'Badge mentor', 'Badge helper'],
      more: 'and 1 more',
    });
    await expect(element).to.be.accessible();
  });

  it('shows only the streak for a member without badges', async () => {
    const root = await settled(await card('carol'));
    expect(shown(root)).to.deep.equal({ streak: 'Current streak 0 days', badges: [], more: null });
    expect(root.querySelector('[part="badges"]')).to.equal(null);
  });

  it('shows nothing for a member the app has not heard of', async () => {
    const element = await card('nobody-yet');
    expect(shadow(element).querySelector('.qb-empty')!.textContent).to.equal('nobody-yet has no activity yet.');
    expect(highlightsOf(element)).to.equal(null);
    const alone = await fixture<QbUserHighlights>(
      html`<qb-user-highlights app-id=${APP_ID} account-name="nobody-yet"></qb-user-highlights>`,
    );
    await waitUntil(() => !alone.shadowRoot!.querySelector('[part="status"]'), 'never settled');
    expect(alone.shadowRoot!.querySelector('.row, .qb-error, .qb-empty')).to.equal(null);
  });

  it('keeps its row’s room while loading, and says what it loads', async () => {
    api.hold();
    const element = await fixture<QbUserHighlights>(
      html`<qb-user-highlights app-id=${APP_ID} account-name="carol"></qb-user-highlights>`,
    );
    await waitUntil(() => element.shadowRoot!.querySelector('[part="status"]'), 'no loading state');
    expect(element.shadowRoot!.querySelector('[part="status"]')!.textContent).to.equal('Loading carol’s achievements…');
    const loadingHeight = element.getBoundingClientRect().height;
    api.release();
    await waitUntil(() => element.shadowRoot!.querySelector('.row'), 'never loaded');
    expect(element.getBoundingClientRect().height).to.equal(loadingHeight);
    await expect(element).to.be.accessible();
  });

  it('shows a readable error with a retry', async () => {
    const element = await fixture<QbUserHighlights>(
      html`<qb-user-highlights app-id=${APP_ID} account-name="alice" api-key="pk_wrong"></qb-user-highlights>`,
    );
    await waitUntil(() => element.shadowRoot!.querySelector('[role="alert"]'), 'no error');
    expect(element.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.match(/^Could not load alice’s achievements: /);
    expect(element.shadowRoot!.querySelector('[part="retry-button"]')).to.not.equal(null);
    await expect(element).to.be.accessible();
  });

  it('speaks German on a German page', async () => {
    // alice as the write above left her.
    const element = await card('alice', html`<div lang="de"></div>`);
    const root = await settled(element);
    await waitUntil(() => shown(root).streak.startsWith('Aktuelle'), 'never in German');
    expect(shown(root)).to.deep.equal({
      streak: 'Aktuelle Serie 1 Tag',
      badges: ['Badge onboarded', 'Badge mentor', 'Badge helper'],
      more: 'und 1 weitere',
    });
    expect(root.querySelector('[part="badges"]')!.getAttribute('aria-label')).to.equal('Abzeichen');
  });
});
