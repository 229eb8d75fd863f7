import { html } from 'lit';
import type { AdminApps } from '../../api/admin-responses.js';
import { Loader } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

/** The community at a glance. */
export class ConsoleOverview extends ConsoleSection {
  private readonly apps = new Loader<AdminApps>(this);

  protected reload(): void {
    void this.apps.load(() => this.admin.apps());
  }

  override render() {
    const { t } = this.locale;
    return this.apps.view(this.locale, ({ apps }) => {
      const app = apps.find((candidate) => candidate.app_id === this.appId);
      return html`<dl class="card">
        <dt>${t('section.members')}</dt>
        <dd>${this.locale.number(app?.member_count ?? 0)}</dd>
      </dl>`;
    });
  }
}

defineConsoleElement('qb-console-overview', ConsoleOverview);
