import { html, type TemplateResult } from 'lit';
import { MissingApiKeyError } from '../../client/config.js';
import { QuestboardError } from '../../client/questboard-error.js';

export function renderLoading(what: string): TemplateResult {
  return html`<p class="qb-status" role="status" part="status">Loading ${what}…</p>`;
}

/** Says that what follows is the last answer the remote gave, and how old it is. */
export function renderKept(keptAt: number | null, locale: string): TemplateResult | null {
  if (keptAt === null) return null;
  return html`<p class="qb-kept" role="status" part="kept">Offline — last updated ${timeAgo(keptAt, locale)}</p>`;
}

function timeAgo(at: number, locale: string): string {
  const seconds = Math.round((at - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  if (seconds > -60) return format.format(seconds, 'second');
  if (seconds > -3600) return format.format(Math.round(seconds / 60), 'minute');
  if (seconds > -86400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86400), 'day');
}

export function renderEmpty(text: string): TemplateResult {
  return html`<p class="qb-empty" part="empty">${text}</p>`;
}

/** A readable failure with a way to try again; `role="alert"` so screen readers hear it. */
export function renderError(what: string, error: Error, retry: () => void): TemplateResult {
  return html`<div class="qb-error" part="error">
    <p role="alert">${failureMessage(`load ${what}`, error)}</p>
    <button class="qb-button qb-button--quiet" part="retry-button" type="button" @click=${retry}>Try again</button>
  </div>`;
}

/** What every element says when `action` ("load the leaderboard", "endorse") failed. */
export function failureMessage(action: string, error: unknown): string {
  if (error instanceof MissingApiKeyError) return error.message;
  if (!(error instanceof QuestboardError)) return `Could not ${action}.`;
  if (error.kind === 'unreachable') return `Could not ${action}: the Questboard service is unreachable. Try again.`;
  return `Could not ${action}: ${error.message}`;
}
