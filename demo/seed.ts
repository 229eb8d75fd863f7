// First visit: the origin's database is empty, so the demo imports its
// generated guild. The dataset lists the admin key that authorises its own
// import (the API's bootstrap rule); later imports need that key.
import { QuestboardClient, QuestboardError, type Transport } from '../src/client/index.js';
import { DEMO_ADMIN_KEY, DEMO_API_KEY, DEMO_APP_ID, generateDataset, type Dataset } from './dataset.js';

export function seedDataset(): Dataset {
  return generateDataset({ now: new Date() });
}

export function memberClient(transport: Transport): QuestboardClient {
  return new QuestboardClient({ transport, apiKey: DEMO_API_KEY });
}

export function adminClient(transport: Transport): QuestboardClient {
  return new QuestboardClient({ transport, apiKey: DEMO_ADMIN_KEY });
}

/** Imports the guild unless the demo key can already read it. */
export async function ensureSeeded(transport: Transport): Promise<'seeded' | 'existing'> {
  try {
    await memberClient(transport).getLeaderboard({ app_id: DEMO_APP_ID, limit: 1 });
    return 'existing';
  } catch (error) {
    // 401: an empty store does not know the demo key yet; 404: the guild was deleted by an import.
    if (!(error instanceof QuestboardError) || (error.status !== 401 && error.status !== 404)) throw error;
  }
  await adminClient(transport).admin.importDataset(seedDataset());
  return 'seeded';
}

export async function resetToSeed(transport: Transport): Promise<void> {
  await adminClient(transport).admin.importDataset(seedDataset(), { mode: 'replace' });
}
