import { html } from 'lit';
import { state } from 'lit/decorators.js';
import type { Dataset } from '../../api/schemas.js';
import { type Outcome, outcomeView, reasonOf } from '../loader.js';
import { ConsoleSection, defineConsoleElement } from '../section.js';

/** Export (a download of the app's dataset) and import (merge or replace, with a dry run first). */
export class ConsoleData extends ConsoleSection {
  @state() private exported: Outcome = null;
  @state() private imported: Outcome = null;
  @state() private busy = false;

  protected reload(): void {
    this.exported = null;
    this.imported = null;
  }

  private async download() {
    this.busy = true;
    try {
      const { is_valid: _valid, message: _message, ...dataset } = await this.admin.exportApp(this.appId);
      const file = `${this.appId}-${new Date().toISOString().slice(0, 10)}.json`;
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([JSON.stringify(dataset, null, 2)], { type: 'application/json' }));
      link.download = file;
      link.click();
      URL.revokeObjectURL(link.href);
      this.exported = { ok: true, text: this.locale.t('data.export.done', { file }) };
    } catch (error) {
      this.exported = { ok: false, text: this.locale.t('console.error', { reason: reasonOf(error) }) };
    } finally {
      this.busy = false;
    }
  }

  private async upload(event: SubmitEvent) {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const file = data.get('file');
    if (!(file instanceof File) || file.size === 0) return;
    const { t } = this.locale;
    let dataset: Dataset;
    try {
      dataset = JSON.parse(await file.text()) as Dataset;
    } catch (error) {
      this.imported = { ok: false, text: t('data.import.notJson', { reason: reasonOf(error) }) };
      return;
    }
    this.busy = true;
    try {
      const mode = data.get('mode') === 'replace' ? 'replace' : 'merge';
      const dryRun = data.get('dry-run') === 'on';
      if (dryRun) {
        const { changes } = await this.admin.dryRunImport(dataset, { mode });
        const described = changes.map((change) =>
          t(change.new_app ? 'data.import.newApp' : 'data.import.change', {
            app: change.app_id,
            before: this.locale.number(change.members_before),
            after: this.locale.number(change.members_after),
            challenges: this.locale.number(change.challenges),
            tasks: this.locale.number(change.tasks),
            progress: this.locale.number(change.progress),
          }),
        );
        this.imported = { ok: true, text: t('data.import.wouldChange', { changes: described.join(' ') }) };
      } else {
        const { app_ids } = await this.admin.importDataset(dataset, { mode });
        this.imported = { ok: true, text: t('data.import.done', { apps: app_ids.join(', ') }) };
      }
    } catch (error) {
      this.imported = { ok: false, text: t('console.error', { reason: reasonOf(error) }) };
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const { t } = this.locale;
    return html`
      <section aria-labelledby="export-heading">
        <h3 id="export-heading">${t('data.export.heading')}</h3>
        <p>${t('data.export.intro')}</p>
        <button type="button" ?disabled=${this.busy} @click=${this.download}>${t('data.export.button')}</button>
        ${outcomeView(this.exported)}
      </section>
      <section aria-labelledby="import-heading">
        <h3 id="import-heading">${t('data.import.heading')}</h3>
        <p>${t('data.import.intro')}</p>
        <form @submit=${this.upload}>
          <label for="file">${t('data.import.file')}</label>
          <input id="file" name="file" type="file" accept="application/json,.json" required />
          <fieldset>
            <legend>${t('data.import.mode')}</legend>
            <label class="inline"><input type="radio" name="mode" value="merge" checked /> ${t('data.import.merge')}</label>
            <label class="inline"><input type="radio" name="mode" value="replace" /> ${t('data.import.replace')}</label>
          </fieldset>
          <label class="inline"><input type="checkbox" name="dry-run" checked /> ${t('data.import.dryRun')}</label>
          <button type="submit" ?disabled=${this.busy}>${t('data.import.submit')}</button>
        </form>
        ${outcomeView(this.imported)}
      </section>
    `;
  }
}

defineConsoleElement('qb-console-data', ConsoleData);
