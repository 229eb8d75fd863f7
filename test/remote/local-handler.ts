// The local side in the remote tests: the real handler over a real IndexedDB store holding
// local-dataset.json, whose data differs from the remote's, so a test can tell who answered.
import { createHandler, type Handle } from '../../src/handler/handler.js';
import { openIndexedDbStore } from '../../src/store/indexeddb/index.js';

export interface LocalHandler {
  handle: Handle;
  /** Closes and deletes the store's database. */
  remove(): Promise<void>;
}

export async function localHandler(databaseName: string): Promise<LocalHandler> {
  const store = openIndexedDbStore({ name: databaseName });
  const handle = createHandler({ store });
  const dataset = await (await fetch(new URL('./local-dataset.json', import.meta.url))).text();
  const imported = await handle(
    new Request('https://questboard.invalid/v1/admin/import', {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_local_admin', 'Content-Type': 'application/json' },
      body: dataset,
    }),
  );
  if (!imported.ok) throw new Error(`the local dataset did not import: ${imported.status} ${await imported.text()}`);
  return {
    handle,
    async remove() {
      store.close();
      await deleteDatabase(databaseName);
    },
  };
}

export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}
