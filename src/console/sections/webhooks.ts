import { html, nothing } from 'lit';
import type { WebhookDelivery } from '../../api/admin-responses.js';
import { state } from 'lit/decorators.js';
import { Loader, type Outcome, outcomeView, reasonOf, pagerView, scrollingTable } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';
import './webhook-endpoints.js';

const PAGE_SIZE = 50;

/**
 * Webhooks: the app's endpoints (webhook-endpoints.ts), then the delivery log, newest first: each
 * delivery's attempts, its state, its next try, a redelivery.
 */
export class ConsoleWebhooks extends ConsoleSection {
  private readonly deliveries = new Loader<{ deliveries: WebhookDelivery[] }>(this);
  @state() private offset = 0;
  @state() private outcome: Outcome = null;

  protected reload(): void {
    this.offset = 0;
    this.show();
  }

  private show() {
    const offset = this.offset;
    void this.deliveries.load(() => this.admin.get('webhook_deliveries', { app_id: this.appId, offset, limit: PAGE_SIZE }));
  }

  private page(offset: number) {
    this.offset = offset;
    this.show();
  }

  private async redeliver(delivery_id: string) {
    try {
      await this.admin.post('webhook_redeliver', { app_id: this.appId, delivery_id });
      this.outcome = { ok: true, text: this.locale.t('webhooks.redelivered', { delivery: delivery_id }) };
      this.show();
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  private when(instant: string | null) {
    return instant === null ? '—' : this.locale.date(Date.parse(instant));
  }

  override render() {
    const { t } = this.locale;
    return html`
      <qb-console-webhook-endpoints .admin=${this.admin} .appId=${this.appId} .locale=${this.locale}></qb-console-webhook-endpoints>
      ${this.deliveries.view(
        this.locale,
        ({ deliveries }) => html`
          ${scrollingTable(
            t('webhooks.deliveries.heading'),
            html`
            <table>
              <thead>
                <tr>
                  <th scope="col">${t('webhooks.column.when')}</th>
                  <th scope="col">${t('webhooks.column.event')}</th>
                  <th scope="col">${t('webhooks.column.status')}</th>
                  <th scope="col">${t('webhooks.column.attempts')}</th>
                  <th scope="col">${t('webhooks.column.next')}</th>
                  <th scope="col"><span class="muted">${t('webhooks.redeliver')}</span></th>
                </tr>
              </thead>
              <tbody>
                ${deliveries.map(
                  (delivery) => html`<tr>
                    <td>${this.when(delivery.created_at)}</td>
                    <td>${delivery.type}<br /><span class="muted long">${delivery.url}</span></td>
                    <td>
                      ${t(`webhooks.status.${delivery.status}`)}
                      ${
                        delivery.last_status !== null || delivery.last_error
                          ? html`<br /><span class="muted"
                              >${t('webhooks.lastAnswer', { answer: delivery.last_error ?? String(delivery.last_status) })}</span
                            >`
                          : nothing
                      }
                    </td>
                    <td>${this.locale.number(delivery.attempts)}</td>
                    <td>${this.when(delivery.next_attempt_at)}</td>
                    <td>
                      <button
                        type="button"
                        class="secondary"
                        aria-label=${t('webhooks.redeliverOne', { event: delivery.type, when: this.when(delivery.created_at) })}
                        @click=${() => this.redeliver(delivery.delivery_id)}
                      >
                        ${t('webhooks.redeliver')}
                      </button>
                    </td>
                  </tr>`,
                )}
              </tbody>
            </table>
          `,
          )}
          ${pagerView(this.locale, {
            previous: this.offset === 0 ? null : () => this.page(Math.max(0, this.offset - PAGE_SIZE)),
            next: deliveries.length < PAGE_SIZE ? null : () => this.page(this.offset + PAGE_SIZE),
          })}
        `,
        ({ deliveries }) => deliveries.length === 0 && this.offset === 0,
      )}
      ${outcomeView(this.outcome)}
    `;
  }
}

defineConsoleElement('qb-console-webhooks', ConsoleWebhooks);
