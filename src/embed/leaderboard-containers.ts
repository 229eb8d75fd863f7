import { changeAffects, subscribeToChanges } from '../client/changes.js';
import { clientFor } from '../client/config.js';
import { followRemoteChanges } from '../client/remote-changes.js';
import type { LeaderboardType } from '../api/schemas.js';
import { applyColorScheme, onColorSchemeChange } from '../components/shared/color-scheme.js';
import { localeOf, siteMessages, watchLanguages } from '../components/shared/locale.js';
import { failureReason, keptNotice } from '../components/shared/status.js';
import { catalogLanguage } from '../i18n/languages.js';
import type { Translator } from '../i18n/messages.js';
import { loadCatalog, pageTranslator } from '../i18n/page-catalogs.js';
import { leaderboardClass } from '../ui/leaderboard-model.js';
import { adoptLeaderboardStyles } from './document-styles.js';
import { insertFragment, withoutStyle } from './insert-fragment.js';
import { storedFragment, storeFragment } from './stored-fragments.js';

const CONTAINER_SELECTOR = '[data-questboard-leaderboard]';

/**
 * Containers this embed filled, so it refreshes them and never fills one twice, each with how
 * it stops following its app's changes on a remote server once it leaves the page.
 */
const filled = new Map<HTMLElement, () => void>();
/** Every container this embed filled: one taken out of the page and put back is claimed again, though not empty. */
const everFilled = new WeakSet<HTMLElement>();
/**
 * The fragment each container shows (without its style): an answer that brings the same again
 * (the kept one confirmed, a write elsewhere on the board) changes nothing on screen.
 */
const shown = new WeakMap<HTMLElement, string>();

/**
 * Whether the container is the embed's to fill: empty, or holding only a loading placeholder
 * (elements marked `data-questboard-placeholder`, with blank text and comments around them),
 * which the fragment replaces. Anything else is the site's own content, left alone.
 */
function isFillable(container: Element): boolean {
  return [...container.childNodes].every((node) =>
    node instanceof Element
      ? node.hasAttribute('data-questboard-placeholder')
      : node.nodeType === Node.COMMENT_NODE || (node.textContent ?? '').trim() === '',
  );
}

/** What a container asks for, in its own language (localeOf): the same words and numbers as the elements beside it. */
function requestOf(container: HTMLElement) {
  const data = container.dataset;
  const limit = data.limit ? Number(data.limit) : undefined;
  return {
    overrides: { apiKey: data.apiKey, baseUrl: data.baseUrl },
    query: {
      app_id: data.appId ?? '',
      widget_response: 'html' as const,
      locale: localeOf(container),
      ...(data.leaderboardType ? { leaderboard_type: data.leaderboardType as LeaderboardType } : {}),
      ...(limit !== undefined && Number.isInteger(limit) ? { limit } : {}),
      season: data.season || undefined,
    },
  };
}

/** Where the container's last fresh answer is kept: what the answer depends on. */
function storageKey({ overrides, query }: ReturnType<typeof requestOf>): string {
  return JSON.stringify([
    overrides.baseUrl ?? null,
    query.app_id,
    query.leaderboard_type ?? null,
    query.limit ?? null,
    query.locale,
    query.season ?? null,
  ]);
}

/** The page's words for `locale`, its catalog loaded first (English is there at once). */
async function translator(locale: string): Promise<Translator> {
  await loadCatalog(catalogLanguage(locale));
  return pageTranslator(locale, siteMessages())!;
}

async function fill(container: HTMLElement): Promise<void> {
  const request = requestOf(container);
  const { locale } = request.query;
  if (!request.query.app_id) {
    container.textContent = (await translator(locale)).text('leaderboard.noAppId');
    container.setAttribute('aria-busy', 'false');
    return;
  }
  try {
    let keptAt: number | null = null;
    const client = (await clientFor(request.overrides)).observing((answerKeptAt) => (keptAt = answerKeptAt));
    const markup = withoutStyle((await client.getLeaderboard(request.query)).html);
    if (keptAt === null) {
      if (shown.get(container) !== markup) show(container, markup);
      container.setAttribute('aria-busy', 'false');
      storeFragment(storageKey(request), markup);
      return;
    }
    // The notice's words come before the rows, so both show at once.
    const notice = keptNotice(await translator(locale), keptAt);
    show(container, markup);
    shown.delete(container);
    container.querySelector(`.${leaderboardClass.root}`)?.prepend(keptParagraph(notice));
  } catch (error) {
    const t = await translator(locale);
    container.textContent = t.text('leaderboard.unavailable', { reason: failureReason(t, error) });
    shown.delete(container);
  }
  container.setAttribute('aria-busy', 'false');
}

function show(container: HTMLElement, markup: string): void {
  adoptLeaderboardStyles();
  insertFragment(container, markup);
  applyFragmentScheme(container);
  shown.set(container, markup);
}

/** The elements' offline notice, as the fragment shows it: the rows are the last ones the remote gave. */
function keptParagraph(text: string): HTMLParagraphElement {
  const paragraph = document.createElement('p');
  paragraph.className = leaderboardClass.kept;
  paragraph.setAttribute('role', 'status');
  paragraph.textContent = text;
  return paragraph;
}

/** The fragment's root takes its container's `data-theme` as an element takes its `theme`. */
function applyFragmentScheme(container: HTMLElement): void {
  const root = container.querySelector(`:scope > .${leaderboardClass.root}`);
  if (root) applyColorScheme(root, container.dataset.theme, container);
}

function claim(container: Element): void {
  if (!(container instanceof HTMLElement) || filled.has(container)) return;
  if (!isFillable(container) && !everFilled.has(container)) return;
  everFilled.add(container);
  const { appId, apiKey, baseUrl } = container.dataset;
  filled.set(container, appId ? followRemoteChanges(appId, { apiKey, baseUrl }) : () => {});
  container.setAttribute('aria-busy', 'true');
  // A returning visitor sees the last answer at once; the current one replaces it where it differs.
  const stored = appId && isFillable(container) ? storedFragment(storageKey(requestOf(container))) : null;
  if (stored) show(container, stored);
  void fill(container);
}

function forgetRemoved(): void {
  for (const [container, stopFollowing] of filled) {
    if (container.isConnected) continue;
    stopFollowing();
    filled.delete(container);
  }
}

function claimWithin(root: ParentNode): void {
  if (root instanceof Element && root.matches(CONTAINER_SELECTOR)) claim(root);
  root.querySelectorAll(CONTAINER_SELECTOR).forEach(claim);
}

/**
 * Fills every empty [data-questboard-leaderboard] container (or one holding only a loading
 * placeholder) with the HTML fragment, now and whenever one is added later, refreshes them
 * after writes to their app, when the page's language changes and when a container's
 * `data-season` does, and keeps each fragment in
 * the colour scheme its container's `data-theme` and the page ask for.
 */
export function startLeaderboardContainers(): void {
  claimWithin(document);
  new MutationObserver((records) => {
    if (records.some((record) => record.removedNodes.length > 0)) forgetRemoved();
    for (const record of records) {
      if (record.type === 'attributes') {
        const { target } = record;
        if (!(target instanceof HTMLElement) || !filled.has(target)) continue;
        // Another season (a season picker's choice) is another board.
        if (record.attributeName === 'data-season') void fill(target);
        else applyFragmentScheme(target);
        continue;
      }
      record.addedNodes.forEach((node) => {
        if (node instanceof Element) claimWithin(node);
      });
    }
  }).observe(document.documentElement, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['data-theme', 'data-season'],
  });
  onColorSchemeChange(() => filled.forEach((_, container) => applyFragmentScheme(container)));
  subscribeToChanges((change) => {
    for (const container of filled.keys()) {
      if (container.isConnected && changeAffects(change, container.dataset.appId)) void fill(container);
    }
  });
  watchLanguages(() => {
    for (const container of filled.keys()) if (container.isConnected) void fill(container);
  });
}
