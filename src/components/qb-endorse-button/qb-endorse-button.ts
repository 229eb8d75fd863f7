import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import type { Translator } from '../../i18n/messages.js';
import { defineElement } from '../shared/define-element.js';
import { failureMessage } from '../shared/status.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { tokens } from '../shared/tokens.js';
import { endorseButtonStyles } from './qb-endorse-button.styles.js';

export interface QbEndorseDetail {
  appId: string;
  from: string;
  to: string;
  endorsementId: string;
}

export type QbEndorseEvent = CustomEvent<QbEndorseDetail>;

type EndorseState = { status: 'idle' } | { status: 'pending' } | { status: 'done' } | { status: 'error'; error: unknown };

/**
 * A button that endorses `to` on behalf of `from`. It is a real <button>: pending while the
 * request runs, done after, a readable error when it fails.
 *
 * @slot - The button's label; "Endorse <to>" by default.
 * @event qb-endorse - After the endorsement was saved; `detail` is {appId, from, to, endorsementId}.
 * @csspart button - The button.
 * @csspart message - The error message (role="alert").
 *
 * @customElement qb-endorse-button
 */
export class QbEndorseButton extends QuestboardElement {
  static override styles = [tokens, endorseButtonStyles];

  @property({ attribute: 'app-id' }) appId = '';
  @property() from = '';
  @property() to = '';
  @property({ attribute: 'endorsement-id' }) endorsementId = '';

  @state() private endorsement: EndorseState = { status: 'idle' };

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    // Another pair or category is another endorsement, not yet given.
    if (['appId', 'from', 'to', 'endorsementId'].some((name) => changed.has(name) && changed.get(name) !== undefined)) {
      this.endorsement = { status: 'idle' };
    }
  }

  private get ready(): boolean {
    return Boolean(this.appId && this.from && this.to && this.endorsementId && this.from !== this.to);
  }

  protected override renderIn(t: Translator) {
    const endorsement = this.endorsement;
    const status = endorsement.status;
    const unavailable = !this.ready;
    const label =
      status === 'pending'
        ? t.text('endorse.pending')
        : status === 'done'
          ? html`<span aria-hidden="true">✓ </span>${t.text('endorse.done')}`
          : html`<slot>${t.parts('endorse.label', { name: html`<bdi>${this.to}</bdi>` })}</slot>`;
    return html`<span class="wrapper">
      <button
        class=${classMap({ 'qb-button': true, done: status === 'done' })}
        part="button"
        type="button"
        ?disabled=${unavailable}
        aria-disabled=${status === 'pending' || status === 'done' ? 'true' : nothing}
        aria-describedby="message"
        @click=${this.endorse}
      >
        ${label}
      </button>
      <span class="qb-visually-hidden" role="status"
        >${status === 'pending' ? t.text('endorse.pending') : status === 'done' ? t.text('endorse.done') : ''}</span
      >
      <span id="message" role="alert" class="message" part="message"
        >${endorsement.status === 'error' ? failureMessage(t, 'endorse.failed', endorsement.error) : ''}</span
      >
    </span>`;
  }

  private async endorse(): Promise<void> {
    if (!this.ready || this.endorsement.status === 'pending' || this.endorsement.status === 'done') return;
    const detail: QbEndorseDetail = { appId: this.appId, from: this.from, to: this.to, endorsementId: this.endorsementId };
    this.endorsement = { status: 'pending' };
    try {
      const client = await this.client();
      await client.endorseAccount({
        app_id: detail.appId,
        from_account: detail.from,
        to_account: detail.to,
        endorsement_id: detail.endorsementId,
      });
      this.endorsement = { status: 'done' };
      this.emit('qb-endorse', detail);
    } catch (error) {
      this.endorsement = { status: 'error', error };
    }
  }
}

defineElement('qb-endorse-button', QbEndorseButton);

declare global {
  interface HTMLElementTagNameMap {
    'qb-endorse-button': QbEndorseButton;
  }
  interface GlobalEventHandlersEventMap {
    'qb-endorse': QbEndorseEvent;
  }
}
