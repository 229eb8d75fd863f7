// "Members near you": the viewer's window of the leaderboard, each row with
// an endorse button — the way a community site would put endorsements on member rows.
// The buttons name no `from`: they endorse as the member the page is signed in as.
import type { QuestboardClient } from '../src/client/index.js';
import type { LeaderboardType } from '../src/api/schemas.js';
import { followBoard, type BoardPanel } from './board-panel.js';
import { DEMO_APP_ID } from './dataset.js';
import { element, required } from './dom.js';
import type { Viewer } from './viewer.js';

const WINDOW_SIZE = 5;
const SCORE_LABELS: Record<LeaderboardType, string> = {
  score: 'points',
  xp: 'points',
  weekly: 'points this week',
  monthly: 'points this month',
};

export function mountNeighbours(client: QuestboardClient, viewer: Viewer, initialType: LeaderboardType): BoardPanel {
  const list = required<HTMLOListElement>('#neighbours');
  const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
  // Kept across refreshes so a button keeps its "endorsed" state when the list redraws.
  const endorseButtons = new Map<string, HTMLElement>();

  function endorseButtonFor(to: string): HTMLElement {
    const key = JSON.stringify([viewer.name, to]);
    let button = endorseButtons.get(key);
    if (!button) {
      button = element('qb-endorse-button', { 'app-id': DEMO_APP_ID, to, 'endorsement-id': 'helpful' });
      // The row already shows the name: a short visible label, the full one for screen readers.
      button.append('Endorse', element('span', { class: 'visually-hidden' }, ` ${to}`));
      endorseButtons.set(key, button);
    }
    return button;
  }

  const panel = followBoard({
    initialType,
    load: (type) =>
      client.getLeaderboard({
        app_id: DEMO_APP_ID,
        leaderboard_type: type,
        limit: WINDOW_SIZE,
        around: viewer.name,
      }),
    draw: (board, type) => {
      list.replaceChildren(
        ...board.leaderboard_users.map((entry) => {
          const name = entry.external_user.username;
          const isViewer = name === viewer.name;
          const row = element('li', isViewer ? { 'data-viewer': '' } : {});
          const rank = element('span', { class: 'neighbour-rank' }, `#${numbers.format(entry.rank)}`);
          const label = element('span', { class: 'neighbour-name' });
          // Isolated, so a right-to-left name keeps the rank and score beside it in place.
          label.append(element('bdi', {}, name));
          const score = `${numbers.format(entry.score)} ${SCORE_LABELS[type]} · ${numbers.format(entry.total_xp)} XP`;
          label.append(element('span', { class: 'neighbour-score' }, score));
          const action = isViewer ? element('span', { class: 'you' }, 'You') : endorseButtonFor(name);
          row.append(rank, label, action);
          return row;
        }),
      );
    },
    showFailure: (message) => {
      list.replaceChildren(element('li', {}, `Could not load the members near you: ${message}`));
    },
  });
  viewer.subscribe(panel.refresh);
  return panel;
}
