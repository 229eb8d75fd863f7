// First visit: the origin's database is empty, so the demo imports its
// generated guild. The dataset lists the admin key that authorises its own
// import (the API's bootstrap rule); later imports need that key.
import { QuestboardClient, QuestboardError, type Transport } from '../src/client/index.js';
import { SHARED_SERVER } from './connection.js';
import { DEMO_ADMIN_KEY, DEMO_API_KEY, DEMO_APP_ID, DEMO_MEMBER_KEY, generateDataset, type Dataset } from './dataset.js';

export function seedDataset(): Dataset {
  return generateDataset({ now: new Date() });
}

/** The site's own server key: what its backend reads with and pays coins out with. */
export function siteClient(transport: Transport): QuestboardClient {
  return new QuestboardClient({ transport, apiKey: DEMO_API_KEY });
}

export function adminClient(transport: Transport): QuestboardClient {
  return new QuestboardClient({ transport, apiKey: DEMO_ADMIN_KEY });
}

// Set once this browser has imported the guild. Asking the API first would
// cost a 401 on every first visit (an empty store knows no key), which the
// browser prints as a console error.
const SEEDED_MARKER = 'questboard-demo:seeded';

/** Imports the guild on the first visit, or again when this origin's data was cleared or replaced. */
export async function ensureSeeded(transport: Transport): Promise<'seeded' | 'existing'> {
  // A shared server was seeded when it started: another browser's changes are there to keep.
  if (localStorage.getItem(SEEDED_MARKER) || SHARED_SERVER !== undefined) {
    try {
      // With the pages' key: a guild seeded before it existed is seeded again.
      await new QuestboardClient({ transport, apiKey: DEMO_MEMBER_KEY }).getLeaderboard({ app_id: DEMO_APP_ID, limit: 1 });
      return 'existing';
    } catch (error) {
      // 401: the store does not know the pages' key; 404: an import removed the guild.
      if (!(error instanceof QuestboardError) || (error.status !== 401 && error.status !== 404)) throw error;
    }
  }
  await resetToSeed(transport);
  return 'seeded';
}

/**
 * Replaces the guild with a fresh seed. On an empty store the dataset's own
 * admin key authorises it (the API's bootstrap rule).
 */
export async function resetToSeed(transport: Transport): Promise<void> {
  await adminClient(transport).admin.importDataset(seedDataset(), { mode: 'replace' });
  localStorage.setItem(SEEDED_MARKER, new Date().toISOString());
}
