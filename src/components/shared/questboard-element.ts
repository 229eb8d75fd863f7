import { LitElement, nothing, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import { clientFor, type ClientOverrides } from '../../client/config.js';
import type { QuestboardClient } from '../../client/client.js';
import type { Translator } from '../../i18n/messages.js';
import type { Theme } from '../../ui/theme.js';
import { applyColorScheme, onColorSchemeChange } from './color-scheme.js';
import { LocaleController } from './locale.js';

/**
 * What every Questboard element shares: the per-element api-key / base-url overrides, its
 * language (localeOf in ./locale.ts: each renders its content with that language's words) and
 * its colour scheme.
 *
 * @cssprop --qb-color-surface - Background of the element.
 * @cssprop --qb-color-surface-alt - Background of striped rows, disabled buttons and the offline notice.
 * @cssprop --qb-color-text - Text color.
 * @cssprop --qb-color-text-muted - Color of secondary text.
 * @cssprop --qb-color-border - Color of borders.
 * @cssprop --qb-color-accent - Color of buttons, bars and the highlighted row's mark.
 * @cssprop --qb-color-on-accent - Text color on the accent color.
 * @cssprop --qb-color-success - Color of completed tasks and saved messages.
 * @cssprop --qb-color-danger - Color of errors.
 * @cssprop --qb-color-focus - Color of the focus ring.
 * @cssprop --qb-color-track - Color of a progress bar's empty track.
 * @cssprop --qb-color-highlight - Background of the highlighted leaderboard row.
 * @cssprop --qb-radius - Corner radius of cards and buttons (default 8px).
 * @cssprop --qb-space - The spacing unit every padding and gap derives from (default 0.8 × --qb-font-size).
 * @cssprop --qb-duration - Length of transitions (default 200ms; none under prefers-reduced-motion).
 * @cssprop --qb-font-family - Font family (default system-ui, sans-serif).
 * @cssprop --qb-font-size - Text size every size derives from (default 15px: not tied to the page's root font size).
 * @cssprop --qb-stack-gap - Space below an element that has a next sibling (default --qb-space; the endorse button has none).
 */
export abstract class QuestboardElement extends LitElement {
  /** Overrides the API key of Questboard.configure() for this element. */
  @property({ attribute: 'api-key' }) apiKey?: string;

  /** Overrides the base URL of Questboard.configure() for this element. */
  @property({ attribute: 'base-url' }) baseUrl?: string;

  /**
   * The colour scheme: `light`, `dark`, or `auto` (the default) for Questboard.configure()'s
   * theme, else the `color-scheme` of the page around the element where it names one, else the OS's.
   */
  @property() theme: Theme = 'auto';

  private stopFollowingColorScheme = () => {};

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

  override connectedCallback(): void {
    super.connectedCallback();
    this.stopFollowingColorScheme = onColorSchemeChange(() => this.applyColorScheme());
    this.applyColorScheme();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopFollowingColorScheme();
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('theme')) this.applyColorScheme();
  }

  private applyColorScheme(): void {
    if (!this.isConnected) return;
    // The page around the element: its parent, or the host of the shadow root it sits in.
    const root = this.getRootNode();
    const context = this.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
    applyColorScheme(this, this.theme, context);
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
