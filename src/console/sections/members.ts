import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { Loader, type Outcome, outcomeView, reasonOf, pagerView, scrollingTable } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

const PAGE_SIZE = 20;

interface MemberRow {
  account_name: string;
  total_score: number;
  current_xp: number;
  is_active: boolean;
}

interface MemberPage {
  members: MemberRow[];
}

interface MemberProfile {
  member: MemberRow & Record<string, unknown>;
  logs?: { task_id: string; quantity: number; at: number | string; reason?: string | null }[];
}

/** Members by name prefix, paged; a member's profile, an adjustment with a reason, (de)activation. */
export class ConsoleMembers extends ConsoleSection {
  private readonly list = new Loader<MemberPage>(this);
  private readonly profile = new Loader<MemberProfile>(this);
  @state() private namePrefix = '';
  @state() private offset = 0;
  @state() private open: string | null = null;
  @state() private outcome: Outcome = null;

  protected reload(): void {
    this.open = null;
    this.offset = 0;
    this.search();
  }

  private search() {
    const query = { app_id: this.appId, prefix: this.namePrefix, offset: this.offset, limit: PAGE_SIZE };
    void this.list.load(() => this.admin.get<MemberPage>('members', query));
  }

  private submitSearch(event: SubmitEvent) {
    event.preventDefault();
    this.namePrefix = (new FormData(event.target as HTMLFormElement).get('prefix') as string).trim();
    this.offset = 0;
    this.search();
  }

  private page(step: number) {
    this.offset = Math.max(0, this.offset + step * PAGE_SIZE);
    this.search();
  }

  private openMember(account_name: string) {
    this.open = account_name;
    void this.profile.load(() => this.admin.get<MemberProfile>('member', { app_id: this.appId, account_name }));
  }

  private async adjust(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => (form.get(name) as string).trim();
    await this.act(() =>
      this.admin.post('adjust', {
        app_id: this.appId,
        account_name: this.open,
        task_id: text('task_id'),
        quantity: Number(text('quantity')),
        reason: text('reason'),
      }),
    );
  }

  private async setActive(active: boolean) {
    await this.act(() => this.admin.post('set_active', { app_id: this.appId, account_name: this.open, active }));
  }

  private async act(work: () => Promise<unknown>) {
    try {
      await work();
      this.outcome = { ok: true, text: this.locale.t('console.saved') };
      if (this.open) this.openMember(this.open);
    } catch (error) {
      this.outcome = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    }
  }

  override render() {
    return this.open === null ? this.renderList() : this.renderProfile(this.open);
  }

  private renderList() {
    const { t } = this.locale;
    return html`
      <form role="search" @submit=${this.submitSearch}>
        <label for="prefix">${t('members.search')}</label>
        <div class="row">
          <input id="prefix" name="prefix" type="search" .value=${this.namePrefix} autocomplete="off" />
          <button type="submit">${t('members.searchButton')}</button>
        </div>
      </form>
      ${this.list.view(
        this.locale,
        ({ members }) => html`
          ${scrollingTable(
            t('section.members'),
            html`
            <table>
              <thead>
                <tr>
                  <th scope="col">${t('members.column.name')}</th>
                  <th scope="col">${t('members.column.score')}</th>
                  <th scope="col">${t('members.column.xp')}</th>
                  <th scope="col">${t('members.column.active')}</th>
                </tr>
              </thead>
              <tbody>
                ${members.map(
                  (member) => html`<tr>
                    <td>
                      <button
                        type="button"
                        class="secondary"
                        aria-label=${t('members.open', { name: member.account_name })}
                        @click=${() => {
                          this.outcome = null;
                          this.openMember(member.account_name);
                        }}
                      >
                        <bdi>${member.account_name}</bdi>
                      </button>
                    </td>
                    <td>${this.locale.number(member.total_score)}</td>
                    <td>${this.locale.number(member.current_xp)}</td>
                    <td>${member.is_active ? t('members.yes') : t('members.no')}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          `,
          )}
          ${pagerView(this.locale, {
            previous: this.offset === 0 ? null : () => this.page(-1),
            page: this.offset / PAGE_SIZE + 1,
            next: members.length < PAGE_SIZE ? null : () => this.page(1),
          })}
        `,
        ({ members }) => members.length === 0 && this.offset === 0,
      )}
    `;
  }

  private renderProfile(account_name: string) {
    const { t } = this.locale;
    return html`
      <button type="button" class="secondary" @click=${() => (this.open = null)}>${t('members.close')}</button>
      <h3>${t('members.profile', { name: account_name })}</h3>
      ${this.profile.view(
        this.locale,
        ({ member, logs = [] }) => html`
          <dl class="card">
            <dt>${t('members.column.score')}</dt>
            <dd>${this.locale.number(member.total_score)}</dd>
            <dt>${t('members.column.xp')}</dt>
            <dd>${this.locale.number(member.current_xp)}</dd>
            <dt>${t('members.column.active')}</dt>
            <dd>${member.is_active ? t('members.yes') : t('members.no')}</dd>
          </dl>
          <button type="button" class="danger" @click=${() => this.setActive(!member.is_active)}>
            ${member.is_active ? t('members.deactivate') : t('members.activate')}
          </button>
          ${
            logs.length
              ? html`<ul>
                ${logs.map(
                  (log) =>
                    html`<li>${log.task_id}: ${log.quantity} (${String(log.at)})${log.reason ? ` — ${log.reason}` : ''}</li>`,
                )}
              </ul>`
              : nothing
          }
          <form @submit=${this.adjust}>
            <h4>${t('members.adjust.heading')}</h4>
            <label for="task">${t('members.adjust.task')}</label>
            <input id="task" name="task_id" required autocomplete="off" />
            <label for="quantity">${t('members.adjust.quantity')}</label>
            <input id="quantity" name="quantity" type="number" step="any" required />
            <label for="reason">${t('members.adjust.reason')}</label>
            <input id="reason" name="reason" required />
            <button type="submit">${t('members.adjust.submit')}</button>
          </form>
          ${outcomeView(this.outcome)}
        `,
      )}
    `;
  }
}

defineConsoleElement('qb-console-members', ConsoleMembers);
