import { html, nothing } from 'lit';
import type { WebhookEndpointSummary as Endpoint } from '../../api/admin-responses.js';
import { state } from 'lit/decorators.js';
import { WEBHOOK_EVENT_TYPES } from '../../api/webhook-events.js';
import { Loader, type Outcome, outcomeView, reasonOf, scrollingTable } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

/**
 * The app's webhook endpoints: listed (never their secrets), added with a secret the server makes
 * and shows once, edited, given a new secret, removed. Part of the Webhooks section.
 */
export class ConsoleWebhookEndpoints extends ConsoleSection {
  private readonly endpoints = new Loader<{ webhooks: Endpoint[] }>(this);
  /** The endpoint the form edits; null while it adds one. */
  @state() private editing: Endpoint | null = null;
  @state() private secret: string | null = null;
  @state() private outcome: Outcome = null;

  protected reload(): void {
    this.secret = null;
    void this.endpoints.load(() => this.admin.get('webhooks', { app_id: this.appId }));
  }

  private async save(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const body = {
      app_id: this.appId,
      url: (data.get('url') as string).trim(),
      events: data.getAll('event') as string[],
      new_secret: data.get('new_secret') === 'on',
    };
    try {
      const { secret } = await this.admin.post<{ secret?: string }>('save_webhook', body);
      this.reload();
      this.secret = secret ?? null;
      this.editing = null;
      form.reset();
      this.outcome = { ok: true, text: this.locale.t('console.saved') };
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  private async removeEndpoint(url: string) {
    if (!confirm(this.locale.t('webhooks.removeConfirm', { url }))) return;
    try {
      await this.admin.post('remove_webhook', { app_id: this.appId, url });
      this.reload();
      this.outcome = { ok: true, text: this.locale.t('console.saved') };
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  private edit(endpoint: Endpoint) {
    this.editing = endpoint;
    this.outcome = null;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('#webhook-url')?.focus());
  }

  override render() {
    const { t } = this.locale;
    const editing = this.editing;
    return html`
      <h3>${t('webhooks.endpoints.heading')}</h3>
      <p class="muted">${t('webhooks.endpoints.intro')}</p>
      ${this.endpoints.view(
        this.locale,
        ({ webhooks }) =>
          html`${scrollingTable(
            t('webhooks.endpoints.heading'),
            html`
          <table>
            <thead>
              <tr>
                <th scope="col">${t('webhooks.column.url')}</th>
                <th scope="col">${t('webhooks.column.events')}</th>
                <th scope="col"><span class="muted">${t('webhooks.edit')}</span></th>
              </tr>
            </thead>
            <tbody>
              ${webhooks.map(
                (endpoint) => html`<tr>
                  <td class="long">${endpoint.url}</td>
                  <td>${endpoint.events.join(', ')}</td>
                  <td>
                    <button type="button" class="secondary" aria-label=${t('webhooks.editOne', { url: endpoint.url })}
                      @click=${() => this.edit(endpoint)}>${t('webhooks.edit')}</button>
                    <button type="button" class="danger" aria-label=${t('webhooks.removeOne', { url: endpoint.url })}
                      @click=${() => this.removeEndpoint(endpoint.url)}>${t('webhooks.remove')}</button>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>
        `,
          )}`,
        ({ webhooks }) => webhooks.length === 0,
      )}
      ${
        this.secret
          ? html`<div role="status" class="card"><p>${t('webhooks.secretShown')}</p><p class="secret">${this.secret}</p></div>`
          : nothing
      }
      <form @submit=${this.save}>
        <h3>${editing ? t('webhooks.form.edit') : t('webhooks.form.add')}</h3>
        <label for="webhook-url">${t('webhooks.form.url')}</label>
        <input id="webhook-url" name="url" type="url" required maxlength="2048" placeholder="https://" .value=${editing?.url ?? ''} />
        <fieldset>
          <legend>${t('webhooks.form.events')}</legend>
          ${WEBHOOK_EVENT_TYPES.map(
            (type) =>
              html`<label class="inline"
                ><input type="checkbox" name="event" value=${type} .checked=${editing?.events.includes(type) ?? false} /> ${type}</label
              >`,
          )}
        </fieldset>
        ${
          editing
            ? html`<label class="inline"><input type="checkbox" name="new_secret" /> ${t('webhooks.form.newSecret')}</label>`
            : nothing
        }
        <div class="row">
          <button type="submit">${t('webhooks.form.submit')}</button>
          ${
            editing
              ? html`<button type="button" class="secondary" @click=${() => (this.editing = null)}>${t('webhooks.form.cancel')}</button>`
              : nothing
          }
        </div>
      </form>
      ${outcomeView(this.outcome)}
      <h3>${t('webhooks.deliveries.heading')}</h3>
    `;
  }
}

defineConsoleElement('qb-console-webhook-endpoints', ConsoleWebhookEndpoints);
