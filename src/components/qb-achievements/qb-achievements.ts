import type { Achievements, BadgeWall } from '../../api/responses.js';
import { onDemand } from '../../i18n/catalogs/en.js';
import type { Translator } from '../../i18n/messages.js';
import {
  addEnglishWords,
  QueryController,
  QuestboardElement,
  nullIfNotFound,
  barStyles,
  cardHost,
  changeAffects,
  cssProperty,
  defineElement,
  html,
  nothing,
  property,
  renderEmpty,
  tokens,
} from '../shared/kit.js';
import { achievementsStyles } from './qb-achievements.styles.js';

addEnglishWords(onDemand);

type Badge = BadgeWall['badges'][number];
/** The app's badges as the member stands toward them, and the member's streak (null before their first activity). */
interface Wall {
  badges: Badge[];
  streak: Achievements['streak'] | null;
}

/**
 * A member's achievements: their streak, and every badge of the app, earned (with when) or not
 * yet (with their progress toward its rule). Loaded on demand by the script-tag embed.
 *
 * @csspart card - The card.
 * @csspart heading - "alice's achievements".
 * @csspart streak - The list of streak figures.
 * @csspart badge-count - "2 of 5 badges earned".
 * @csspart badges - The list of badges.
 * @csspart badge - One badge; also `badge-earned` or `badge-locked`.
 * @csspart badge-earned - A badge the member holds.
 * @csspart badge-locked - A badge the member does not hold yet.
 * @csspart badge-image - The badge's image, or its mark where it has none.
 * @csspart badge-name - The badge's name.
 * @csspart badge-description - The badge's description.
 * @csspart badge-status - "Earned 18 Nov 2026", or what earns it.
 * @csspart progress-bar - The track of the progress toward a badge.
 * @csspart progress-bar-fill - The filled part of it.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown for an app without badges.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 * @cssprop --qb-achievements-image-size - Size of a badge's image (default 2.5em).
 * @cssprop --qb-achievements-bar-color - Color of the progress bars' fill.
 * @cssprop --qb-achievements-locked-opacity - Opacity of a badge not earned yet (default 0.65).
 *
 * @customElement qb-achievements
 */
export class QbAchievements extends QuestboardElement {
  // The shared bar rules come last, so forced colours win over each element's colours.
  static override styles = [tokens, cardHost, achievementsStyles, barStyles];

  @property({ attribute: 'app-id' }) appId = '';
  @property({ attribute: 'account-name' }) accountName = '';

  private readonly query = new QueryController<Wall>(this, {
    args: () => (this.appId && this.accountName ? [this.appId, this.accountName, this.apiKey, this.baseUrl] : null),
    load: async (client) => {
      const query = { app_id: this.appId, account_name: this.accountName };
      const [wall, achievements] = await Promise.all([
        client.getBadges(query),
        // A member the app has not heard of yet has no streak, and every badge still to earn.
        nullIfNotFound(client.getAchievements(query)),
      ]);
      return { badges: wall.badges, streak: achievements?.streak ?? null };
    },
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
      ready: (wall) => this.renderWall(t, wall),
    });
  }

  private renderWall(t: Translator, { badges, streak }: Wall) {
    const earned = badges.filter((badge) => badge.earned_at !== null).length;
    return html`<section class="card" part="card" aria-labelledby="heading">
      <p class="heading" part="heading" id="heading">${t.parts('achievements.heading', { name: html`<bdi>${this.accountName}</bdi>` })}</p>
      <dl class="streak" part="streak">
        <div>
          <dt>${t.text('achievements.currentStreak')}</dt>
          <dd>${t.text('achievements.days', { count: streak?.current ?? 0 })}</dd>
        </div>
        <div>
          <dt>${t.text('achievements.longestStreak')}</dt>
          <dd>${t.text('achievements.days', { count: streak?.longest ?? 0 })}</dd>
        </div>
        ${
          streak?.freezes_left
            ? html`<div>
              <dt>${t.text('achievements.freezesLeft')}</dt>
              <dd>${t.number(streak.freezes_left)}</dd>
            </div>`
            : nothing
        }
      </dl>
      ${
        badges.length === 0
          ? renderEmpty(t.text('achievements.noBadges'))
          : html`<p class="badge-count" part="badge-count">${t.text('achievements.earnedCount', { earned, count: badges.length })}</p>
            <ul class="badges" part="badges" aria-label=${t.text('achievements.badges')}>
              ${badges.map((badge) => this.renderBadge(t, badge))}
            </ul>`
      }
    </section>`;
  }

  private renderBadge(t: Translator, badge: Badge) {
    const held = badge.earned_at !== null;
    return html`<li class=${held ? 'badge earned' : 'badge'} part=${held ? 'badge badge-earned' : 'badge badge-locked'}>
      ${
        badge.image_url
          ? html`<img class="image" part="badge-image" src=${badge.image_url} alt="" loading="lazy" />`
          : html`<span class="image mark" part="badge-image" aria-hidden="true">${held ? '★' : '☆'}</span>`
      }
      <div class="text">
        <p class="name" part="badge-name">${badge.name}</p>
        <p class="description" part="badge-description">${badge.description}</p>
        ${this.renderStanding(t, badge)}
      </div>
    </li>`;
  }

  /** When the member earned the badge, else how far they are toward its rule, else that it is given by hand. */
  private renderStanding(t: Translator, { earned_at, progress, name }: Badge) {
    if (earned_at !== null) {
      const date = new Intl.DateTimeFormat(t.locale, { dateStyle: 'medium' }).format(new Date(earned_at));
      return html`<p class="standing" part="badge-status">${t.text('achievements.earnedOn', { date })}</p>`;
    }
    if (!progress) return html`<p class="standing" part="badge-status">${t.text('achievements.byHand')}</p>`;
    const text = t.text('achievements.progress', { current: progress.current, target: progress.target });
    return html`<div
        class="bar"
        part="progress-bar"
        role="progressbar"
        aria-label=${t.text('achievements.progressToward', { badge: name })}
        aria-valuemin="0"
        aria-valuemax=${progress.target}
        aria-valuenow=${progress.current}
        aria-valuetext=${text}
      >
        <div class="bar-fill" part="progress-bar-fill" ${cssProperty('--qb-fill', String(progress.current / progress.target))}></div>
      </div>
      <p class="standing" part="badge-status">${text}</p>`;
  }
}

defineElement('qb-achievements', QbAchievements);

declare global {
  interface HTMLElementTagNameMap {
    'qb-achievements': QbAchievements;
  }
}
