import type { Seasons } from '../../api/responses.js';
import { onDemand } from '../../i18n/catalogs/en.js';
import type { Translator } from '../../i18n/messages.js';
import {
  QueryController,
  QuestboardElement,
  addEnglishWords,
  changeAffects,
  defineElement,
  html,
  nothing,
  property,
  tokens,
} from '../shared/kit.js';
import { seasonPickerStyles } from './qb-season-picker.styles.js';

addEnglishWords(onDemand);

type Season = Seasons['seasons'][number];

/**
 * Chooses which season a leaderboard shows: all time, or one of the app's seasons (under way,
 * ended or to come). It sets the `season` attribute of the `<qb-leaderboard>`, or the
 * `data-season` of the fragment container, whose id its `for` names, and emits
 * `qb-season-change`. It shows nothing for an app without seasons. Loaded on demand by the
 * script-tag embed.
 *
 * @csspart label - "Season".
 * @csspart select - The list of seasons.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown without an app-id.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 * @event {QbSeasonChangeEvent} qb-season-change - The member chose a season; `detail` is {season_id}, null for all time.
 *
 * @customElement qb-season-picker
 */
export class QbSeasonPicker extends QuestboardElement {
  static override styles = [tokens, seasonPickerStyles];

  @property({ attribute: 'app-id' }) appId = '';
  /** The id of the `<qb-leaderboard>` or fragment container it sets, in the same document or shadow root. */
  @property() for = '';
  /** The season shown: a season_id, or empty for all time. */
  @property() value = '';

  private readonly query = new QueryController<Season[]>(this, {
    args: () => (this.appId ? [this.appId, this.apiKey, this.baseUrl] : null),
    load: async (client) => (await client.getSeasons({ app_id: this.appId })).seasons,
    affectedBy: (change) => changeAffects(change, this.appId) && change.scope === 'app',
    appId: () => this.appId,
  });

  protected override renderIn(t: Translator) {
    return this.query.render(t, {
      idle: t.text('seasonPicker.idle'),
      loading: t.text('seasonPicker.loading'),
      failed: 'seasonPicker.loadFailed',
      ready: (seasons) => (seasons.length ? this.renderPicker(t, seasons) : nothing),
    });
  }

  private renderPicker(t: Translator, seasons: Season[]) {
    const now = Date.now();
    const label = (season: Season) =>
      t.text(
        season.ended
          ? 'seasonPicker.ended'
          : Date.parse(season.starts_at) > now
            ? 'seasonPicker.upcoming'
            : 'seasonPicker.underWay',
        { name: season.name },
      );
    return html`<label class="label" part="label" for="season">${t.text('seasonPicker.label')}</label>
      <select id="season" part="select" @change=${this.choose}>
        <option value="" ?selected=${this.value === ''}>${t.text('seasonPicker.allTime')}</option>
        ${seasons.map(
          (season) =>
            html`<option value=${season.season_id} ?selected=${season.season_id === this.value}>${label(season)}</option>`,
        )}
      </select>`;
  }

  private choose(event: Event) {
    this.value = (event.target as HTMLSelectElement).value;
    const root = this.getRootNode() as Document | ShadowRoot;
    const target = this.for ? root.getElementById(this.for) : null;
    if (target?.localName === 'qb-leaderboard') this.setOrRemove(target, 'season');
    else if (target?.hasAttribute('data-questboard-leaderboard')) this.setOrRemove(target, 'data-season');
    this.emit('qb-season-change', { season_id: this.value || null });
  }

  private setOrRemove(target: Element, attribute: string) {
    if (this.value) target.setAttribute(attribute, this.value);
    else target.removeAttribute(attribute);
  }
}

defineElement('qb-season-picker', QbSeasonPicker);

/** What `qb-season-change` carries: the season chosen, null for all time. */
export interface QbSeasonChangeDetail {
  season_id: string | null;
}
export type QbSeasonChangeEvent = CustomEvent<QbSeasonChangeDetail>;

declare global {
  interface HTMLElementTagNameMap {
    'qb-season-picker': QbSeasonPicker;
  }
  interface GlobalEventHandlersEventMap {
    'qb-season-change': QbSeasonChangeEvent;
  }
}
