import { html, type TemplateResult } from 'lit';
import { MissingApiKeyError } from '../../client/config.js';
import { QuestboardError } from '../../client/questboard-error.js';

export function renderLoading(what: string): TemplateResult {
  return html`<p class="qb-status" role="status" part="status">Loading ${what}…</p>`;
}

export function renderEmpty(text: string): TemplateResult {
  return html`<p class="qb-empty" part="empty">${text}</p>`;
}

/** A readable failure with a way to try again; `role="alert"` so screen readers hear it. */
export function renderError(what: string, error: Error, retry: () => void): TemplateResult {
  return html`<div class="qb-error" part="error">
    <p role="alert">${describeError(what, error)}</p>
    <button class="qb-button qb-button--quiet" part="retry-button" type="button" @click=${retry}>Try again</button>
  </div>`;
}

export function describeError(what: string, error: Error): string {
  if (error instanceof MissingApiKeyError) return error.message;
  if (error instanceof QuestboardError) {
    if (error.status === 0) return `Could not load ${what}: the Questboard service is unreachable.`;
    return `Could not load ${what}: ${error.message}`;
  }
  return `Could not load ${what}.`;
}
