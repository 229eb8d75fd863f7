// Loaded on demand (src/components/shared/lazy-elements.ts): values come from the kit alone.
import type { Achievements } from '../../api/responses.js';
import { onDemand } from '../../i18n/catalogs/en.js';
import type { Translator } from '../../i18n/messages.js';
import {
  addEnglishWords,
  QueryController,
  QuestboardElement,
  nullIfNotFound,
  changeAffects,
  defineElement,
  html,
  nothing,
  property,
  tokens,
} from '../shared/kit.js';
import { userHighlightsStyles } from './qb-user-highlights.styles.js';

addEnglishWords(onDemand);

type Badge = Achievements['badges'][number];

/** How many of the member's badges are shown, the latest first; the rest are counted. */
const SHOWN_BADGES = 3;

/**
 * A member's highlights in one row: their current streak and the badges they earned last (up
 * to three, then "and 2 more"), from one `GET /v1/get_achievements`. <qb-user-card> shows it
 * below the member's totals; <qb-achievements> is the whole wall. Loaded on demand by the
 * script-tag embed. Shows nothing for a member the app has not heard of.
 *
 * @csspart streak - "Current streak 3 days".
 * @csspart badges - The list of the latest badges.
 * @csspart badge - One badge.
 * @csspart badge-image - The badge's image, or its mark where it has none.
 * @csspart badge-name - The badge's name.
 * @csspart more - "and 2 more": the badges not shown.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown without an account-name.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 * @cssprop --qb-user-highlights-image-size - Size of a badge's image, and the height of the row (default 1.5em).
 *
 * @customElement qb-user-highlights
 */
export class QbUserHighlights extends QuestboardElement {
  static override styles = [tokens, userHighlightsStyles];

  /** The member's app. */
  @property({ attribute: 'app-id' }) appId = '';
  /** The member whose streak and badges are shown. */
  @property({ attribute: 'account-name' }) accountName = '';

  private readonly query = new QueryController<Achievements | null>(this, {
    args: () => (this.appId && this.accountName ? [this.appId, this.accountName, this.apiKey, this.baseUrl] : null),
    // A member the app has not heard of yet has nothing to show.
    load: (client) => nullIfNotFound(client.getAchievements({ app_id: this.appId, account_name: this.accountName })),
    affectedBy: (change) => changeAffects(change, this.appId, this.accountName),
    appId: () => this.appId,
  });

  protected override renderIn(t: Translator) {
    const name = html`<bdi>${this.accountName}</bdi>`;
    return this.query.render(t, {
      idle: t.text('achievements.idle'),
      loading: t.parts('achievements.loading', { name }),
      failed: 'achievements.loadFailed',
      failedValues: { name },
      ready: (achievements) => (achievements ? this.renderHighlights(t, achievements) : nothing),
    });
  }

  private renderHighlights(t: Translator, { streak, badges }: Achievements) {
    // The latest first; badges earned at the same moment keep the app's order.
    const latest = [...badges].sort((a, b) => Date.parse(b.earned_at) - Date.parse(a.earned_at));
    const hidden = latest.length - SHOWN_BADGES;
    return html`<div class="row">
      <p class="streak" part="streak">
        <span class="label">${t.text('achievements.currentStreak')}</span>
        <span class="days">${t.text('achievements.days', { count: streak.current })}</span>
      </p>
      ${
        latest.length
          ? html`<ul class="badges" part="badges" aria-label=${t.text('achievements.badges')}>
            ${latest.slice(0, SHOWN_BADGES).map((badge) => this.renderBadge(badge))}
            ${hidden > 0 ? html`<li class="more" part="more">${t.text('achievements.more', { count: hidden })}</li>` : nothing}
          </ul>`
          : nothing
      }
    </div>`;
  }

  private renderBadge(badge: Badge) {
    return html`<li class="badge" part="badge" title=${badge.description}>
      ${
        badge.image_url
          ? html`<img class="image" part="badge-image" src=${badge.image_url} alt="" loading="lazy" />`
          : html`<span class="image mark" part="badge-image" aria-hidden="true">★</span>`
      }
      <span class="name" part="badge-name">${badge.name}</span>
    </li>`;
  }
}

defineElement('qb-user-highlights', QbUserHighlights);

declare global {
  interface HTMLElementTagNameMap {
    'qb-user-highlights': QbUserHighlights;
  }
}
