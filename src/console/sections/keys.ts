import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { SCOPES } from '../../api/scopes.js';
import { Loader, type Outcome, outcomeView, reasonOf } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

interface KeyRow {
  key_id: string;
  scopes: string[];
}

/** The app's API keys: listed by id (the clear key is never kept), created (shown once), revoked. */
export class ConsoleKeys extends ConsoleSection {
  private readonly keys = new Loader<{ keys: KeyRow[] }>(this);
  @state() private created: string | null = null;
  @state() private outcome: Outcome = null;

  protected reload(): void {
    this.created = null;
    void this.keys.load(() => this.admin.get('keys', { app_id: this.appId }));
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
        ({ keys }) => html`<div class="table-scroll">
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
        </div>`,
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
    `;
  }
}

defineConsoleElement('qb-console-keys', ConsoleKeys);
