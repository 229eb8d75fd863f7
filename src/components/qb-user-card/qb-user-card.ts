import { html } from 'lit';
import { property } from 'lit/decorators.js';
import type { UserInfo } from '../../api/responses.js';
import { levelStart } from '../../api/levels.js';
import { changeAffects } from '../../client/changes.js';
import { nullIfNotFound } from '../../client/questboard-error.js';
import type { Translator } from '../../i18n/messages.js';
import { cssProperty } from '../shared/css-property.js';
import { defineElement } from '../shared/define-element.js';
import { loadElement } from '../shared/lazy-elements.js';
import { QueryController } from '../shared/query-controller.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { renderEmpty } from '../shared/status.js';
import { barStyles } from '../shared/bar.js';
import { cardHost, tokens } from '../shared/base-styles.js';
import { userCardStyles } from './qb-user-card.styles.js';

type StatLabel =
  | 'userCard.totalScore'
  | 'userCard.weeklyScore'
  | 'userCard.monthlyScore'
  | 'userCard.challengesCompleted'
  | 'userCard.tasksCompleted'
  | 'userCard.achievements';

/**
 * A member's standing: level and the XP bar to the next level, total, weekly and monthly
 * score, challenges and tasks completed, achievements; below them the member's current streak
 * and latest badges (<qb-user-highlights>, which the script-tag embed loads on demand).
 *
 * @csspart card - The card.
 * @csspart name - The member's name.
 * @csspart level - "Level 3".
 * @csspart xp-bar - The XP progress bar's track.
 * @csspart xp-bar-fill - The filled part of the XP bar.
 * @csspart xp-label - "320 of 600 XP".
 * @csspart stats - The list of totals.
 * @csspart highlights - The member's streak and latest badges: a <qb-user-highlights>, whose own parts the card does not forward.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown for a member with no activity yet, or without an account-name.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 * @cssprop --qb-user-card-bar-height - Height of the XP bar.
 * @cssprop --qb-user-card-bar-color - Color of the XP bar's fill.
 *
 * @customElement qb-user-card
 */
export class QbUserCard extends QuestboardElement {
  // The shared bar rules come last, so forced colours win over each element's colours.
  static override styles = [tokens, cardHost, userCardStyles, barStyles];

  /** The member's app. */
  @property({ attribute: 'app-id' }) appId = '';
  /** The member whose standing is shown. */
  @property({ attribute: 'account-name' }) accountName = '';

  private readonly query = new QueryController<UserInfo | null>(this, {
    args: () => (this.appId && this.accountName ? [this.appId, this.accountName, this.apiKey, this.baseUrl] : null),
    // A member the app has not heard of yet simply has nothing to show.
    load: (client) => nullIfNotFound(client.getUserInfo({ app_id: this.appId, account_name: this.accountName })),
    affectedBy: (change) => changeAffects(change, this.appId, this.accountName),
    appId: () => this.appId,
  });

  protected override renderIn(t: Translator) {
    const name = html`<bdi>${this.accountName}</bdi>`;
    return this.query.render(t, {
      idle: t.text('userCard.idle'),
      loading: t.parts('userCard.loading', { name }),
      failed: 'userCard.loadFailed',
      failedValues: { name },
      ready: (user) => (user ? this.renderCard(t, user) : renderEmpty(t.parts('userCard.noActivity', { name }))),
    });
  }

  private renderCard(t: Translator, user: UserInfo) {
    const start = levelStart(user.current_level);
    const span = Math.max(user.next_level_xp - start, 1);
    const gained = Math.min(Math.max(user.current_xp - start, 0), span);
    const stats: Array<[StatLabel, number]> = [
      ['userCard.totalScore', user.total_score],
      ['userCard.weeklyScore', user.challenge_score_weekly],
      ['userCard.monthlyScore', user.challenge_score_monthly],
      ['userCard.challengesCompleted', user.challenges_completed],
      ['userCard.tasksCompleted', user.tasks_completed],
      ['userCard.achievements', user.total_achievements],
    ];
    // The embed's observer does not see into this shadow root: the streak and badges' element is asked for here.
    void loadElement('qb-user-highlights');
    const xpText = t.text('userCard.xp', { current: user.current_xp, next: user.next_level_xp });
    return html`<section class="card" part="card" aria-labelledby="name">
      <div class="header">
        <p class="name" part="name" id="name"><bdi>${user.account_name}</bdi></p>
        <p class="level" part="level">${t.text('userCard.level', { level: user.current_level })}</p>
      </div>
      <div
        class="bar"
        part="xp-bar"
        role="progressbar"
        aria-label=${t.text('userCard.xpTowardLevel', { level: user.current_level + 1 })}
        aria-valuemin="0"
        aria-valuemax=${span}
        aria-valuenow=${gained}
        aria-valuetext=${xpText}
      >
        <div class="bar-fill" part="xp-bar-fill" ${cssProperty('--qb-fill', String(gained / span))}></div>
      </div>
      <p class="xp-label" part="xp-label">${xpText}</p>
      <dl class="stats" part="stats">
        ${stats.map(
          ([label, value]) => html`<div class="stat">
            <dt>${t.text(label)}</dt>
            <dd>${t.number(value)}</dd>
          </div>`,
        )}
      </dl>
      <qb-user-highlights
        part="highlights"
        app-id=${this.appId}
        account-name=${this.accountName}
        .apiKey=${this.apiKey}
        .baseUrl=${this.baseUrl}
      ></qb-user-highlights>
    </section>`;
  }
}

defineElement('qb-user-card', QbUserCard);

declare global {
  interface HTMLElementTagNameMap {
    'qb-user-card': QbUserCard;
  }
}
