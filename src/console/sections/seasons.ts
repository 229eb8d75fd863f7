import { css, html, nothing } from 'lit';
import type { SeasonAnswer as Season, SeasonReward as Reward } from '../../api/admin-responses.js';
import type { Leaderboard as Board } from '../../api/responses.js';
import { consoleStyles } from '../console-styles.js';
import { state } from 'lit/decorators.js';
import { Loader, type Outcome, outcomeView, reasonOf } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

/** The badge rule kinds admin/badges takes (src/api/schemas.ts), and which field each one needs. */
const RULE_FIELDS = {
  tasks_completed: 'at_least',
  challenges_completed: 'at_least',
  level: 'at_least',
  streak: 'at_least',
  challenge: 'challenge_id',
  manual: null,
} as const;
type RuleKind = keyof typeof RULE_FIELDS;

/** An instant as a datetime-local field shows it (local time, to the minute), and back. */
const toField = (instant: string) => {
  const at = new Date(instant);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromField = (value: string) => new Date(value).toISOString();

/** A text field of a submitted form, trimmed. */
const field = (form: FormData, name: string) => ((form.get(name) as string | null) ?? '').trim();

/** Seasons (defined, edited, their boards when archived) and badges (defined by rule, awarded by hand). */
export class ConsoleSeasons extends ConsoleSection {
  // A form's one column no wider than the screen, however long a rule's wording in the select.
  static override styles = css`
    ${consoleStyles}
    form { grid-template-columns: minmax(0, 1fr); }
    select, textarea { width: 100%; }
  `;
  private readonly seasons = new Loader<{ seasons: Season[] }>(this);
  private readonly board = new Loader<Board>(this);
  /** The season edited: a new one has a fresh id. */
  @state() private editing: Season | null = null;
  @state() private rewards: Reward[] = [];
  @state() private boardOf: Season | null = null;
  @state() private ruleKind: RuleKind = 'tasks_completed';
  @state() private seasonOutcome: Outcome = null;
  @state() private badgeOutcome: Outcome = null;
  @state() private awardOutcome: Outcome = null;

  protected reload(): void {
    this.editing = null;
    this.boardOf = null;
    void this.seasons.load(() => this.admin.get('seasons', { app_id: this.appId }));
  }

  private edit(season: Season | null) {
    const now = new Date().toISOString();
    this.editing = season ?? {
      season_id: crypto.randomUUID(),
      name: '',
      starts_at: now,
      ends_at: now,
      rewards: [],
      frozen: false,
    };
    this.rewards = this.editing.rewards.map((reward) => ({ ...reward }));
    this.seasonOutcome = null;
  }

  private showBoard(season: Season) {
    this.boardOf = season;
    void this.board.load(() =>
      this.admin.client.call('v1/get_leaderboard', { query: { app_id: this.appId, season: season.season_id, limit: 10 } }),
    );
  }

  private failed(error: unknown): Outcome {
    return { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
  }

  private async saveSeason(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    try {
      await this.admin.post('seasons', {
        app_id: this.appId,
        season_id: this.editing!.season_id,
        name: field(form, 'name'),
        starts_at: fromField(field(form, 'starts_at')),
        ends_at: fromField(field(form, 'ends_at')),
        rewards: this.rewards.map((_, index) => ({
          from_rank: Number(form.get(`reward-${index}-from`)),
          to_rank: Number(form.get(`reward-${index}-to`)),
          badge_id: field(form, `reward-${index}-badge`),
        })),
      });
      this.reload();
      this.seasonOutcome = { ok: true, text: this.locale.t('console.saved') };
    } catch (error) {
      this.seasonOutcome = this.failed(error);
    }
  }

  private async saveBadge(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const needs = RULE_FIELDS[this.ruleKind];
    const rule: Record<string, unknown> = { kind: this.ruleKind };
    if (needs === 'at_least') rule.at_least = Number(form.get('at_least'));
    if (needs === 'challenge_id') rule.challenge_id = field(form, 'challenge_id');
    const image = field(form, 'image_url');
    try {
      const { awarded } = await this.admin.post<{ awarded: number }>('badges', {
        app_id: this.appId,
        badge_id: field(form, 'badge_id'),
        name: field(form, 'badge_name'),
        description: field(form, 'description'),
        image_url: image || null,
        rule,
      });
      this.badgeOutcome = { ok: true, text: this.locale.t('badges.saved', { count: awarded }) };
    } catch (error) {
      this.badgeOutcome = this.failed(error);
    }
  }

  private async award(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    try {
      const { awarded } = await this.admin.post<{ awarded: boolean }>('award_badge', {
        app_id: this.appId,
        badge_id: field(form, 'award_badge'),
        account_name: field(form, 'award_member'),
      });
      this.awardOutcome = { ok: true, text: this.locale.t(awarded ? 'badges.awarded' : 'badges.held') };
    } catch (error) {
      this.awardOutcome = this.failed(error);
    }
  }

  override render() {
    const { t } = this.locale;
    return html`
      <h3>${t('seasons.heading')}</h3>
      ${this.seasons.view(this.locale, ({ seasons }) => this.seasonList(seasons))}
      ${this.boardOf ? this.boardView(this.boardOf) : nothing}
      ${this.seasons.state.status === 'ready' ? this.seasonForm() : nothing}
      ${this.badgeForm()} ${this.awardForm()}
    `;
  }

  private seasonList(seasons: Season[]) {
    const { t } = this.locale;
    return html`
      ${seasons.length === 0 ? html`<p class="muted">${t('console.empty')}</p>` : nothing}
      <ul class="cards">
        ${seasons.map(
          (season) => html`<li class="card">
            <h4>${season.name}</h4>
            <p>
              ${t('seasons.window', { start: this.locale.date(Date.parse(season.starts_at)), end: this.locale.date(Date.parse(season.ends_at)) })}
              · ${t(season.frozen ? 'seasons.archived' : 'seasons.open')}
            </p>
            ${
              season.rewards.length
                ? html`<p class="muted">
                  ${season.rewards
                    .map((reward) =>
                      t('seasons.rewardSummary', { from: reward.from_rank, to: reward.to_rank, badge: reward.badge_id }),
                    )
                    .join(' · ')}
                </p>`
                : nothing
            }
            <div class="row">
              <button type="button" class="secondary" aria-label=${t('challenges.editNamed', { name: season.name })} @click=${() => this.edit(season)}>
                ${t('challenges.edit')}
              </button>
              <button type="button" class="secondary" aria-label=${t('seasons.showBoardOf', { name: season.name })} @click=${() => this.showBoard(season)}>
                ${t('seasons.board')}
              </button>
            </div>
          </li>`,
        )}
      </ul>
      <button type="button" @click=${() => this.edit(null)}>${t('seasons.new')}</button>
    `;
  }

  private boardView(season: Season) {
    const { t } = this.locale;
    return html`<section class="card" aria-labelledby="board-heading">
      <h4 id="board-heading">${t('seasons.boardOf', { name: season.name })}</h4>
      ${this.board.view(
        this.locale,
        ({ leaderboard_users }) => html`<ol>
          ${leaderboard_users.map(
            (user) =>
              html`<li>${t('seasons.boardRow', { member: user.external_user.username, points: this.locale.number(user.score) })}</li>`,
          )}
        </ol>`,
        ({ leaderboard_users }) => leaderboard_users.length === 0,
      )}
    </section>`;
  }

  private seasonForm() {
    const { t } = this.locale;
    const season = this.editing;
    if (!season) return outcomeView(this.seasonOutcome);
    return html`<form @submit=${this.saveSeason}>
      <h3>${season.name ? t('challenges.editNamed', { name: season.name }) : t('seasons.new')}</h3>
      <label for="season-name">${t('challenges.name')}</label>
      <input id="season-name" name="name" required maxlength="200" .value=${season.name} />
      <label for="season-start">${t('seasons.start')}</label>
      <input id="season-start" name="starts_at" type="datetime-local" required .value=${toField(season.starts_at)} />
      <label for="season-end">${t('seasons.end')}</label>
      <input id="season-end" name="ends_at" type="datetime-local" required .value=${toField(season.ends_at)} />
      ${this.rewards.map(
        (reward, index) => html`<fieldset>
          <legend>${t('seasons.reward', { number: index + 1 })}</legend>
          <div class="row">
            <div>
              <label for=${`reward-${index}-from`}>${t('seasons.fromRank')}</label>
              <input id=${`reward-${index}-from`} name=${`reward-${index}-from`} type="number" min="1" required size="5" .value=${String(reward.from_rank)} />
            </div>
            <div>
              <label for=${`reward-${index}-to`}>${t('seasons.toRank')}</label>
              <input id=${`reward-${index}-to`} name=${`reward-${index}-to`} type="number" min="1" required size="5" .value=${String(reward.to_rank)} />
            </div>
            <div>
              <label for=${`reward-${index}-badge`}>${t('seasons.rewardBadge')}</label>
              <input id=${`reward-${index}-badge`} name=${`reward-${index}-badge`} required .value=${reward.badge_id} />
            </div>
            <button type="button" class="danger" @click=${() => (this.rewards = this.rewards.filter((_, at) => at !== index))}>
              ${t('seasons.removeReward', { number: index + 1 })}
            </button>
          </div>
        </fieldset>`,
      )}
      <div class="row">
        <button type="button" class="secondary" @click=${() => (this.rewards = [...this.rewards, { from_rank: 1, to_rank: 1, badge_id: '' }])}>
          ${t('seasons.addReward')}
        </button>
        <button type="submit">${t('seasons.save')}</button>
        <button type="button" class="secondary" @click=${() => (this.editing = null)}>${t('challenges.cancel')}</button>
      </div>
      ${outcomeView(this.seasonOutcome)}
    </form>`;
  }

  private badgeForm() {
    const { t } = this.locale;
    const needs = RULE_FIELDS[this.ruleKind];
    return html`<form @submit=${this.saveBadge}>
      <h3>${t('badges.heading')}</h3>
      <p class="muted">${t('badges.intro')}</p>
      <label for="badge-id">${t('badges.id')}</label>
      <input id="badge-id" name="badge_id" required />
      <label for="badge-name">${t('challenges.name')}</label>
      <input id="badge-name" name="badge_name" required maxlength="200" />
      <label for="badge-description">${t('challenges.description')}</label>
      <textarea id="badge-description" name="description" maxlength="2000"></textarea>
      <label for="badge-image">${t('badges.image')}</label>
      <input id="badge-image" name="image_url" type="url" />
      <label for="badge-rule">${t('badges.rule')}</label>
      <select id="badge-rule" name="kind" @change=${(event: Event) => (this.ruleKind = (event.target as HTMLSelectElement).value as RuleKind)}>
        ${Object.keys(RULE_FIELDS).map(
          (kind) =>
            html`<option value=${kind} ?selected=${kind === this.ruleKind}>${t(`badges.rule.${kind as RuleKind}`)}</option>`,
        )}
      </select>
      ${
        needs === 'at_least'
          ? html`<label for="badge-at-least">${t('badges.atLeast')}</label>
            <input id="badge-at-least" name="at_least" type="number" min="1" step="1" required />`
          : needs === 'challenge_id'
            ? html`<label for="badge-challenge">${t('badges.challenge')}</label>
              <input id="badge-challenge" name="challenge_id" required />`
            : nothing
      }
      <button type="submit">${t('badges.save')}</button>
      ${outcomeView(this.badgeOutcome)}
    </form>`;
  }

  private awardForm() {
    const { t } = this.locale;
    return html`<form @submit=${this.award}>
      <h3>${t('badges.award.heading')}</h3>
      <label for="award-badge">${t('badges.id')}</label>
      <input id="award-badge" name="award_badge" required />
      <label for="award-member">${t('reviews.member')}</label>
      <input id="award-member" name="award_member" required />
      <button type="submit">${t('badges.award.submit')}</button>
      ${outcomeView(this.awardOutcome)}
    </form>`;
  }
}

defineConsoleElement('qb-console-seasons', ConsoleSeasons);
