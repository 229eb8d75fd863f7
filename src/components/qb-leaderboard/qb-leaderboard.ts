import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { Leaderboard, LeaderboardEntry } from '../../api/responses.js';
import type { QuestboardClient } from '../../client/client.js';
import { changeAffects } from '../../client/changes.js';
import { QuestboardError } from '../../client/questboard-error.js';
import { textDirection } from '../../i18n/languages.js';
import type { Translator } from '../../i18n/messages.js';
import {
  columnHeader,
  isLeaderboardType,
  leaderboardCaption,
  leaderboardClass,
  leaderboardColumns,
  leaderboardSummary,
  type LeaderboardColumn,
  type LeaderboardType,
} from '../../ui/leaderboard-model.js';
import { defineElement } from '../shared/define-element.js';
import { QueryController } from '../shared/query-controller.js';
import { QuestboardElement } from '../shared/questboard-element.js';
import { failureMessage } from '../shared/status.js';
import { cardHost, tokens } from '../shared/base-styles.js';
import { leaderboardStyles } from './qb-leaderboard.styles.js';

interface LoadedBoard {
  entries: LeaderboardEntry[];
  totalUsers: number;
  /** The highlighted member's own entry, for when they are not among `entries`. */
  highlighted: LeaderboardEntry | null;
}

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

/**
 * An app's leaderboard: rank, member, score, XP, challenge and task counts, with "Load more"
 * paging. `highlight` marks the current member's row, and shows it below the list while they
 * are outside it. The table is the same markup and CSS as the HTML fragment.
 *
 * @csspart base - The leaderboard's box.
 * @csspart table - The table.
 * @csspart row - Each member's row.
 * @csspart highlighted-row - The highlighted member's row.
 * @csspart summary - "Showing 1–10 of 250 members".
 * @csspart load-more - The "Load more" button.
 * @csspart status - The loading message.
 * @csspart kept - "Offline — last updated …", above data the remote gave earlier.
 * @csspart empty - Shown without an app-id.
 * @csspart error - The error message.
 * @csspart retry-button - "Try again" in the error state.
 *
 * @customElement qb-leaderboard
 */
export class QbLeaderboard extends QuestboardElement {
  static override styles = [tokens, cardHost, ...leaderboardStyles];

  @property({ attribute: 'app-id' }) appId = '';
  /** The leaderboard_type: score (default), xp, weekly or monthly. */
  @property() type = 'score';
  /** Members per page. */
  @property({ type: Number }) limit = DEFAULT_LIMIT;
  /** Account name of the current member. */
  @property() highlight = '';
  /** A season's season_id: that season's board (points earned in its window) instead of `type`'s. */
  @property() season = '';

  @state() private loadingMore = false;
  /** Why "Load more" failed, until it is pressed again. */
  @state() private loadMoreError: { error: unknown } | null = null;

  private readonly query = new QueryController<LoadedBoard>(this, {
    args: () =>
      this.appId ? [this.appId, this.type, this.season, this.pageSize, this.highlight, this.apiKey, this.baseUrl] : null,
    load: (client) => this.loadBoard(client),
    // Any member's new points can reorder the board.
    affectedBy: (change) => changeAffects(change, this.appId),
    appId: () => this.appId,
  });

  private get pageSize(): number {
    return Number.isInteger(this.limit) && this.limit > 0 ? Math.min(this.limit, MAX_LIMIT) : DEFAULT_LIMIT;
  }

  private get leaderboardType(): LeaderboardType {
    return isLeaderboardType(this.type) ? this.type : 'score';
  }

  /** Which board: the app's, of `type` or of `season`. */
  private board() {
    return {
      app_id: this.appId,
      leaderboard_type: this.type as LeaderboardType,
      ...(this.season ? { season: this.season } : {}),
    };
  }

  private async loadBoard(client: QuestboardClient): Promise<LoadedBoard> {
    const current = this.query.state;
    // A refresh reloads every row already shown, in one request.
    const shown = current.status === 'ready' ? current.value.entries.length : 0;
    const board = await client.getLeaderboard({
      ...this.board(),
      limit: Math.min(Math.max(shown, this.pageSize), MAX_LIMIT),
      offset: 0,
    });
    return {
      entries: board.leaderboard_users,
      totalUsers: board.total_users,
      highlighted: await this.loadHighlighted(client, board),
    };
  }

  private async loadHighlighted(client: QuestboardClient, board: Leaderboard): Promise<LeaderboardEntry | null> {
    const name = this.highlight;
    if (!name || board.leaderboard_users.some((entry) => entry.external_user.username === name)) return null;
    try {
      const around = await client.getLeaderboard({
        ...this.board(),
        around: name,
        limit: 1,
      });
      return around.leaderboard_users.find((entry) => entry.external_user.username === name) ?? null;
    } catch (error) {
      // A member not on the board yet has no row to show.
      if (error instanceof QuestboardError && (error.status === 404 || error.status === 400)) return null;
      throw error;
    }
  }

  private async loadMore(): Promise<void> {
    const current = this.query.state;
    if (current.status !== 'ready' || this.loadingMore) return;
    this.loadingMore = true;
    this.loadMoreError = null;
    try {
      const client = await this.client();
      const page = await client.getLeaderboard({
        ...this.board(),
        limit: this.pageSize,
        offset: current.value.entries.length,
      });
      const latest = this.query.state;
      if (latest.status === 'ready') {
        this.query.replaceValue({
          ...latest.value,
          entries: [...latest.value.entries, ...page.leaderboard_users],
          totalUsers: page.total_users,
        });
      }
    } catch (error) {
      this.loadMoreError = { error };
    } finally {
      this.loadingMore = false;
    }
  }

  protected override renderIn(t: Translator) {
    return this.query.render(t, {
      idle: t.text('leaderboard.idle'),
      loading: t.text('leaderboard.loading'),
      failed: 'leaderboard.loadFailed',
      ready: (board) => this.renderBoard(t, board),
    });
  }

  private renderBoard(t: Translator, board: LoadedBoard) {
    const type = this.leaderboardType;
    const columns = leaderboardColumns(type);
    const { entries, totalUsers } = board;
    const pinned =
      board.highlighted && !entries.some((entry) => entry.external_user.username === this.highlight) ? board.highlighted : null;
    const hasMore = entries.length < totalUsers && entries.length > 0;
    return html`<div class=${leaderboardClass.root} part="base" lang=${t.locale} dir=${textDirection(t.language)}>
      <table class=${leaderboardClass.table} part="table">
        <caption class=${leaderboardClass.caption}>${leaderboardCaption(t, type)}</caption>
        <thead>
          <tr>
            ${columns.map((column) => renderHeader(t, column))}
          </tr>
        </thead>
        <tbody>
          ${
            entries.length
              ? entries.map((entry) => this.renderRow(t, entry, columns))
              : html`<tr class=${leaderboardClass.row}>
                <td class=${leaderboardClass.cell} colspan=${columns.length}>${t.text('leaderboard.empty')}</td>
              </tr>`
          }
        </tbody>
        ${
          pinned
            ? html`<tbody class=${leaderboardClass.pinnedBody} aria-label=${t.text('leaderboard.yourPosition')}>
              ${this.renderRow(t, pinned, columns)}
            </tbody>`
            : nothing
        }
      </table>
      <p class=${leaderboardClass.summary} part="summary" role="status">
        ${leaderboardSummary(t, entries.length, 0, totalUsers)}
      </p>
      ${
        hasMore || this.loadMoreError
          ? html`<div class="more">
            ${
              this.loadMoreError
                ? html`<p class="qb-error" role="alert">
                  ${failureMessage(t, 'leaderboard.loadMoreFailed', this.loadMoreError.error)}
                </p>`
                : nothing
            }
            ${
              hasMore
                ? html`<button
                  class="qb-button qb-button--quiet"
                  part="load-more"
                  type="button"
                  aria-disabled=${this.loadingMore ? 'true' : nothing}
                  @click=${this.loadMore}
                >
                  ${this.loadingMore ? t.text('leaderboard.loadingMore') : t.text('leaderboard.loadMore')}
                </button>`
                : nothing
            }
          </div>`
          : nothing
      }
    </div>`;
  }

  private renderRow(t: Translator, entry: LeaderboardEntry, columns: LeaderboardColumn[]) {
    const highlighted = this.highlight !== '' && entry.external_user.username === this.highlight;
    return html`<tr
      class=${highlighted ? leaderboardClass.rowHighlighted : leaderboardClass.row}
      part=${highlighted ? 'row highlighted-row' : 'row'}
      aria-current=${highlighted ? 'true' : nothing}
    >
      ${columns.map((column) => {
        const value = column.value(entry);
        if (column.key === 'member') {
          // The title shows the whole name where the column cuts it.
          const name = html`<bdi class=${leaderboardClass.name} title=${value}>${value}</bdi>`;
          return html`<th scope="row" class=${cellClass(column)}>${name}</th>`;
        }
        return html`<td class=${cellClass(column)}>${typeof value === 'number' ? t.number(value) : value}</td>`;
      })}
    </tr>`;
  }
}

function cellClass(column: LeaderboardColumn): string {
  return column.numeric ? leaderboardClass.numericCell : leaderboardClass.cell;
}

/** The fragment's header markup (src/ui/leaderboard-fragment.ts): the short form for narrow tables, the label as the cell's name. */
function renderHeader(t: Translator, column: LeaderboardColumn) {
  const { label, short } = columnHeader(t, column);
  if (short === null) return html`<th scope="col" class=${cellClass(column)}>${label}</th>`;
  const forms = html`<span class=${leaderboardClass.label}>${label}</span
    ><abbr class=${leaderboardClass.abbr} title=${label}>${short}</abbr>`;
  return html`<th scope="col" class=${cellClass(column)} aria-label=${label}>${forms}</th>`;
}

defineElement('qb-leaderboard', QbLeaderboard);

declare global {
  interface HTMLElementTagNameMap {
    'qb-leaderboard': QbLeaderboard;
  }
}
