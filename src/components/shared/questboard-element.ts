import { LitElement, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { clientFor, type ClientOverrides } from '../../client/config.js';
import type { QuestboardClient } from '../../client/client.js';
import type { Translator } from '../../i18n/messages.js';
import { LocaleController } from './locale.js';

/**
 * What every Questboard element shares: the per-element api-key / base-url overrides, and its
 * language (localeOf in ./locale.ts): each renders its content with that language's words.
 */
export abstract class QuestboardElement extends LitElement {
  /** Overrides the API key of Questboard.configure() for this element. */
  @property({ attribute: 'api-key' }) apiKey?: string;

  /** Overrides the base URL of Questboard.configure() for this element. */
  @property({ attribute: 'base-url' }) baseUrl?: string;

  private readonly language = new LocaleController(this);

  /** This element's overrides of the page-wide settings. */
  clientOverrides(): ClientOverrides {
    return { apiKey: this.apiKey, baseUrl: this.baseUrl };
  }

  /** The client this element talks through (shared with elements of the same settings). */
  client(): Promise<QuestboardClient> {
    return clientFor(this.clientOverrides());
  }

  /** Nothing until the element's catalog has loaded (a moment, once per page): never a flash of English. */
  protected override render(): unknown {
    const t = this.language.translator();
    return t ? this.renderIn(t) : nothing;
  }

  /** The element's content, in the words and numbers of `t`. */
  protected abstract renderIn(t: Translator): unknown;

  /**
   * Dispatches one of the elements' events, typed by its entry in GlobalEventHandlersEventMap:
   * it bubbles and crosses shadow roots, so a page hears it wherever the element sits.
   */
  protected emit<K extends keyof GlobalEventHandlersEventMap>(
    name: K,
    detail: GlobalEventHandlersEventMap[K] extends CustomEvent<infer D> ? D : never,
  ): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
}
