import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { classNames } from '../shared/class-names.js';
import { QuestboardError } from '../../client/questboard-error.js';
import type { Translator } from '../../i18n/messages.js';
import { defineElement } from '../shared/define-element.js';
import { failureMessage } from '../shared/status.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { SignedInMemberController } from '../shared/signed-in-member.js';
import { tokens } from '../shared/base-styles.js';
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
 * A button that endorses `to` on behalf of the signed-in member (the page's member token) or of
 * `from`. It is a real <button>: pending while the request runs, done after (and from the start
 * when the API says the endorsement was made already), a readable error when it fails. Without `from` and without a signed-in member it shows the `sign-in` slot
 * instead, where the site puts its own sign-in link.
 *
 * @slot - The button's label; "Endorse <to>" by default.
 * @slot sign-in - Shown instead of the button while no member is signed in (no member token and
 *   no `from`): the site's sign-in link, for instance. "Sign in to endorse" by default.
 * @event {QbEndorseEvent} qb-endorse - After the endorsement was saved; `detail` is {appId, from, to, endorsementId}.
 * @csspart button - The button.
 * @csspart sign-in - What is shown instead of the button while no member is signed in.
 * @csspart message - The error message (role="alert").
 *
 * @customElement qb-endorse-button
 */
export class QbEndorseButton extends QuestboardElement {
  static override styles = [tokens, endorseButtonStyles];

  @property({ attribute: 'app-id' }) appId = '';
  /**
   * The member who endorses, for a page whose key may write for anyone (`write`). Left out, the
   * endorsement is the signed-in member's: the API takes them from the page's member token.
   */
  @property() from = '';
  @property() to = '';
  @property({ attribute: 'endorsement-id' }) endorsementId = '';

  @state() private endorsement: EndorseState = { status: 'idle' };
  private readonly member = new SignedInMemberController(this);
  /** The endorsement the state above is about: from whom, to whom, in which app and category. */
  private shownFor: string | undefined;

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    // Another pair or category, or another member signed in, is another endorsement, not yet given.
    // Signing out is not: the message that says why stays beside the sign-in slot.
    const endorsement = JSON.stringify([this.appId, this.endorser, this.to, this.endorsementId]);
    if (this.shownFor !== undefined && endorsement !== this.shownFor && this.endorser !== '') {
      this.endorsement = { status: 'idle' };
    }
    if (endorsement !== this.shownFor && this.ready) void this.showIfMade(endorsement);
    this.shownFor = endorsement;
  }

  /**
   * Asks the API whether this endorsement was made already (before a reload, or on another page),
   * and shows it done if so. A failed question leaves the button as it is: endorsing again is
   * kept once, and answered as success.
   */
  private async showIfMade(endorsement: string): Promise<void> {
    const query = { app_id: this.appId, from_account: this.endorser, to_account: this.to, endorsement_id: this.endorsementId };
    let endorsed;
    try {
      ({ endorsed } = await (await this.client()).getEndorsement(query));
    } catch {
      return;
    }
    if (endorsed && endorsement === this.shownFor && this.endorsement.status === 'idle') this.endorsement = { status: 'done' };
  }

  /** Who endorses: `from`, or the member the page's token names (as it claims, for display only). */
  private get endorser(): string {
    if (this.from) return this.from;
    return this.member.state.status === 'signed-in' ? this.member.state.name : '';
  }

  private get ready(): boolean {
    return Boolean(this.appId && this.endorser && this.to && this.endorsementId && this.endorser !== this.to);
  }

  protected override renderIn(t: Translator) {
    if (!this.from && this.member.state.status === 'signed-out') return this.renderSignIn(t);
    const status = this.endorsement.status;
    const unavailable = !this.ready;
    const label =
      status === 'pending'
        ? t.text('endorse.pending')
        : status === 'done'
          ? html`<span aria-hidden="true">✓ </span>${t.text('endorse.done')}`
          : html`<slot>${t.parts('endorse.label', { name: html`<bdi>${this.to}</bdi>` })}</slot>`;
    return html`<span class="wrapper">
      <button
        class=${classNames({ 'qb-button': true, done: status === 'done' })}
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
      ${this.renderMessage(t)}
    </span>`;
  }

  private renderSignIn(t: Translator) {
    return html`<span class="wrapper">
      <span class="sign-in" part="sign-in"><slot name="sign-in">${t.text('endorse.signIn')}</slot></span>
      ${this.renderMessage(t)}
    </span>`;
  }

  private renderMessage(t: Translator) {
    const endorsement = this.endorsement;
    return html`<span id="message" role="alert" class="message" part="message"
      >${endorsement.status === 'error' ? failureMessage(t, 'endorse.failed', endorsement.error) : ''}</span
    >`;
  }

  private async endorse(): Promise<void> {
    if (!this.ready || this.endorsement.status === 'pending' || this.endorsement.status === 'done') return;
    const detail: QbEndorseDetail = { appId: this.appId, from: this.endorser, to: this.to, endorsementId: this.endorsementId };
    this.endorsement = { status: 'pending' };
    try {
      const client = await this.client();
      await client.endorseAccount({
        app_id: detail.appId,
        // Without `from`, the API takes the member from the token: what the token claims is never sent as fact.
        ...(this.from ? { from_account: this.from } : {}),
        to_account: detail.to,
        endorsement_id: detail.endorsementId,
      });
      this.endorsement = { status: 'done' };
      this.emit('qb-endorse', detail);
    } catch (error) {
      this.endorsement = { status: 'error', error };
      if (!this.from && error instanceof QuestboardError && error.kind === 'signed-out') this.member.signedOut();
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
