// The components in real use: each one is created once and then follows the
// viewer, the chosen leaderboard type and the chosen challenge through its attributes.
import { DEMO_APP_ID, SEASON_IDS } from './dataset.js';
import { element, required } from './dom.js';
import type { Viewer } from './viewer.js';

export const LEADERBOARD_LIMIT = 10;

export interface DashboardChoices {
  leaderboardType: string;
  challengeId: string;
}

export function mountDashboard(viewer: Viewer, choices: DashboardChoices): void {
  const userCard = element('qb-user-card', { 'app-id': DEMO_APP_ID, 'account-name': viewer.name });
  // app-id: the quest tasks' actions (<qb-quest-task>) list the member's submissions by app.
  const challenge = element('qb-challenge', {
    'app-id': DEMO_APP_ID,
    'challenge-id': choices.challengeId,
    'account-name': viewer.name,
  });
  const leaderboard = element('qb-leaderboard', {
    'app-id': DEMO_APP_ID,
    type: choices.leaderboardType,
    limit: String(LEADERBOARD_LIMIT),
    highlight: viewer.name,
  });
  const connectSocial = element('qb-connect-social', { 'app-id': DEMO_APP_ID, 'account-name': viewer.name });
  const achievements = element('qb-achievements', { 'app-id': DEMO_APP_ID, 'account-name': viewer.name });
  const seasonBoard = (season: string) =>
    element('qb-leaderboard', { 'app-id': DEMO_APP_ID, season, limit: '5', highlight: viewer.name });
  const seasons = [seasonBoard(SEASON_IDS.winter), seasonBoard(SEASON_IDS.autumn)];

  required('#user-card-slot').replaceChildren(userCard);
  required('#challenge-slot').replaceChildren(challenge);
  required('#leaderboard-slot').replaceChildren(leaderboard);
  required('#connect-social-slot').replaceChildren(connectSocial);
  required('#achievements-slot').replaceChildren(achievements);
  required('#season-current-slot').replaceChildren(seasons[0]!);
  required('#season-past-slot').replaceChildren(seasons[1]!);

  viewer.subscribe((accountName) => {
    userCard.setAttribute('account-name', accountName);
    challenge.setAttribute('account-name', accountName);
    leaderboard.setAttribute('highlight', accountName);
    connectSocial.setAttribute('account-name', accountName);
    achievements.setAttribute('account-name', accountName);
    for (const board of seasons) board.setAttribute('highlight', accountName);
  });

  const typeGroup = required<HTMLElement>('#leaderboard-type');
  typeGroup.addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement;
    leaderboard.setAttribute('type', input.value);
    typeGroup.dispatchEvent(new CustomEvent('demo-leaderboard-type', { detail: input.value, bubbles: true }));
  });

  const challengeSelect = required<HTMLSelectElement>('#challenge-select');
  challengeSelect.addEventListener('change', () => challenge.setAttribute('challenge-id', challengeSelect.value));
}
