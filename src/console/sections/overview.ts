import { css, html, svg } from 'lit';
import type { AdminStats } from '../../api/admin-responses.js';
import { consoleStyles } from '../console-styles.js';
import { Loader } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

/** The chart's drawing units: one bar and its gap a day, scaled to the width it is given. */
const BAR = 8;
const GAP = 2;
const HEIGHT = 80;

/**
 * The community at a glance (GET /v1/admin/stats): its members, those active this week, the
 * review queue, completions per day over 30 days as a bar chart, and the tasks completed most.
 */
export class ConsoleOverview extends ConsoleSection {
  static override styles = css`
    ${consoleStyles}
    .stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(9em, 1fr)); gap: 0.6em; margin: 0 0 1em; }
    .stats div { background: var(--surface); border-radius: 8px; padding: 0.6em 0.8em; min-width: 0; }
    .stats dt { color: var(--muted); }
    .stats dd { margin: 0; font-size: 1.6em; font-weight: 600; }
    .stats dd.link { font-size: 1em; font-weight: 400; }
    figure { margin: 0 0 1em; max-width: 40em; }
    svg { display: block; width: 100%; height: auto; }
    .bar { fill: var(--accent); }
    .baseline { stroke: var(--line); }
    .ends { display: flex; justify-content: space-between; gap: 1em; color: var(--muted); font-size: 0.9em; }
    .visually-hidden {
      position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
      overflow: hidden; clip-path: inset(50%); white-space: nowrap;
    }
  `;
  private readonly stats = new Loader<AdminStats>(this);

  protected reload(): void {
    void this.stats.load(() => this.admin.stats(this.appId));
  }

  /** A day (YYYY-MM-DD, the app's) as the language writes it, in the zone the text is in (UTC). */
  private day(text: string): string {
    return new Intl.DateTimeFormat(this.locale.language, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
      Date.parse(text),
    );
  }

  override render() {
    const { t, number } = this.locale;
    return this.stats.view(this.locale, (stats) => {
      const pending = stats.pending_reviews_capped
        ? t('overview.pendingMore', { count: number(stats.pending_reviews) })
        : number(stats.pending_reviews);
      return html`<dl class="stats">
          <div><dt>${t('section.members')}</dt><dd>${number(stats.member_count)}</dd></div>
          <div><dt>${t('overview.active')}</dt><dd>${number(stats.active_members_7d)}</dd></div>
          <div>
            <dt>${t('overview.pending')}</dt>
            <dd>${pending}</dd>
            <dd class="link"><a href="#reviews">${t('overview.openReviews')}</a></dd>
          </div>
        </dl>
        ${this.chart(stats)} ${this.topTasks(stats)}`;
    });
  }

  private chart({ completions_by_day: days }: AdminStats) {
    const { t, number } = this.locale;
    const total = days.reduce((sum, day) => sum + day.completions, 0);
    const busiest = days.reduce((most, day) => (day.completions > most.completions ? day : most), days[0]!);
    const first = this.day(days[0]!.day);
    const last = this.day(days[days.length - 1]!.day);
    const summary =
      total === 0
        ? t('overview.chart.none', { from: first, to: last })
        : t('overview.chart.summary', {
            total: number(total),
            from: first,
            to: last,
            day: this.day(busiest.day),
            most: number(busiest.completions),
          });
    const width = days.length * (BAR + GAP);
    const scale = HEIGHT / Math.max(1, busiest.completions);
    return html`<h3>${t('overview.chart.heading')}</h3>
      <figure>
      <svg viewBox="0 0 ${width} ${HEIGHT + 1}" role="img" aria-label=${summary}>
        ${days.map(({ day, completions }, index) => {
          const height = completions * scale;
          return svg`<rect class="bar" x=${index * (BAR + GAP)} y=${HEIGHT - height} width=${BAR} height=${height}>
            <title>${this.day(day)}: ${number(completions)}</title>
          </rect>`;
        })}
        <line class="baseline" x1="0" y1=${HEIGHT + 0.5} x2=${width} y2=${HEIGHT + 0.5}></line>
      </svg>
      <div class="ends" aria-hidden="true"><span>${first}</span><span>${last}</span></div>
      <div class="visually-hidden">
      <table>
        <caption>${t('overview.chart.heading')}</caption>
        <thead>
          <tr><th scope="col">${t('overview.chart.day')}</th><th scope="col">${t('overview.chart.completions')}</th></tr>
        </thead>
        <tbody>
          ${days.map(({ day, completions }) => html`<tr><th scope="row">${this.day(day)}</th><td>${number(completions)}</td></tr>`)}
        </tbody>
      </table>
      </div>
    </figure>`;
  }

  private topTasks({ top_tasks }: AdminStats) {
    const { t, number } = this.locale;
    return html`<h3>${t('overview.topTasks')}</h3>
      ${
        top_tasks.length === 0
          ? html`<p class="muted">${t('overview.noCompletions')}</p>`
          : html`<ol class="top-tasks">
            ${top_tasks.map(
              (task) => html`<li>${t('overview.topTask', { name: task.name, count: number(task.completions) })}</li>`,
            )}
          </ol>`
      }`;
  }
}

defineConsoleElement('qb-console-overview', ConsoleOverview);
