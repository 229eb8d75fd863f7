// Loaded on demand (src/components/shared/lazy-elements.ts): values come from the kit alone.
import type { PropertyValues } from 'lit';
import type { Submissions, VerificationKind } from '../../api/responses.js';
import { onDemand } from '../../i18n/catalogs/en.js';
import type { Translator } from '../../i18n/messages.js';
import {
  addEnglishWords,
  QueryController,
  QuestboardElement,
  QuestboardError,
  SignedInMemberController,
  cardHost,
  changeAffects,
  classNames,
  defineElement,
  failureMessage,
  html,
  nothing,
  property,
  state,
  tokens,
} from '../shared/kit.js';
import { questTaskStyles } from './qb-quest-task.styles.js';

addEnglishWords(onDemand);

type Sending =
  | { status: 'idle' }
  | { status: 'required' }
  | { status: 'sending' }
  | { status: 'completed' }
  | { status: 'error'; error: unknown };

/**
 * What a member does to complete a quest task themselves (docs/quests.md), by its verification
 * `kind`: a code field (`code`), a proof to send for review with its review's outcome
 * (`review`), or a button asking the site whether it is done (`callback`). It writes as
 * `account-name` (a page whose key may write for anyone) or else as the signed-in member.
 * <qb-challenge app-id> shows one beside each such task.
 *
 * @slot sign-in - Shown while no member is signed in and no `account-name` is given. "Sign in to complete this task." by default.
 * @csspart form - The form (code and review).
 * @csspart label - The field's label.
 * @csspart input - The code's or the proof's field.
 * @csspart button - The send (or check) button.
 * @csspart review - The review's outcome: pending, approved, or rejected with the reviewer's reason.
 * @csspart message - What the last try gave: completed, or why not (role="alert").
 * @csspart sign-in - What is shown instead while no member is signed in.
 * @cssprop --qb-quest-task-input-width - Width of the code's or the proof's field.
 *
 * @customElement qb-quest-task
 */
export class QbQuestTask extends QuestboardElement {
  static override styles = [tokens, cardHost, questTaskStyles];

  @property({ attribute: 'app-id' }) appId = '';
  @property({ attribute: 'task-id' }) taskId = '';
  /** The task's verification: `code`, `review` or `callback` (as get_challenge gives it). */
  @property() kind: VerificationKind = 'backend';
  /** The task's name, which the form's fields are labelled with (several tasks share a page). */
  @property({ attribute: 'task-name' }) taskName = '';
  /** The member who completes it, for a page whose key may write for anyone (`write`); left out, the signed-in member. */
  @property({ attribute: 'account-name' }) accountName = '';

  @state() private sending: Sending = { status: 'idle' };
  private readonly member = new SignedInMemberController(this);

  /** The member's latest submission for this task (review only). */
  private readonly review = new QueryController<Submissions['submissions'][number] | undefined>(this, {
    args: () => (this.kind === 'review' && this.appId && this.completer ? [this.appId, this.completer, this.taskId] : null),
    load: (client) =>
      client
        .getSubmissions({ app_id: this.appId, account_name: this.completer })
        .then(({ submissions }) => submissions.filter((submission) => submission.task_id === this.taskId).at(-1)),
    affectedBy: (change) => changeAffects(change, this.appId, this.completer),
    appId: () => this.appId,
  });

  /** Who completes the task: `account-name`, or the member the page's token names (for display only). */
  private get completer(): string {
    if (this.accountName) return this.accountName;
    return this.member.state.status === 'signed-in' ? this.member.state.name : '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('taskId') || changed.has('accountName')) this.sending = { status: 'idle' };
  }

  protected override renderIn(t: Translator) {
    if (!this.completer) {
      return html`<p class="qb-empty" part="sign-in"><slot name="sign-in">${t.text('questTask.signIn')}</slot></p>`;
    }
    const busy = this.sending.status === 'sending';
    const button = html`<button class="qb-button" part="button" type="submit" aria-disabled=${busy ? 'true' : 'false'}>
      ${busy ? t.text('questTask.sending') : t.text(this.kind === 'callback' ? 'questTask.check' : 'questTask.send')}
    </button>`;
    const submission = this.review.state.status === 'ready' ? this.review.state.value : undefined;
    const field =
      this.kind === 'callback' || submission?.status === 'pending'
        ? nothing
        : html`<label part="label" for="field">${t.text(this.kind === 'code' ? 'questTask.code' : 'questTask.proof')}</label>
            <input
              id="field"
              part="input"
              autocomplete="off"
              aria-invalid=${this.sending.status === 'required' ? 'true' : 'false'}
              aria-describedby="message"
            />`;
    return html`<form
        part="form"
        novalidate
        aria-label=${this.taskName || nothing}
        aria-busy=${busy ? 'true' : 'false'}
        @submit=${this.submit}
      >
        ${field}${submission?.status === 'pending' ? nothing : button}
      </form>
      ${this.kind === 'review' ? this.renderReview(t, submission) : nothing}
      <p id="message" part="message" class=${classNames({ message: true, done: this.sending.status === 'completed' })} role="alert"
      >${this.renderMessage(t)}</p>`;
  }

  private renderReview(t: Translator, submission: Submissions['submissions'][number] | undefined) {
    if (!submission) return nothing;
    const said =
      submission.status === 'pending'
        ? t.text('questTask.pending')
        : submission.status === 'approved'
          ? t.text('questTask.approved')
          : submission.reason
            ? t.parts('questTask.rejectedBecause', { reason: html`<bdi>${submission.reason}</bdi>` })
            : t.text('questTask.rejected');
    return html`<p part="review" class="review ${submission.status}" role="status">${said}</p>`;
  }

  private renderMessage(t: Translator) {
    const sending = this.sending;
    if (sending.status === 'required') return t.text('questTask.required');
    if (sending.status === 'completed') return t.text('questTask.completed');
    if (sending.status !== 'error') return nothing;
    const { error } = sending;
    const retryAfter = error instanceof QuestboardError ? error.retryAfter : null;
    return [
      failureMessage(t, 'questTask.failed', error),
      retryAfter ? [' ', t.text('questTask.retryAfter', { time: inWords(t, retryAfter) })] : nothing,
    ];
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.sending.status === 'sending') return;
    const input = this.renderRoot.querySelector('input');
    const value = input?.value.trim() ?? '';
    if (input && !value) {
      this.sending = { status: 'required' };
      input.focus();
      return;
    }
    this.sending = { status: 'sending' };
    try {
      const client = await this.client();
      const result = await client.submitTask({
        app_id: this.appId,
        task_id: this.taskId,
        // Without `account-name`, the API takes the member from the token: what the token claims is never sent as fact.
        ...(this.accountName ? { account_name: this.accountName } : {}),
        ...(this.kind === 'code' ? { answer: value } : this.kind === 'review' ? { text: value } : {}),
      });
      if (input) input.value = '';
      if ('submission_id' in result) {
        // A submission waiting for review changes no numbers, so no change is announced: its line is read again here.
        this.sending = { status: 'idle' };
        await this.review.run({ quiet: true });
      } else {
        this.sending = { status: 'completed' };
      }
    } catch (error) {
      this.sending = { status: 'error', error };
      if (!this.accountName && error instanceof QuestboardError && error.kind === 'signed-out') this.member.signedOut();
    }
  }
}

/** "in 45 seconds", "in 10 minutes": a Retry-After as the page's language says a time to come. */
function inWords(t: Translator, seconds: number): string {
  const format = new Intl.RelativeTimeFormat([t.locale, 'en'], { numeric: 'auto' });
  return seconds < 60 ? format.format(seconds, 'second') : format.format(Math.ceil(seconds / 60), 'minute');
}

defineElement('qb-quest-task', QbQuestTask);

declare global {
  interface HTMLElementTagNameMap {
    'qb-quest-task': QbQuestTask;
  }
}
