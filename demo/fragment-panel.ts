// The HTML leaderboard fragment in its own panel, put into the page the way
// the script-tag embed puts it into a site (its own sanitizing insert and
// adopted stylesheet), with its source beside it.
import type { QuestboardClient } from '../src/client/index.js';
import type { LeaderboardType } from '../src/api/schemas.js';
import { localeOf } from '../src/components/shared/locale.js';
import { adoptLeaderboardStyles } from '../src/embed/document-styles.js';
import { insertFragment } from '../src/embed/insert-fragment.js';
import { followBoard, type BoardPanel } from './board-panel.js';
import { DEMO_APP_ID } from './dataset.js';
import { required } from './dom.js';

const FRAGMENT_LIMIT = 10;

export function mountFragmentPanel(client: QuestboardClient, initialType: LeaderboardType): BoardPanel {
  const container = required<HTMLElement>('#fragment-slot');
  const source = required<HTMLElement>('#fragment-source');
  return followBoard({
    initialType,
    load: (type) =>
      client.getLeaderboard({
        app_id: DEMO_APP_ID,
        leaderboard_type: type,
        limit: FRAGMENT_LIMIT,
        widget_response: 'html',
        // The container's language, as the embed asks: the table's words and numbers match the elements'.
        locale: localeOf(container),
      }),
    draw: (answer) => {
      adoptLeaderboardStyles();
      insertFragment(container, answer.html);
      source.textContent = answer.html;
    },
    showFailure: (message) => {
      container.textContent = `Could not load the fragment: ${message}`;
    },
  });
}
