// The demo's main page: connect to the API, seed the guild on first visit,
// then bring every panel to life.
import type { LeaderboardType } from '../src/api/schemas.js';
import './components.js';
import { connect, describeTransport, SHARED_HOME } from './connection.js';
import { mountControlPanel } from './control-panel.js';
import { mountDashboard } from './dashboard.js';
import { CHALLENGE_IDS, TASK_IDS, type Dataset } from './dataset.js';
import { element, required } from './dom.js';
import { mountFragmentPanel } from './fragment-panel.js';
import { mountNeighbours } from './neighbours.js';
import { signInAs } from './member-tokens.js';
import { adminClient, ensureSeeded, seedDataset, siteClient } from './seed.js';
import { createViewer } from './viewer.js';

const status = required<HTMLElement>('#status');

function fillChallengeSelect(catalog: Dataset): void {
  const select = required<HTMLSelectElement>('#challenge-select');
  const now = Date.now();
  const challenges = catalog.apps[0]?.challenges ?? [];
  select.replaceChildren(
    ...challenges.map((challenge) =>
      element(
        'option',
        { value: challenge.challenge_id },
        Date.parse(challenge.start_date) > now ? `${challenge.name} (opens soon)` : challenge.name,
      ),
    ),
  );
  select.value = CHALLENGE_IDS.onboarding;
}

async function start(): Promise<void> {
  if (SHARED_HOME !== undefined) {
    required('#api-home').textContent = SHARED_HOME.api;
    required('#data-home').textContent = SHARED_HOME.data;
  }
  status.textContent = 'Starting the Questboard service worker…';
  // "View as" signs the page in as the member it shows: the elements write as them.
  const viewer = createViewer();
  const connection = await connect(viewer.name);
  viewer.subscribe(signInAs);
  const { transport } = connection;
  const site = siteClient(transport);
  const admin = adminClient(transport);

  status.textContent = 'Loading the guild…';
  const seeding = await ensureSeeded(transport);

  const leaderboardType: LeaderboardType = 'score';
  // The seed names the challenges and tasks the pickers offer.
  const catalog = seedDataset();
  fillChallengeSelect(catalog);
  mountDashboard(viewer, { leaderboardType, challengeId: CHALLENGE_IDS.onboarding });
  const neighbours = mountNeighbours(site, viewer, leaderboardType);
  const fragment = mountFragmentPanel(site, leaderboardType);
  required('#leaderboard-type').addEventListener('demo-leaderboard-type', (event) => {
    const type = (event as CustomEvent<LeaderboardType>).detail;
    neighbours.setType(type);
    fragment.setType(type);
  });
  await mountControlPanel({ transport, site, admin, viewer }, catalog);

  // What a site does when a member links their account: report it as task progress,
  // so "Connect your X account" completes in the challenge card.
  document.addEventListener('qb-connect-social', (event) => {
    admin.admin
      .logTask({ task_id: TASK_IDS.connectX, account_name: event.detail.accountName, quantity: 1 })
      .catch((error: unknown) => console.warn('Questboard demo: could not log the connected account', error));
  });

  required('#transport-note').textContent = `This tab reaches the API through the ${describeTransport(connection)}.`;
  status.textContent =
    seeding === 'seeded'
      ? 'Welcome! The guild was just created in this browser.'
      : 'Ready. Pick a member in the presenter controls and log progress.';
  required('#dashboard').setAttribute('aria-busy', 'false');
}

start().catch((error: unknown) => {
  status.dataset.state = 'error';
  status.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  console.error(error);
});
