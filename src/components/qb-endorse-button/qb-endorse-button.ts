import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { QuestboardError } from '../../client/questboard-error.js';
import { defineElement } from '../shared/define-element.js';
import { failureMessage } from '../shared/status.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { SignedInMemberController } from '../shared/signed-in-member.js';
import { tokens } from '../shared/tokens.js';
import { endorseButtonStyles } from './qb-endorse-button.styles.js';

export interface QbEndorseDetail {
  appId: string;
  from: string;
  to: string;
  endorsementId: string;
}

export type QbEndorseEvent = CustomEvent<QbEndorseDetail>;

type EndorseState = { status: 'idle' } | { status: 'pending' } | { status: 'done' } | { status: 'error'; message: string };

/** Words this element shows that the message catalog does not hold yet (the integrator moves them there). */
const MEMBER_TOKEN_STRINGS = {
  /** In place of the button while no member is signed in, unless the page fills the sign-in slot. */
  signIn: 'Sign in to endorse',
} as const;

/**
 * A button that endorses `to` on behalf of the signed-in member (the page's member token) or of
 * `from`. It is a real <button>: pending while the request runs, done after, a readable error
 * when it fails. Without `from` and without a signed-in member it shows the `sign-in` slot
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
    this.shownFor = endorsement;
  }

  /** Who endorses: `from`, or the member the page's token names (as it claims, for display only). */
  private get endorser(): string {
    if (this.from) return this.from;
    return this.member.state.status === 'signed-in' ? this.member.state.name : '';
  }

  private get ready(): boolean {
    return Boolean(this.appId && this.endorser && this.to && this.endorsementId && this.endorser !== this.to);
  }

  override render() {
    if (!this.from && this.member.state.status === 'signed-out') return this.renderSignIn();
    const status = this.endorsement.status;
    const unavailable = !this.ready;
    const label =
      status === 'pending'
        ? 'Endorsing…'
        : status === 'done'
          ? html`<span aria-hidden="true">✓ </span>Endorsed`
          : html`<slot>Endorse <bdi>${this.to}</bdi></slot>`;
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
      <span class="qb-visually-hidden" role="status">${status === 'pending' ? 'Endorsing…' : status === 'done' ? 'Endorsed' : ''}</span>
      ${this.renderMessage()}
    </span>`;
  }

  private renderSignIn() {
    return html`<span class="wrapper">
      <span class="sign-in" part="sign-in"><slot name="sign-in">${MEMBER_TOKEN_STRINGS.signIn}</slot></span>
      ${this.renderMessage()}
    </span>`;
  }

  private renderMessage() {
    return html`<span id="message" role="alert" class="message" part="message">${this.endorsement.status === 'error' ? this.endorsement.message : ''}</span>`;
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
      this.endorsement = { status: 'error', message: failureMessage('endorse', error) };
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
