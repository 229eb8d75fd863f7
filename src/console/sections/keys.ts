import { css, html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import type { MemberTokenKeys } from '../../api/admin-responses.js';
import type { MemberTokenKey } from '../../api/schemas.js';
import { SCOPES } from '../../api/scopes.js';
import { Loader, type Outcome, outcomeView, reasonOf, scrollingTable } from '../loader.js';
import { consoleStyles } from '../console-styles.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

interface KeyRow {
  key_id: string;
  scopes: string[];
}

/**
 * The app's API keys: listed by id (the clear key is never kept), created (shown once), revoked.
 * And the public keys its member tokens are verified with: listed by kid, added from a pasted
 * JWK (the API says what a refused one lacks), removed; rotating is adding, then removing.
 */
export class ConsoleKeys extends ConsoleSection {
  // A JWK's JSON is long: its field takes the form's one column, no wider than the screen.
  static override styles = css`
    ${consoleStyles}
    #add-token-key { grid-template-columns: minmax(0, 40em); }
    #jwk { width: 100%; }
  `;

  private readonly keys = new Loader<{ keys: KeyRow[] }>(this);
  private readonly tokenKeys = new Loader<MemberTokenKeys>(this);
  @state() private created: string | null = null;
  @state() private outcome: Outcome = null;
  @state() private tokenOutcome: Outcome = null;

  protected reload(): void {
    this.created = null;
    void this.keys.load(() => this.admin.get('keys', { app_id: this.appId }));
    this.reloadTokenKeys();
  }

  private reloadTokenKeys() {
    void this.tokenKeys.load(() => this.admin.memberTokenKeys(this.appId));
  }

  private async addTokenKey(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const { t } = this.locale;
    let key: MemberTokenKey;
    try {
      key = JSON.parse((form.elements.namedItem('jwk') as HTMLTextAreaElement).value) as MemberTokenKey;
    } catch (error) {
      this.tokenOutcome = { ok: false, text: t('keys.tokens.notJson', { reason: reasonOf(error) }) };
      return;
    }
    try {
      await this.admin.addMemberTokenKey(this.appId, key);
      form.reset();
      this.tokenOutcome = { ok: true, text: t('keys.tokens.added', { kid: key.kid }) };
      this.reloadTokenKeys();
    } catch (error) {
      this.tokenOutcome = { ok: false, text: t('keys.tokens.refused', { reason: reasonOf(error) }) };
    }
  }

  private async removeTokenKey(kid: string) {
    const { t } = this.locale;
    if (!confirm(t('keys.tokens.removeConfirm', { kid }))) return;
    try {
      await this.admin.removeMemberTokenKey(this.appId, kid);
      this.tokenOutcome = { ok: true, text: t('keys.tokens.removed', { kid }) };
      this.reloadTokenKeys();
    } catch (error) {
      this.tokenOutcome = { ok: false, text: t('console.error', { reason: reasonOf(error) }) };
    }
  }

  private async create(event: SubmitEvent) {
    event.preventDefault();
    const scopes = new FormData(event.target as HTMLFormElement).getAll('scope').map(String);
    try {
      const { key } = await this.admin.post<{ key: string }>('create_key', { app_id: this.appId, scopes });
      this.reload();
      this.created = key;
      this.outcome = null;
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  private async revoke(key_id: string) {
    if (!confirm(this.locale.t('keys.revokeConfirm', { key: key_id }))) return;
    try {
      await this.admin.post('revoke_key', { app_id: this.appId, key_id });
      this.reload();
      this.outcome = { ok: true, text: this.locale.t('console.saved') };
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  override render() {
    const { t } = this.locale;
    return html`
      <h3>${t('keys.heading')}</h3>
      ${this.keys.view(
        this.locale,
        ({ keys }) =>
          html`${scrollingTable(
            t('keys.heading'),
            html`
          <table>
            <thead>
              <tr>
                <th scope="col">${t('keys.column.key')}</th>
                <th scope="col">${t('keys.column.scopes')}</th>
                <th scope="col"><span class="muted">${t('keys.revoke')}</span></th>
              </tr>
            </thead>
            <tbody>
              ${keys.map(
                (key) => html`<tr>
                  <td class="secret">${key.key_id}</td>
                  <td>${key.scopes.join(', ')}</td>
                  <td><button type="button" class="danger" @click=${() => this.revoke(key.key_id)}>${t('keys.revoke')}</button></td>
                </tr>`,
              )}
            </tbody>
          </table>
        `,
          )}`,
        ({ keys }) => keys.length === 0,
      )}
      ${
        this.created
          ? html`<div role="status" class="card"><p>${t('keys.created')}</p><p class="secret">${this.created}</p></div>`
          : nothing
      }
      <form @submit=${this.create}>
        <h3>${t('keys.create.heading')}</h3>
        <fieldset>
          <legend>${t('keys.create.scopes')}</legend>
          ${SCOPES.map(
            (scope) =>
              html`<label class="inline"><input type="checkbox" name="scope" value=${scope} ?checked=${scope === 'read'} /> ${scope}</label>`,
          )}
        </fieldset>
        <button type="submit">${t('keys.create.submit')}</button>
      </form>
      ${outcomeView(this.outcome)}
      ${this.renderTokenKeys()}
    `;
  }

  private renderTokenKeys() {
    const { t } = this.locale;
    return html`
      <h3>${t('keys.tokens.heading')}</h3>
      <p id="token-keys-help" class="muted">${t('keys.tokens.help')}</p>
      ${this.tokenKeys.view(
        this.locale,
        ({ keys }) =>
          html`${scrollingTable(
            t('keys.tokens.heading'),
            html`
          <table>
            <thead>
              <tr>
                <th scope="col">${t('keys.tokens.column.kid')}</th>
                <th scope="col">${t('keys.tokens.column.alg')}</th>
                <th scope="col"><span class="muted">${t('keys.tokens.remove')}</span></th>
              </tr>
            </thead>
            <tbody>
              ${keys.map(
                (key) => html`<tr>
                  <td class="secret">${key.kid}</td>
                  <td>${key.alg} (${key.crv})</td>
                  <td>
                    <button
                      type="button"
                      class="danger"
                      aria-label=${t('keys.tokens.removeNamed', { kid: key.kid })}
                      @click=${() => this.removeTokenKey(key.kid)}
                    >
                      ${t('keys.tokens.remove')}
                    </button>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        `,
          )}`,
        ({ keys }) => keys.length === 0,
      )}
      <form id="add-token-key" @submit=${this.addTokenKey}>
        <label for="jwk">${t('keys.tokens.add.jwk')}</label>
        <textarea
          id="jwk"
          name="jwk"
          rows="6"
          required
          spellcheck="false"
          aria-describedby="token-keys-help"
          aria-invalid=${this.tokenOutcome?.ok === false ? 'true' : 'false'}
        ></textarea>
        <button type="submit">${t('keys.tokens.add.submit')}</button>
      </form>
      ${outcomeView(this.tokenOutcome)}
    `;
  }
}

defineConsoleElement('qb-console-keys', ConsoleKeys);
