import { html, nothing, type TemplateResult } from 'lit';
import { MissingApiKeyError } from '../../client/config.js';
import { QuestboardError } from '../../client/questboard-error.js';
import type { MessageId, Translator } from '../../i18n/messages.js';
import { refusalText } from '../../i18n/page-catalogs.js';

/** `text`: a message's text or parts (Translator.parts). */
export function renderLoading(text: unknown): TemplateResult {
  return html`<p class="qb-status" role="status" part="status">${text}</p>`;
}

/** Says that what follows is the last answer the remote gave, and how old it is. */
export function renderKept(t: Translator, keptAt: number | null): TemplateResult | null {
  if (keptAt === null) return null;
  return html`<p class="qb-kept" role="status" part="kept">${keptNotice(t, keptAt)}</p>`;
}

/** "Offline — last updated 5 min. ago", for the elements and the embed's leaderboards alike. */
export function keptNotice(t: Translator, keptAt: number): string {
  const seconds = Math.round((keptAt - Date.now()) / 1000);
  const format = new Intl.RelativeTimeFormat([t.locale, 'en'], { numeric: 'auto', style: 'short' });
  const time =
    seconds > -60
      ? format.format(seconds, 'second')
      : seconds > -3600
        ? format.format(Math.round(seconds / 60), 'minute')
        : seconds > -86400
          ? format.format(Math.round(seconds / 3600), 'hour')
          : format.format(Math.round(seconds / 86400), 'day');
  return t.text('status.offline', { time });
}

export function renderEmpty(text: unknown): TemplateResult {
  return html`<p class="qb-empty" part="empty">${text}</p>`;
}

/** A readable failure with a way to try again; `role="alert"` so screen readers hear it. */
export function renderError(t: Translator, failed: unknown, retry: () => void): TemplateResult {
  return html`<div class="qb-error" part="error">
    <p role="alert">${failed}</p>
    <button class="qb-button qb-button--quiet" part="retry-button" type="button" @click=${retry}>
      ${t.text('status.retry')}
    </button>
  </div>`;
}

/** A failure's message without a reason; its twin `<id>Because` gives the reason. */
export type FailureId =
  | 'leaderboard.loadFailed'
  | 'leaderboard.loadMoreFailed'
  | 'userCard.loadFailed'
  | 'taskProgress.loadFailed'
  | 'challenge.loadFailed'
  | 'endorse.failed'
  | 'connectSocial.failed'
  | 'achievements.loadFailed'
  | 'seasonPicker.loadFailed'
  | 'questTask.failed';

/** The values a failure's message takes besides its reason: the member's name where it names one. */
export interface FailureValues {
  name?: unknown;
}

/**
 * Why something failed, for the member: the missing key, no answer, or the API's refusal in the
 * page's language by its code (its English message where the language has no words for it).
 */
export function failureReason(t: Translator, error: unknown): string {
  if (error instanceof MissingApiKeyError) return t.text('error.noApiKey');
  if (!(error instanceof QuestboardError)) return String(error instanceof Error ? error.message : error);
  if (error.kind === 'unreachable') return t.text('error.unreachable');
  return refusalText(t.language, error.code) ?? error.message;
}

/**
 * What an element says when something failed: the missing key, or the sentence of `id` with
 * its reason (isolated: it may sit in a right-to-left sentence), the API's English message as
 * its title where the reason is not that message.
 */
export function failureMessage(t: Translator, id: FailureId, error: unknown, values: FailureValues = {}): unknown[] {
  // Messages of both forms take the same values besides {reason}; their types cannot say so per id.
  const parts = t.parts as (id: MessageId, values: object) => unknown[];
  if (error instanceof MissingApiKeyError) return [failureReason(t, error)];
  if (!(error instanceof QuestboardError)) return parts(id, values);
  const reason = failureReason(t, error);
  const detail = reason === error.message ? nothing : error.message;
  return parts(`${id}Because`, { ...values, reason: html`<bdi title=${detail}>${reason}</bdi>` });
}
