import { html } from 'lit';
import { state } from 'lit/decorators.js';
import type { Ledger } from '../../api/admin-responses.js';
import { Loader, pagerView, scrollingTable } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

const PAGE_SIZE = 50;

/**
 * The treasury's balance and its transfers, newest first, a page at a time. Amounts are shown as
 * the API writes them: exact decimal coins, which a number format would round.
 */
export class ConsoleLedger extends ConsoleSection {
  private readonly ledger = new Loader<Ledger>(this);
  @state() private offset = 0;

  protected reload(): void {
    this.offset = 0;
    this.show();
  }

  private show() {
    const offset = this.offset;
    void this.ledger.load(() => this.admin.ledger(this.appId, { offset, limit: PAGE_SIZE }));
  }

  private page(offset: number) {
    this.offset = offset;
    this.show();
  }

  override render() {
    return this.ledger.view(this.locale, (ledger) => html`${this.renderTreasury(ledger)} ${this.renderTransfers(ledger)}`);
  }

  private renderTreasury({ treasury }: Ledger) {
    const { t } = this.locale;
    if (treasury === null) return html`<p class="notice">${t('ledger.noTreasury')}</p>`;
    return html`<dl class="card">
      <dt>${t('ledger.account')}</dt>
      <dd class="secret">${treasury.account_id}</dd>
      <dt>${t('ledger.balance')}</dt>
      <dd id="balance">${treasury.balance}</dd>
    </dl>`;
  }

  private renderTransfers({ transfers }: Ledger) {
    const { t } = this.locale;
    if (transfers.length === 0 && this.offset === 0)
      return html`<h3>${t('ledger.transfers')}</h3>
        <p class="muted">${t('ledger.empty')}</p>`;
    return html`
      <h3>${t('ledger.transfers')}</h3>
      ${scrollingTable(
        t('ledger.transfers'),
        html`
        <table>
          <thead>
            <tr>
              <th scope="col">${t('ledger.column.when')}</th>
              <th scope="col">${t('ledger.column.to')}</th>
              <th scope="col">${t('ledger.column.amount')}</th>
              <th scope="col">${t('ledger.column.balance')}</th>
              <th scope="col">${t('ledger.column.tx')}</th>
            </tr>
          </thead>
          <tbody>
            ${transfers.map(
              (transfer) => html`<tr>
                <td>${this.locale.date(transfer.at)}</td>
                <td class="secret">${transfer.to_address}</td>
                <td>${transfer.amount}</td>
                <td>${transfer.balance}</td>
                <td class="secret">${transfer.tx_id}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      `,
      )}
      ${pagerView(this.locale, {
        previous: this.offset === 0 ? null : () => this.page(Math.max(0, this.offset - PAGE_SIZE)),
        next: transfers.length < PAGE_SIZE ? null : () => this.page(this.offset + PAGE_SIZE),
      })}
    `;
  }
}

defineConsoleElement('qb-console-ledger', ConsoleLedger);
