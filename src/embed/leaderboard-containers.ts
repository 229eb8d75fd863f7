import { changeAffects, subscribeToChanges } from '../client/changes.js';
import { clientFor, MissingApiKeyError } from '../client/config.js';
import { QuestboardError } from '../client/questboard-error.js';
import { followRemoteChanges } from '../client/remote-changes.js';
import type { LeaderboardType } from '../api/schemas.js';
import { localeOf, siteMessages, watchLanguages } from '../components/shared/locale.js';
import { keptNotice } from '../components/shared/status.js';
import { catalogLanguage } from '../i18n/languages.js';
import type { Translator } from '../i18n/messages.js';
import { loadCatalog, pageTranslator } from '../i18n/page-catalogs.js';
import { leaderboardClass } from '../ui/leaderboard-model.js';
import { adoptLeaderboardStyles } from './document-styles.js';
import { insertFragment } from './insert-fragment.js';

const CONTAINER_SELECTOR = '[data-questboard-leaderboard]';

/**
 * Containers this embed filled, so it refreshes them and never fills one twice, each with how
 * it stops following its app's changes on a remote server once it leaves the page.
 */
const filled = new Map<HTMLElement, () => void>();
/** Every container this embed filled: one taken out of the page and put back is claimed again, though not empty. */
const everFilled = new WeakSet<HTMLElement>();

function isEmpty(element: Element): boolean {
  return element.childElementCount === 0 && (element.textContent ?? '').trim() === '';
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
    },
  };
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
    const answer = await client.getLeaderboard(request.query);
    // The notice's words come before the rows, so both show at once.
    const notice = keptAt === null ? null : keptNotice(await translator(locale), keptAt);
    adoptLeaderboardStyles();
    insertFragment(container, answer.html);
    if (notice !== null) container.querySelector(`.${leaderboardClass.root}`)?.prepend(keptParagraph(notice));
  } catch (error) {
    const t = await translator(locale);
    container.textContent = t.text('leaderboard.unavailable', { reason: reasonOf(t, error) });
  }
  container.setAttribute('aria-busy', 'false');
}

/** The elements' offline notice, as the fragment shows it: the rows are the last ones the remote gave. */
function keptParagraph(text: string): HTMLParagraphElement {
  const paragraph = document.createElement('p');
  paragraph.className = leaderboardClass.kept;
  paragraph.setAttribute('role', 'status');
  paragraph.textContent = text;
  return paragraph;
}

function reasonOf(t: Translator, error: unknown): string {
  if (error instanceof MissingApiKeyError) return t.text('error.noApiKey');
  if (error instanceof QuestboardError && error.kind === 'unreachable') return t.text('error.unreachable');
  return error instanceof Error ? error.message : String(error);
}

function claim(container: Element): void {
  if (!(container instanceof HTMLElement) || filled.has(container)) return;
  if (!isEmpty(container) && !everFilled.has(container)) return;
  everFilled.add(container);
  const { appId, apiKey, baseUrl } = container.dataset;
  filled.set(container, appId ? followRemoteChanges(appId, { apiKey, baseUrl }) : () => {});
  container.setAttribute('aria-busy', 'true');
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
 * Fills every empty [data-questboard-leaderboard] container with the HTML fragment, now and
 * whenever one is added later, and refreshes them after writes to their app and when the
 * page's language changes.
 */
export function startLeaderboardContainers(): void {
  claimWithin(document);
  new MutationObserver((records) => {
    if (records.some((record) => record.removedNodes.length > 0)) forgetRemoved();
    for (const record of records) {
      record.addedNodes.forEach((node) => {
        if (node instanceof Element) claimWithin(node);
      });
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  subscribeToChanges((change) => {
    for (const container of filled.keys()) {
      if (container.isConnected && changeAffects(change, container.dataset.appId)) void fill(container);
    }
  });
  watchLanguages(() => {
    for (const container of filled.keys()) if (container.isConnected) void fill(container);
  });
}
