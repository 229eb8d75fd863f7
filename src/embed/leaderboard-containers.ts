import { changeAffects, subscribeToChanges } from '../client/changes.js';
import { clientFor } from '../client/config.js';
import { QuestboardError } from '../client/questboard-error.js';
import { followRemoteChanges } from '../client/remote-changes.js';
import type { LeaderboardType } from '../api/schemas.js';
import { applyColorScheme, onColorSchemeChange } from '../components/shared/color-scheme.js';
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

async function fill(container: HTMLElement): Promise<void> {
  const data = container.dataset;
  if (!data.appId) {
    container.textContent = 'Leaderboard unavailable: the container has no data-app-id.';
    return;
  }
  try {
    const client = await clientFor({ apiKey: data.apiKey, baseUrl: data.baseUrl });
    const limit = data.limit ? Number(data.limit) : undefined;
    const answer = await client.getLeaderboard({
      app_id: data.appId,
      widget_response: 'html',
      ...(data.leaderboardType ? { leaderboard_type: data.leaderboardType as LeaderboardType } : {}),
      ...(limit !== undefined && Number.isInteger(limit) ? { limit } : {}),
    });
    adoptLeaderboardStyles();
    insertFragment(container, answer.html);
    applyFragmentScheme(container);
    container.setAttribute('aria-busy', 'false');
  } catch (error) {
    const reason = error instanceof QuestboardError || error instanceof Error ? error.message : String(error);
    container.textContent = `Leaderboard unavailable: ${reason}`;
    container.setAttribute('aria-busy', 'false');
  }
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
 * after writes to their app, and keeps each fragment in the colour scheme its container's
 * `data-theme` and the page ask for.
 */
export function startLeaderboardContainers(): void {
  claimWithin(document);
  new MutationObserver((records) => {
    if (records.some((record) => record.removedNodes.length > 0)) forgetRemoved();
    for (const record of records) {
      if (record.type === 'attributes') {
        if (record.target instanceof HTMLElement && filled.has(record.target)) applyFragmentScheme(record.target);
        continue;
      }
      record.addedNodes.forEach((node) => {
        if (node instanceof Element) claimWithin(node);
      });
    }
  }).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-theme'] });
  onColorSchemeChange(() => filled.forEach((_, container) => applyFragmentScheme(container)));
  subscribeToChanges((change) => {
    for (const container of filled.keys()) {
      if (container.isConnected && changeAffects(change, container.dataset.appId)) void fill(container);
    }
  });
}
