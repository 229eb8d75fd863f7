import { LitElement, type PropertyValues } from 'lit';
import { property } from 'lit/decorators.js';
import type { AdminClient } from '../client/admin-client.js';
import { consoleStyles } from './console-styles.js';
import type { ConsoleLanguage } from './translate.js';

/** What every section of the console is given by the shell: the signed-in client, the app shown, the language. */
export abstract class ConsoleSection extends LitElement {
  static override styles = consoleStyles;

  @property({ attribute: false }) admin!: AdminClient;
  @property({ attribute: false }) appId = '';
  @property({ attribute: false }) locale!: ConsoleLanguage;

  /** Loads what the section shows: again whenever the key or the app changes. */
  protected abstract reload(): void;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('admin') || changed.has('appId')) && this.admin && this.appId) this.reload();
  }
}

/** Defines a console element once, even when a page loads the console twice. */
export function defineConsoleElement(tag: string, element: typeof LitElement): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
