import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { QuestboardError } from '../client/questboard-error.js';
import type { ConsoleLanguage } from './translate.js';

type State<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: unknown };

/** A refusal meaning this server has no such operation (an older server), said apart from a failure. */
export const isUnavailable = (error: unknown) =>
  error instanceof QuestboardError && (error.code === 'unknown-operation' || error.status === 501);

export const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What an action of a section came to, said once it is done: null before. */
export type Outcome = { ok: boolean; text: string } | null;

/** An outcome as every section shows it: a status when it went well, an alert when not. */
export const outcomeView = (outcome: Outcome) =>
  outcome === null
    ? nothing
    : html`<p role=${outcome.ok ? 'status' : 'alert'} class=${outcome.ok ? 'success' : 'error'}>${outcome.text}</p>`;

/**
 * A table in a box of its own that scrolls sideways where the table is wider than the screen (a
 * phone's): the page itself never does. The box is focusable, so a keyboard scrolls it too, and
 * named, so a screen reader says what it holds.
 */
export const scrollingTable = (label: string, table: TemplateResult) =>
  html`<div class="table-scroll" tabindex="0" role="region" aria-label=${label}>${table}</div>`;

/** Turns a page, or null where there is none that way. */
type PageTurn = (() => void) | null;

/**
 * The buttons under a paged list, each disabled where there is no page that way; the page's
 * number between them where a section shows it.
 */
export const pagerView = (
  lang: ConsoleLanguage,
  { previous, next, page }: { previous: PageTurn; next: PageTurn; page?: number },
) =>
  html`<div class="row pager">
    <button type="button" class="secondary" ?disabled=${previous === null} @click=${() => previous?.()}>
      ${lang.t('console.previous')}
    </button>
    ${page === undefined ? nothing : html`<span>${lang.t('console.page', { page })}</span>`}
    <button type="button" class="secondary" ?disabled=${next === null} @click=${() => next?.()}>${lang.t('console.next')}</button>
  </div>`;

/**
 * What a section loads, and its four states: loading, empty, failed (with a retry) and ready.
 * A newer load replaces an older one still running, whose answer is then dropped.
 */
export class Loader<T> implements ReactiveController {
  state: State<T> = { status: 'loading' };
  private latest = 0;
  private work: (() => Promise<T>) | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  async load(work: () => Promise<T>): Promise<void> {
    this.work = work;
    const run = ++this.latest;
    this.state = { status: 'loading' };
    this.host.requestUpdate();
    try {
      const value = await work();
      if (run === this.latest) this.state = { status: 'ready', value };
    } catch (error) {
      if (run === this.latest) this.state = { status: 'error', error };
    }
    this.host.requestUpdate();
  }

  retry = () => {
    if (this.work) void this.load(this.work);
  };

  /** The state as markup: `ready` for a value, the shared markup for the others. */
  view(
    lang: ConsoleLanguage,
    ready: (value: T) => TemplateResult | typeof nothing,
    isEmpty: (value: T) => boolean = () => false,
  ): TemplateResult | typeof nothing {
    const { t } = lang;
    switch (this.state.status) {
      case 'loading':
        return html`<p role="status" class="muted">${t('console.loading')}</p>`;
      case 'error':
        if (isUnavailable(this.state.error))
          return html`<p role="status" class="notice">${t('section.unavailable', { reason: reasonOf(this.state.error) })}</p>`;
        return html`<div role="alert" class="error">
          <p>${t('console.error', { reason: reasonOf(this.state.error) })}</p>
          <button type="button" @click=${this.retry}>${t('console.retry')}</button>
        </div>`;
      case 'ready':
        return isEmpty(this.state.value) ? html`<p class="muted">${t('console.empty')}</p>` : ready(this.state.value);
    }
  }
}
