import { escapeHtml } from './escape-html.js';
import {
  EMPTY_LEADERBOARD_TEXT,
  leaderboardCaption,
  leaderboardClass,
  leaderboardColumns,
  leaderboardSummary,
  type LeaderboardColumn,
  type LeaderboardEntry,
  type LeaderboardType,
} from './leaderboard-model.js';
import { leaderboardCss } from './leaderboard-styles.js';
import { numberFormat } from './number-format.js';

export interface LeaderboardFragmentOptions {
  /** The leaderboard_type the entries are ordered by; names the score column and the caption. */
  leaderboardType?: LeaderboardType;
  /** BCP 47 locale for numbers (the request's Accept-Language, say); the runtime default otherwise. */
  locale?: string;
  /** total_users of the answer, for the "Showing 1–10 of 250 members" line. */
  totalUsers?: number;
  /** offset of the answer, so the summary line counts from the right place. */
  offset?: number;
  /** Account name whose row is marked as the current member's. */
  highlight?: string;
}

/**
 * The leaderboard as a self-contained HTML fragment: one root element with its own scoped
 * <style>, an accessible table, no script, no event attributes and no URL of any kind.
 * Every member string is escaped here; hosts should still insert it through a sanitizer.
 */
export function renderLeaderboardFragment(
  entries: readonly LeaderboardEntry[],
  options: LeaderboardFragmentOptions = {},
): string {
  const type = options.leaderboardType ?? 'score';
  const columns = leaderboardColumns(type);
  const format = numberFormat(options.locale);
  // Ranks, scores and counts repeat down a board, and formatting one costs more than looking it up.
  const formatted = new Map<number, string>();
  const formatOnce = (value: number) => formatted.get(value) ?? formatted.set(value, format.format(value)).get(value)!;
  const totalUsers = options.totalUsers ?? entries.length;
  const lang = options.locale && isLanguageTag(options.locale) ? ` lang="${escapeHtml(options.locale)}"` : '';

  const head = columns.map((column) => `<th scope="col" class="${cellClass(column)}">${escapeHtml(column.label)}</th>`).join('');
  const rows = entries
    .map((entry) => renderRow(entry, columns, formatOnce, entry.external_user.username === options.highlight))
    .join('');
  const body = entries.length
    ? `<tbody>${rows}</tbody>`
    : `<tbody><tr class="${leaderboardClass.row}"><td class="${leaderboardClass.cell}" colspan="${columns.length}">${escapeHtml(EMPTY_LEADERBOARD_TEXT)}</td></tr></tbody>`;
  const summary = leaderboardSummary(entries.length, options.offset ?? 0, totalUsers, options.locale);

  return (
    `<div class="${leaderboardClass.root}"${lang}>` +
    `<style>${leaderboardCss}</style>` +
    `<table class="${leaderboardClass.table}">` +
    `<caption class="${leaderboardClass.caption}">${escapeHtml(leaderboardCaption(type))}</caption>` +
    `<thead><tr>${head}</tr></thead>${body}</table>` +
    `<p class="${leaderboardClass.summary}">${escapeHtml(summary)}</p>` +
    `</div>`
  );
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

function cellClass(column: LeaderboardColumn): string {
  return column.numeric ? leaderboardClass.numericCell : leaderboardClass.cell;
}

function renderRow(
  entry: LeaderboardEntry,
  columns: LeaderboardColumn[],
  formatNumber: (value: number) => string,
  highlighted: boolean,
): string {
  const cells = columns
    .map((column) => {
      const value = column.value(entry);
      if (column.key === 'member') {
        return `<th scope="row" class="${cellClass(column)}"><bdi class="${leaderboardClass.name}">${escapeHtml(String(value))}</bdi></th>`;
      }
      const text = typeof value === 'number' ? formatNumber(value) : String(value);
      return `<td class="${cellClass(column)}">${escapeHtml(text)}</td>`;
    })
    .join('');
  const rowClass = highlighted ? leaderboardClass.rowHighlighted : leaderboardClass.row;
  const current = highlighted ? ' aria-current="true"' : '';
  return `<tr class="${rowClass}"${current}>${cells}</tr>`;
}
