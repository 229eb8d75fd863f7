import { html } from 'lit';
import { property } from 'lit/decorators.js';
import type { Challenge, Task } from '../../api/responses.js';
import { QuestboardError } from '../../client/questboard-error.js';
import type { Translator } from '../../i18n/messages.js';
import { defineElement } from '../shared/define-element.js';
import { loadElement } from '../shared/lazy-elements.js';
import { QueryController } from '../shared/query-controller.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { renderEmpty } from '../shared/status.js';
import { cardHost, tokens } from '../shared/base-styles.js';
import '../qb-task-progress/qb-task-progress.js';
import { challengeStyles } from './qb-challenge.styles.js';

type ChallengeAnswer = { started: true; challenge: Challenge } | { started: false };

/**
 * A challenge card: its name, description and tasks, each with the member's
 * <qb-task-progress> when `account-name` is set. With `app-id`, a task members complete
 * themselves (a quest: its verification is not `backend`) gets a <qb-quest-task> beside it,
 * loaded on demand, which writes as `account-name` or else the signed-in member.
 *
 * @csspart card - The card.
 * @csspart name - The challenge's name.
 * @csspart description - The challenge's description.
 * @csspart tasks - The task list.
 * @csspart task - One task of the list.
 * @csspart not-started - Shown while the challenge has not started yet.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown without a challenge-id, or for a challenge without tasks.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 * @cssprop --qb-challenge-gap - Space between the tasks.
 *
 * @customElement qb-challenge
 */
export class QbChallenge extends QuestboardElement {
  static override styles = [tokens, cardHost, challengeStyles];

  @property({ attribute: 'challenge-id' }) challengeId = '';
  @property({ attribute: 'account-name' }) accountName = '';
  /** The challenge's app, which quest tasks need (submissions are listed by app). */
  @property({ attribute: 'app-id' }) appId = '';

  private readonly query = new QueryController<ChallengeAnswer>(this, {
    args: () => (this.challengeId ? [this.challengeId, this.apiKey, this.baseUrl] : null),
    load: (client) =>
      client.getChallenge({ challenge_id: this.challengeId }).then(
        (challenge): ChallengeAnswer => ({ started: true, challenge }),
        (error: unknown): ChallengeAnswer => {
          if (error instanceof QuestboardError && error.kind === 'not-started') {
            return { started: false };
          }
          throw error;
        },
      ),
    // Only an import (which names no member) changes a challenge itself.
    affectedBy: (change) => change.scope === 'app',
  });

  protected override renderIn(t: Translator) {
    return this.query.render(t, {
      idle: t.text('challenge.idle'),
      loading: t.text('challenge.loading'),
      failed: 'challenge.loadFailed',
      ready: (answer) =>
        answer.started
          ? this.renderChallenge(t, answer.challenge)
          : html`<p class="qb-empty" part="not-started">${t.text('challenge.notStarted')}</p>`,
    });
  }

  private renderChallenge(t: Translator, challenge: Challenge) {
    return html`<section class="card" part="card" aria-labelledby="name">
      <p class="name" part="name" id="name"><bdi>${challenge.name}</bdi></p>
      ${
        // The site's own text, in whatever language it wrote it: isolated, its full stop stays at its end on an rtl page.
        challenge.description ? html`<p class="description" part="description"><bdi>${challenge.description}</bdi></p>` : null
      }
      ${
        challenge.tasks.length
          ? html`<ul class="tasks" part="tasks" aria-label=${t.text('challenge.tasks')}>
            ${challenge.tasks.map((task) => html`<li part="task">${this.renderTask(t, task)}</li>`)}
          </ul>`
          : renderEmpty(t.text('challenge.noTasks'))
      }
    </section>`;
  }

  private renderTask(t: Translator, task: Task) {
    const kind = task.verification?.kind ?? 'backend';
    if (!this.appId || kind === 'backend') return this.renderProgress(t, task);
    // The embed's observer does not see into this shadow root: the element is asked for here.
    void loadElement('qb-quest-task');
    return html`${this.renderProgress(t, task)}<qb-quest-task
        app-id=${this.appId}
        task-id=${task.task_id}
        task-name=${task.name}
        kind=${kind}
        account-name=${this.accountName}
        .apiKey=${this.apiKey}
        .baseUrl=${this.baseUrl}
      ></qb-quest-task>`;
  }

  private renderProgress(t: Translator, task: Task) {
    if (this.accountName) {
      return html`<qb-task-progress
        task-id=${task.task_id}
        account-name=${this.accountName}
        .apiKey=${this.apiKey}
        .baseUrl=${this.baseUrl}
      ></qb-task-progress>`;
    }
    return html`<span class="task-name"><bdi>${task.name}</bdi></span>
      <span class="task-quantity">${t.text('challenge.quantity', { quantity: task.quantity })}</span>`;
  }
}

defineElement('qb-challenge', QbChallenge);

declare global {
  interface HTMLElementTagNameMap {
    'qb-challenge': QbChallenge;
  }
}
