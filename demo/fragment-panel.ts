// The HTML leaderboard fragment in its own panel, put into the page the way
// the script-tag embed puts it into a site (its own sanitizing insert and
// adopted stylesheet), with its source beside it.
import { changeAffects, subscribeToChanges, type QuestboardClient } from '../src/client/index.js';
import type { LeaderboardType } from '../src/api/schemas.js';
import { localeOf } from '../src/components/shared/locale.js';
import { adoptLeaderboardStyles } from '../src/embed/document-styles.js';
import { insertFragment } from '../src/embed/insert-fragment.js';
import { DEMO_APP_ID } from './dataset.js';
import { required } from './dom.js';

const FRAGMENT_LIMIT = 10;

export function mountFragmentPanel(
  client: QuestboardClient,
  initialType: LeaderboardType,
): {
  setType(type: LeaderboardType): void;
} {
  const container = required<HTMLElement>('#fragment-slot');
  const source = required<HTMLElement>('#fragment-source');
  let type = initialType;
  let latest = 0;

  async function render(): Promise<void> {
    const request = ++latest;
    const answer = await client.getLeaderboard({
      app_id: DEMO_APP_ID,
      leaderboard_type: type,
      limit: FRAGMENT_LIMIT,
      widget_response: 'html',
      // The container's language, as the embed asks: the table's words and numbers match the elements'.
      locale: localeOf(container),
    });
    if (request !== latest) return;
    adoptLeaderboardStyles();
    insertFragment(container, answer.html);
    source.textContent = answer.html;
  }

  function refresh(): void {
    render().catch((error: unknown) => {
      container.textContent = `Could not load the fragment: ${(error as Error).message}`;
    });
  }

  subscribeToChanges((change) => {
    if (changeAffects(change, DEMO_APP_ID)) refresh();
  });
  refresh();
  return {
    setType(next) {
      type = next;
      refresh();
    },
  };
}
