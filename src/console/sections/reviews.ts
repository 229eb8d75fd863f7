import { css, html } from 'lit';
import type { SubmissionAnswer as Submission } from '../../api/admin-responses.js';
import { consoleStyles } from '../console-styles.js';
import { state } from 'lit/decorators.js';
import { Loader, type Outcome, outcomeView, reasonOf, pagerView } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

const PAGE_SIZE = 50;

interface Queue {
  submissions: Submission[];
  next_offset: number | null;
}

type Decision = 'approve' | 'reject';

const isLink = (text: string) => /^https?:\/\/\S+$/i.test(text);

/**
 * The pending submissions of quests: each approved or rejected with a reason, or several at once.
 * Every control is a native checkbox, field or button, so the queue works from the keyboard alone.
 */
export class ConsoleReviews extends ConsoleSection {
  static override styles = css`
    ${consoleStyles}
      dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 0.8em; margin: 0.6em 0; }
      dt { font-weight: 600; }
      dd { margin: 0; overflow-wrap: anywhere; min-width: 0; }
      .answer { white-space: pre-wrap; }
    `;
  private readonly queue = new Loader<Queue>(this);
  @state() private offset = 0;
  @state() private selected = new Set<string>();
  @state() private outcome: Outcome = null;

  protected reload(): void {
    this.offset = 0;
    this.show();
  }

  private show() {
    this.selected = new Set();
    const offset = this.offset;
    void this.queue.load(() =>
      this.admin.get('submissions', { app_id: this.appId, status: 'pending', offset, limit: PAGE_SIZE }),
    );
  }

  private page(offset: number) {
    this.offset = offset;
    this.outcome = null;
    this.show();
  }

  private toggle(id: string, on: boolean) {
    const selected = new Set(this.selected);
    if (on) selected.add(id);
    else selected.delete(id);
    this.selected = selected;
  }

  private toggleAll(submissions: Submission[], on: boolean) {
    this.selected = new Set(on ? submissions.map((submission) => submission.submission_id) : []);
  }

  private field(id: string) {
    return this.renderRoot.querySelector<HTMLInputElement>(`#${id}`);
  }

  private async decide(decision: Decision, submission: Submission) {
    const reason = this.field(`reason-${submission.submission_id}`)?.value.trim() || undefined;
    await this.send(
      { submission_id: submission.submission_id, decision, reason },
      this.locale.t(decision === 'approve' ? 'reviews.approved' : 'reviews.rejected', { count: 1 }),
    );
  }

  private async decideSelected(decision: Decision) {
    const reason = this.field('bulk-reason')?.value.trim() || undefined;
    const submission_ids = [...this.selected];
    await this.send(
      { submission_ids, decision, reason },
      this.locale.t(decision === 'approve' ? 'reviews.approved' : 'reviews.rejected', { count: submission_ids.length }),
      (answer) => (answer.skipped?.length ? this.locale.t('reviews.skipped', { count: answer.skipped.length }) : ''),
    );
  }

  private async send(body: object, done: string, more: (answer: { skipped?: unknown[] }) => string = () => '') {
    try {
      const answer = await this.admin.post<{ skipped?: unknown[] }>('review', { ...body });
      this.outcome = { ok: true, text: [done, more(answer)].filter(Boolean).join(' ') };
      this.show();
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  override render() {
    return html`
      ${this.queue.view(
        this.locale,
        (queue) => this.list(queue),
        ({ submissions }) => submissions.length === 0 && this.offset === 0,
      )}
      ${outcomeView(this.outcome)}
    `;
  }

  private list({ submissions, next_offset }: Queue) {
    const { t } = this.locale;
    const count = this.selected.size;
    const all = submissions.length > 0 && count === submissions.length;
    return html`
      <fieldset>
        <legend>${t('reviews.bulk')}</legend>
        <label class="inline">
          <input type="checkbox" .checked=${all} @change=${(event: Event) =>
            this.toggleAll(submissions, (event.target as HTMLInputElement).checked)} />
          ${t('reviews.selectAll')}
        </label>
        <label for="bulk-reason">${t('reviews.bulkReason')}</label>
        <input id="bulk-reason" maxlength="1000" />
        <div class="row">
          <button type="button" ?disabled=${count === 0} @click=${() => this.decideSelected('approve')}>
            ${t('reviews.approveSelected', { count })}
          </button>
          <button type="button" class="danger" ?disabled=${count === 0} @click=${() => this.decideSelected('reject')}>
            ${t('reviews.rejectSelected', { count })}
          </button>
        </div>
      </fieldset>
      <ul class="cards">
        ${submissions.map((submission) => this.item(submission))}
      </ul>
      ${pagerView(this.locale, {
        previous: this.offset === 0 ? null : () => this.page(Math.max(0, this.offset - PAGE_SIZE)),
        next: next_offset === null ? null : () => this.page(next_offset),
      })}
    `;
  }

  private item(submission: Submission) {
    const { t } = this.locale;
    const id = submission.submission_id;
    const values = { member: submission.account_name, task: submission.task_id };
    return html`<li class="card">
      <label class="inline">
        <input type="checkbox" .checked=${this.selected.has(id)} @change=${(event: Event) =>
          this.toggle(id, (event.target as HTMLInputElement).checked)} />
        ${t('reviews.select', values)}
      </label>
      <dl>
        <dt>${t('reviews.member')}</dt>
        <dd>${submission.account_name}</dd>
        <dt>${t('reviews.task')}</dt>
        <dd class="secret">${submission.task_id}</dd>
        <dt>${t('reviews.when')}</dt>
        <dd>${this.locale.date(Date.parse(submission.create_date))}</dd>
        <dt>${t('reviews.answer')}</dt>
        <!-- No whitespace inside: the answer keeps the member's own line breaks (pre-wrap), and only them. -->
        <dd class="answer">${
          isLink(submission.text)
            ? html`<a href=${submission.text} target="_blank" rel="noopener noreferrer">${submission.text}</a>`
            : submission.text
        }</dd>
      </dl>
      <label for=${`reason-${id}`}>${t('reviews.reason')}</label>
      <input id=${`reason-${id}`} maxlength="1000" />
      <div class="row">
        <button type="button" aria-label=${t('reviews.approveOne', values)} @click=${() => this.decide('approve', submission)}>
          ${t('reviews.approve')}
        </button>
        <button type="button" class="danger" aria-label=${t('reviews.rejectOne', values)} @click=${() =>
          this.decide('reject', submission)}>
          ${t('reviews.reject')}
        </button>
      </div>
    </li>`;
  }
}

defineConsoleElement('qb-console-reviews', ConsoleReviews);
