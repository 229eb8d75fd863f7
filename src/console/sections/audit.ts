import { html } from 'lit';
import type { AuditEntry } from '../../api/admin-responses.js';
import { state } from 'lit/decorators.js';
import { Loader, pagerView, scrollingTable } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

const PAGE_SIZE = 50;

/** Every admin action, newest first: which key (its hash's prefix), what, when, from where. */
export class ConsoleAudit extends ConsoleSection {
  private readonly entries = new Loader<{ entries: AuditEntry[] }>(this);
  /** The `before` of each page shown so far, to go back. */
  @state() private pages: (number | undefined)[] = [undefined];

  protected reload(): void {
    this.pages = [undefined];
    this.show();
  }

  private show() {
    const before = this.pages[this.pages.length - 1];
    void this.entries.load(() => this.admin.get('audit', { app_id: this.appId, before, limit: PAGE_SIZE }));
  }

  private next(entries: AuditEntry[]) {
    this.pages = [...this.pages, entries[entries.length - 1]!.at];
    this.show();
  }

  private previous() {
    this.pages = this.pages.slice(0, -1);
    this.show();
  }

  override render() {
    const { t } = this.locale;
    return this.entries.view(
      this.locale,
      ({ entries }) => html`
        ${scrollingTable(
          t('section.audit'),
          html`
          <table>
            <thead>
              <tr>
                <th scope="col">${t('audit.column.when')}</th>
                <th scope="col">${t('audit.column.what')}</th>
                <th scope="col">${t('audit.column.key')}</th>
                <th scope="col">${t('audit.column.from')}</th>
              </tr>
            </thead>
            <tbody>
              ${entries.map(
                (entry) => html`<tr>
                  <td>${this.locale.date(entry.at)}</td>
                  <td>${entry.operation}${entry.summary ? html`<br /><span class="muted long">${entry.summary}</span>` : ''}</td>
                  <td class="secret">${entry.key_prefix}</td>
                  <td>${entry.client_address ?? '—'}</td>
                </tr>`,
              )}
            </tbody>
          </table>
        `,
        )}
        ${pagerView(this.locale, {
          previous: this.pages.length === 1 ? null : () => this.previous(),
          next: entries.length < PAGE_SIZE ? null : () => this.next(entries),
        })}
      `,
      ({ entries }) => entries.length === 0 && this.pages.length === 1,
    );
  }
}

defineConsoleElement('qb-console-audit', ConsoleAudit);
