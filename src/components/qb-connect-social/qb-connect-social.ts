// Loaded on demand (src/components/shared/lazy-elements.ts): values come from the kit alone.
import { X_HANDLE } from '../../api/formats.js';
import { onDemand } from '../../i18n/catalogs/en.js';
import type { Translator } from '../../i18n/messages.js';
import {
  addEnglishWords,
  QuestboardElement,
  QuestboardError,
  SignedInMemberController,
  cardHost,
  classNames,
  defineElement,
  failureMessage,
  html,
  nothing,
  property,
  state,
  tokens,
} from '../shared/kit.js';
import { connectSocialStyles } from './qb-connect-social.styles.js';

addEnglishWords(onDemand);

export interface QbConnectSocialDetail {
  appId: string;
  accountName: string;
  /** The saved handle, without a leading @. */
  twitterName: string;
}

export type QbConnectSocialEvent = CustomEvent<QbConnectSocialDetail>;

type SaveState =
  | { status: 'editing' }
  | { status: 'invalid'; problem: HandleProblem }
  | { status: 'saving' }
  | { status: 'saved'; twitterName: string }
  | { status: 'error'; error: unknown };

/** What can be wrong with a handle, as the id of the message that says so. */
type HandleProblem = 'connectSocial.empty' | 'connectSocial.tooLong' | 'connectSocial.badCharacters';

/** The longest X handle (X_HANDLE says the same). */
const MAX_HANDLE_LENGTH = 15;

/** Why `handle` (a leading @ already dropped) is not an X/Twitter handle, or null when it is one. */
function handleProblem(handle: string): HandleProblem | null {
  if (handle === '') return 'connectSocial.empty';
  if (handle.length > MAX_HANDLE_LENGTH) return 'connectSocial.tooLong';
  if (handle.startsWith('@') || !X_HANDLE.test(handle)) return 'connectSocial.badCharacters';
  return null;
}

/**
 * A small form that saves the member's X (Twitter) handle: the signed-in member's (the page's
 * member token), or `account-name`'s. Without either it shows the `sign-in` slot instead.
 *
 * @slot sign-in - Shown instead of the form while no member is signed in (no member token and no
 *   `account-name`): the site's sign-in link, for instance. "Sign in to connect your X account." by default.
 * @event {QbConnectSocialEvent} qb-connect-social - After the handle was saved; `detail` is {appId, accountName, twitterName}.
 * @csspart form - The form.
 * @csspart label - The field's label.
 * @csspart input - The text field.
 * @csspart button - The save button.
 * @csspart message - The validation, error or success message.
 * @csspart empty - Shown without app-id or account-name.
 * @cssprop --qb-connect-social-input-width - Width of the text field.
 *
 * @customElement qb-connect-social
 */
export class QbConnectSocial extends QuestboardElement {
  static override styles = [tokens, cardHost, connectSocialStyles];

  @property({ attribute: 'app-id' }) appId = '';
  /**
   * The member whose handle is saved, for a page whose key may write for anyone (`write`). Left
   * out, it is the signed-in member's: the API takes them from the page's member token.
   */
  @property({ attribute: 'account-name' }) accountName = '';

  @state() private save: SaveState = { status: 'editing' };
  private readonly member = new SignedInMemberController(this);

  /** Whose handle is saved: `account-name`, or the member the page's token names (as it claims, for display only). */
  private get owner(): string {
    if (this.accountName) return this.accountName;
    return this.member.state.status === 'signed-in' ? this.member.state.name : '';
  }

  protected override renderIn(t: Translator) {
    if (!this.appId || !this.owner) {
      return html`<p class="qb-empty" part="empty"><slot name="sign-in">${t.text('connectSocial.signIn')}</slot></p>`;
    }
    const save = this.save;
    const problem = save.status === 'invalid' || save.status === 'error';
    const message =
      save.status === 'invalid'
        ? t.text(save.problem, { count: MAX_HANDLE_LENGTH })
        : save.status === 'error'
          ? failureMessage(t, 'connectSocial.failed', save.error)
          : save.status === 'saved'
            ? t.parts('connectSocial.saved', { handle: html`<bdi>@${save.twitterName}</bdi>` })
            : save.status === 'saving'
              ? t.text('connectSocial.saving')
              : '';
    return html`<form part="form" novalidate @submit=${this.submit} aria-busy=${save.status === 'saving' ? 'true' : 'false'}>
      <label part="label" for="handle">${t.text('connectSocial.label')}</label>
      <p class="hint" id="hint">${t.text('connectSocial.hint', { max: MAX_HANDLE_LENGTH })}</p>
      <div class="row">
        <!-- A handle is Latin letters and digits: "@" and the handle read left to right on any page. -->
        <span class=${classNames({ field: true, invalid: save.status === 'invalid' })} dir="ltr">
          <span class="at" aria-hidden="true">@</span>
          <input
            id="handle"
            part="input"
            name="twitter_name"
            autocomplete="username"
            spellcheck="false"
            autocapitalize="off"
            maxlength="16"
            aria-invalid=${save.status === 'invalid' ? 'true' : 'false'}
            aria-describedby="hint message"
            aria-errormessage=${save.status === 'invalid' ? 'message' : nothing}
            @input=${this.edited}
          />
        </span>
        <button class="qb-button" part="button" type="submit" aria-disabled=${save.status === 'saving' ? 'true' : 'false'}>
          ${save.status === 'saving' ? t.text('connectSocial.saving') : t.text('connectSocial.save')}
        </button>
      </div>
      <p
        id="message"
        part="message"
        class=${classNames({ message: true, error: problem, saved: save.status === 'saved' })}
        role=${problem ? 'alert' : 'status'}
      >${message}</p>
    </form>`;
  }

  private edited(): void {
    if (this.save.status !== 'saving') this.save = { status: 'editing' };
  }

  private async submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.save.status === 'saving') return;
    const input = this.renderRoot.querySelector('input')!;
    const twitterName = input.value.trim().replace(/^@/, '');
    const problem = handleProblem(twitterName);
    if (problem) {
      this.save = { status: 'invalid', problem };
      input.focus();
      return;
    }
    const detail: QbConnectSocialDetail = { appId: this.appId, accountName: this.owner, twitterName };
    this.save = { status: 'saving' };
    try {
      const client = await this.client();
      await client.connectSocial({
        app_id: detail.appId,
        // Without `account-name`, the API takes the member from the token: what the token claims is never sent as fact.
        ...(this.accountName ? { account_name: this.accountName } : {}),
        twitter_name: twitterName,
      });
      this.save = { status: 'saved', twitterName };
      this.emit('qb-connect-social', detail);
    } catch (error) {
      this.save = { status: 'error', error };
      if (!this.accountName && error instanceof QuestboardError && error.kind === 'signed-out') this.member.signedOut();
    }
  }
}

defineElement('qb-connect-social', QbConnectSocial);

declare global {
  interface HTMLElementTagNameMap {
    'qb-connect-social': QbConnectSocial;
  }
  interface GlobalEventHandlersEventMap {
    'qb-connect-social': QbConnectSocialEvent;
  }
}
