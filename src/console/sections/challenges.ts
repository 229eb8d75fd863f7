import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { newGuid } from '../../api/formats.js';
import { Loader, type Outcome, outcomeView, reasonOf } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

/** How a task is completed (docs/quests.md): a code's answers come back as hashes, never in clear. */
interface VerificationDraft {
  kind: 'code' | 'review' | 'callback';
  answers?: string[];
  answer_hashes?: string[];
  url?: string;
}

const VERIFICATION_KINDS = ['backend', 'code', 'review', 'callback'] as const;

/** A task as the import's shape has it (the fields the form edits). */
interface TaskDraft {
  task_id: string;
  name: string;
  quantity: number;
  operator: 0 | 1;
  points: number;
  allowretry: boolean;
  alloweditquantity: boolean;
  /** Absent: completed by the site's backend (admin/log_task) alone. */
  verification?: VerificationDraft;
}

interface ChallengeDraft {
  challenge_id: string;
  name: string;
  description: string;
  start_date: string;
  points: number;
  /** Hidden from members, counting no new progress; absent: open. */
  retired?: boolean;
  tasks: TaskDraft[];
}

const newTask = (): TaskDraft => ({
  task_id: newGuid(),
  name: '',
  quantity: 1,
  operator: 0,
  points: 0,
  allowretry: false,
  alloweditquantity: false,
});

/** `2026-11-28T10:00:00.000Z` as a datetime-local field writes it, in the browser's zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * The app's challenges and their tasks: listed, created, edited and scheduled (the start date)
 * in forms whose fields are the import shape's; the API's message says what a field lacks.
 * Retired (and reopened) by saving the challenge as listed with `retired` set.
 */
export class ConsoleChallenges extends ConsoleSection {
  private readonly list = new Loader<{ challenges: ChallengeDraft[] }>(this);
  @state() private draft: ChallengeDraft | null = null;
  @state() private outcome: Outcome = null;

  protected reload(): void {
    this.draft = null;
    void this.list.load(() => this.admin.get('challenges', { app_id: this.appId }));
  }

  private edit(challenge: ChallengeDraft | null) {
    this.outcome = null;
    this.draft = challenge
      ? { ...challenge, start_date: toLocalInput(challenge.start_date), tasks: challenge.tasks.map((task) => ({ ...task })) }
      : {
          challenge_id: newGuid(),
          name: '',
          description: '',
          start_date: toLocalInput(new Date().toISOString()),
          points: 0,
          tasks: [newTask()],
        };
  }

  private async save(event: SubmitEvent) {
    event.preventDefault();
    const draft = this.draft!;
    const challenge = { ...draft, start_date: new Date(draft.start_date).toISOString() };
    try {
      await this.admin.post('save_challenge', { app_id: this.appId, challenge });
      this.outcome = { ok: true, text: this.locale.t('console.saved') };
      this.reload();
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  private async setRetired(challenge: ChallengeDraft, retired: boolean) {
    const { t } = this.locale;
    const name = challenge.name;
    if (retired && !confirm(t('challenges.retireConfirm', { name }))) return;
    try {
      await this.admin.post('save_challenge', { app_id: this.appId, challenge: { ...challenge, retired } });
      this.outcome = { ok: true, text: t(retired ? 'challenges.retiredDone' : 'challenges.reopened', { name }) };
      this.reload();
    } catch (error) {
      this.outcome = { ok: false, text: t('console.error', { reason: reasonOf(error) }) };
    }
  }

  /** Updates the draft from a field: its name is the draft's path (`tasks.0.points`). */
  private field(event: Event) {
    const input = event.target as HTMLInputElement | HTMLSelectElement;
    const path = input.name.split('.');
    const value =
      input instanceof HTMLInputElement && input.type === 'checkbox'
        ? input.checked
        : input.type === 'number' || input.name.endsWith('operator')
          ? Number(input.value)
          : input.value;
    if (path[2] === 'verification') return this.verificationField(Number(path[1]), path[3]!, input.value);
    const draft = structuredClone(this.draft!) as unknown as Record<string, unknown>;
    let target = draft;
    for (const part of path.slice(0, -1)) target = target[part] as Record<string, unknown>;
    target[path[path.length - 1]!] = value;
    this.draft = draft as unknown as ChallengeDraft;
  }

  /** A task's verification from its fields: its kind (the other fields go with the kind they are of), a code's answers, a callback's URL. */
  private verificationField(index: number, field: string, value: string) {
    const draft = structuredClone(this.draft!);
    const task = draft.tasks[index]!;
    if (field === 'kind') {
      const kind = value as (typeof VERIFICATION_KINDS)[number];
      if (kind === 'backend') delete task.verification;
      else if (task.verification?.kind !== kind) task.verification = { kind };
    } else if (field === 'answers') {
      task.verification!.answers = value
        .split('\n')
        .map((answer) => answer.trim())
        .filter(Boolean);
      // Answers typed replace those kept, which the console never sees in clear.
      if (task.verification!.answers.length > 0) delete task.verification!.answer_hashes;
    } else if (field === 'url') task.verification!.url = value.trim();
    this.draft = draft;
  }

  override render() {
    return this.draft ? this.renderForm(this.draft) : this.renderList();
  }

  private renderList() {
    const { t } = this.locale;
    return html`
      <button type="button" @click=${() => this.edit(null)}>${t('challenges.new')}</button>
      ${this.list.view(
        this.locale,
        ({ challenges }) => html`<ul class="cards">
          ${challenges.map(
            (challenge) => html`<li class="card">
              <h3>${challenge.name}</h3>
              <p class="muted">
                ${t('challenges.summary', {
                  start: this.locale.date(Date.parse(challenge.start_date)),
                  points: this.locale.number(challenge.points),
                  tasks: this.locale.number(challenge.tasks.length),
                })}
              </p>
              ${challenge.retired ? html`<p><strong>${t('challenges.retired')}</strong></p>` : nothing}
              <div class="row">
                <button type="button" class="secondary" aria-label=${t('challenges.editNamed', { name: challenge.name })} @click=${() => this.edit(challenge)}>
                  ${t('challenges.edit')}
                </button>
                ${
                  challenge.retired
                    ? html`<button type="button" class="secondary" aria-label=${t('challenges.reopenNamed', { name: challenge.name })} @click=${() => this.setRetired(challenge, false)}>
                        ${t('challenges.reopen')}
                      </button>`
                    : html`<button type="button" class="danger" aria-label=${t('challenges.retireNamed', { name: challenge.name })} @click=${() => this.setRetired(challenge, true)}>
                        ${t('challenges.retire')}
                      </button>`
                }
              </div>
            </li>`,
          )}
        </ul>`,
        ({ challenges }) => challenges.length === 0,
      )}
      ${outcomeView(this.outcome)}
    `;
  }

  private verificationFields(index: number, task: TaskDraft) {
    const { t } = this.locale;
    const verification = task.verification;
    const kind = verification?.kind ?? 'backend';
    const kept = verification?.answer_hashes?.length ?? 0;
    return html`<label for="task-${index}-kind">${t('challenges.verification')}</label>
      <select id="task-${index}-kind" name="tasks.${index}.verification.kind">
        ${VERIFICATION_KINDS.map((option) => html`<option value=${option} ?selected=${option === kind}>${t(`challenges.verification.${option}`)}</option>`)}
      </select>
      ${
        kind === 'code'
          ? html`<label for="task-${index}-answers">${t('challenges.answers')}</label>
              <textarea id="task-${index}-answers" name="tasks.${index}.verification.answers" rows="2" ?required=${kept === 0}
                aria-describedby=${kept > 0 ? `task-${index}-kept` : nothing} .value=${(verification?.answers ?? []).join('\n')}></textarea>
              ${kept > 0 ? html`<p id="task-${index}-kept" class="muted">${t('challenges.answersKept', { count: kept })}</p>` : nothing}`
          : nothing
      }
      ${
        kind === 'callback'
          ? html`<label for="task-${index}-url">${t('challenges.callbackUrl')}</label>
              <input id="task-${index}-url" name="tasks.${index}.verification.url" type="url" required placeholder="https://" .value=${verification?.url ?? ''} />`
          : nothing
      }`;
  }

  private renderForm(draft: ChallengeDraft) {
    const { t } = this.locale;
    return html`
      <form @submit=${this.save} @change=${this.field}>
        <label for="name">${t('challenges.name')}</label>
        <input id="name" name="name" required .value=${draft.name} />
        <label for="description">${t('challenges.description')}</label>
        <textarea id="description" name="description" rows="3" .value=${draft.description}></textarea>
        <label for="start">${t('challenges.start')}</label>
        <input id="start" name="start_date" type="datetime-local" required .value=${draft.start_date} />
        <label for="points">${t('challenges.points')}</label>
        <input id="points" name="points" type="number" min="0" step="1" .value=${String(draft.points)} />
        ${draft.tasks.map(
          (task, index) => html`<fieldset>
            <legend>${t('challenges.task', { number: index + 1 })}</legend>
            <label for="task-${index}-name">${t('challenges.name')}</label>
            <input id="task-${index}-name" name="tasks.${index}.name" required .value=${task.name} />
            <label for="task-${index}-quantity">${t('challenges.quantity')}</label>
            <input id="task-${index}-quantity" name="tasks.${index}.quantity" type="number" min="0" step="any" .value=${String(task.quantity)} />
            <label for="task-${index}-operator">${t('challenges.operator')}</label>
            <select id="task-${index}-operator" name="tasks.${index}.operator">
              <option value="0" ?selected=${task.operator === 0}>${t('challenges.operator.cumulative')}</option>
              <option value="1" ?selected=${task.operator === 1}>${t('challenges.operator.single')}</option>
            </select>
            <label for="task-${index}-points">${t('challenges.points')}</label>
            <input id="task-${index}-points" name="tasks.${index}.points" type="number" min="0" step="1" .value=${String(task.points)} />
            <label class="inline"
              ><input type="checkbox" name="tasks.${index}.allowretry" .checked=${task.allowretry} /> ${t('challenges.allowRetry')}</label
            >
            <label class="inline"
              ><input type="checkbox" name="tasks.${index}.alloweditquantity" .checked=${task.alloweditquantity} />
              ${t('challenges.allowEdit')}</label
            >
            ${this.verificationFields(index, task)}
          </fieldset>`,
        )}
        <div class="row">
          <button type="button" class="secondary" @click=${() => (this.draft = { ...draft, tasks: [...draft.tasks, newTask()] })}>
            ${t('challenges.addTask')}
          </button>
          <button type="submit">${t('challenges.save')}</button>
          <button type="button" class="secondary" @click=${() => (this.draft = null)}>${t('challenges.cancel')}</button>
        </div>
      </form>
      ${outcomeView(this.outcome)}
    `;
  }
}

defineConsoleElement('qb-console-challenges', ConsoleChallenges);
