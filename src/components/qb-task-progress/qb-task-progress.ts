import { html } from 'lit';
import { property } from 'lit/decorators.js';
import { classNames } from '../shared/class-names.js';
import type { TaskProgress } from '../../api/responses.js';
import { changeAffects } from '../../client/changes.js';
import { QuestboardError } from '../../client/questboard-error.js';
import type { Translator } from '../../i18n/messages.js';
import { cssProperty } from '../shared/css-property.js';
import { defineElement } from '../shared/define-element.js';
import { QueryController } from '../shared/query-controller.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { renderEmpty } from '../shared/status.js';
import { barStyles } from '../shared/bar.js';
import { cardHost, tokens } from '../shared/base-styles.js';
import { taskProgressStyles } from './qb-task-progress.styles.js';

/**
 * One member's progress on one task: a progress bar with a "2 of 3" label, and a completed state.
 *
 * @csspart task - The whole task row; carries the `complete` class when done.
 * @csspart name - The task's name.
 * @csspart label - "2 of 3", or "Completed".
 * @csspart bar - The progress bar's track.
 * @csspart bar-fill - The filled part of the bar.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown without task-id or account-name, or before the member has any activity.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 * @cssprop --qb-task-progress-bar-height - Height of the bar.
 * @cssprop --qb-task-progress-bar-color - Color of the bar's fill.
 * @cssprop --qb-task-progress-complete-color - Color of the bar and label once completed.
 *
 * @customElement qb-task-progress
 */
export class QbTaskProgress extends QuestboardElement {
  // The shared bar rules come last, so forced colours win over each element's colours.
  static override styles = [tokens, cardHost, taskProgressStyles, barStyles];

  @property({ attribute: 'task-id' }) taskId = '';
  @property({ attribute: 'account-name' }) accountName = '';

  private readonly query = new QueryController<TaskProgress | null>(this, {
    args: () => (this.taskId && this.accountName ? [this.taskId, this.accountName, this.apiKey, this.baseUrl] : null),
    load: (client) =>
      client.getTaskProgress({ task_id: this.taskId, account_name: this.accountName }).catch((error: unknown) => {
        // The app has not heard of the member yet: nothing logged, so nothing started.
        if (error instanceof QuestboardError && error.kind === 'unknown-member') return null;
        throw error;
      }),
    affectedBy: (change) => changeAffects(change, undefined, this.accountName),
  });

  /** Whether the member has completed the task (false until it has loaded). */
  get complete(): boolean {
    const state = this.query.state;
    return state.status === 'ready' && state.value !== null && state.value.quantity_completed >= state.value.quantity_required;
  }

  protected override renderIn(t: Translator) {
    return this.query.render(t, {
      idle: t.text('taskProgress.idle'),
      loading: t.text('taskProgress.loading'),
      failed: 'taskProgress.loadFailed',
      ready: (progress) => (progress ? this.renderProgress(t, progress) : renderEmpty(t.text('taskProgress.notStarted'))),
    });
  }

  private renderProgress(t: Translator, progress: TaskProgress) {
    const required = progress.quantity_required;
    const completed = Math.min(progress.quantity_completed, required);
    const done = this.complete;
    const counts = t.text('taskProgress.counts', { completed, required });
    const label = done ? t.text('taskProgress.completed') : counts;
    const fraction = required > 0 ? completed / required : done ? 1 : 0;
    return html`<div class=${classNames({ task: true, complete: done })} part="task">
      <p class="heading">
        <span class="name" part="name" id="name"><bdi>${progress.task_name}</bdi></span>
        <span class="label" part="label">${done ? html`<span aria-hidden="true">✓ </span>` : null}${label}</span>
      </p>
      <div
        class="bar"
        part="bar"
        role="progressbar"
        aria-labelledby="name"
        aria-valuemin="0"
        aria-valuemax=${required}
        aria-valuenow=${completed}
        aria-valuetext=${done ? t.text('taskProgress.countsCompleted', { completed, required }) : counts}
      >
        <div class="bar-fill" part="bar-fill" ${cssProperty('--qb-fill', String(fraction))}></div>
      </div>
    </div>`;
  }
}

defineElement('qb-task-progress', QbTaskProgress);

declare global {
  interface HTMLElementTagNameMap {
    'qb-task-progress': QbTaskProgress;
  }
}
