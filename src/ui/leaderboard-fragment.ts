import { textDirection } from '../i18n/languages.js';
import type { TableMessageId, Translator } from '../i18n/messages.js';
import { tableTranslator } from '../i18n/table-catalogs.js';
import { escapeHtml } from './escape-html.js';
import {
  columnHeader,
  leaderboardCaption,
  leaderboardClass,
  leaderboardColumns,
  leaderboardSummary,
  type LeaderboardColumn,
  type LeaderboardEntry,
  type LeaderboardType,
} from './leaderboard-model.js';
import { leaderboardCss } from './leaderboard-styles.js';

export interface LeaderboardFragmentOptions {
  /** The leaderboard_type the entries are ordered by; names the score column and the caption. */
  leaderboardType?: LeaderboardType;
  /** Canonical BCP 47 tag of the words and numbers (the request's locale, say); English by default. */
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
 * Its root carries the language and direction of its words, so it reads right on any page.
 */
export function renderLeaderboardFragment(
  entries: readonly LeaderboardEntry[],
  options: LeaderboardFragmentOptions = {},
): string {
  const type = options.leaderboardType ?? 'score';
  const t = tableTranslator(options.locale ?? 'en');
  const columns = leaderboardColumns(type);
  // Ranks, scores and counts repeat down a board, and formatting one costs more than looking it up.
  const formatted = new Map<number, string>();
  const formatOnce = (value: number) => formatted.get(value) ?? formatted.set(value, t.number(value)).get(value)!;
  const totalUsers = options.totalUsers ?? entries.length;

  const head = columns.map((column) => headerCell(t, column)).join('');
  const rows = entries
    .map((entry) => renderRow(entry, columns, formatOnce, entry.external_user.username === options.highlight))
    .join('');
  const body = entries.length
    ? `<tbody>${rows}</tbody>`
    : `<tbody><tr class="${leaderboardClass.row}"><td class="${leaderboardClass.cell}" colspan="${columns.length}">${escapeHtml(t.text('leaderboard.empty'))}</td></tr></tbody>`;
  const summary = leaderboardSummary(t, entries.length, options.offset ?? 0, totalUsers);

  return (
    `<div class="${leaderboardClass.root}" lang="${escapeHtml(t.locale)}" dir="${textDirection(t.language)}">` +
    `<style>${leaderboardCss}</style>` +
    `<table class="${leaderboardClass.table}">` +
    `<caption class="${leaderboardClass.caption}">${escapeHtml(leaderboardCaption(t, type))}</caption>` +
    `<thead><tr>${head}</tr></thead>${body}</table>` +
    `<p class="${leaderboardClass.summary}">${escapeHtml(summary)}</p>` +
    `</div>`
  );
}

function cellClass(column: LeaderboardColumn): string {
  return column.numeric ? leaderboardClass.numericCell : leaderboardClass.cell;
}

/** A header, with its short form for narrow tables; the cell keeps the full label as its name for screen readers. */
function headerCell(t: Translator<TableMessageId>, column: LeaderboardColumn): string {
  const { label, short } = columnHeader(t, column);
  const text = escapeHtml(label);
  if (short === null) return `<th scope="col" class="${cellClass(column)}">${text}</th>`;
  return (
    `<th scope="col" class="${cellClass(column)}" aria-label="${text}">` +
    `<span class="${leaderboardClass.label}">${text}</span>` +
    `<abbr class="${leaderboardClass.abbr}" title="${text}">${escapeHtml(short)}</abbr></th>`
  );
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
        // The title shows the whole name where the column cuts it.
        const name = escapeHtml(String(value));
        return `<th scope="row" class="${cellClass(column)}"><bdi class="${leaderboardClass.name}" title="${name}">${name}</bdi></th>`;
      }
      const text = typeof value === 'number' ? formatNumber(value) : String(value);
      return `<td class="${cellClass(column)}">${escapeHtml(text)}</td>`;
    })
    .join('');
  const rowClass = highlighted ? leaderboardClass.rowHighlighted : leaderboardClass.row;
  const current = highlighted ? ' aria-current="true"' : '';
  return `<tr class="${rowClass}"${current}>${cells}</tr>`;
}
