import { readFile } from 'node:fs/promises';
import type { Handle } from '../server/handler.js';

/**
 * Imports a dataset file through the handler's own POST /v1/admin/import, so
 * it passes the same validation as any import. The store is empty at start,
 * so the dataset's first admin key authorises it (the bootstrap rule).
 */
export async function loadDataset(handle: Handle, path: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  let dataset: unknown;
  try {
    dataset = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not JSON: ${(error as Error).message}`);
  }
  const adminKey = firstAdminKey(dataset);
  if (adminKey === null) throw new Error(`${path} lists no admin_keys, so nothing may import it`);
  const response = await handle(
    new Request('http://127.0.0.1/v1/admin/import', {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' },
      body: text,
    }),
  );
  if (!response.ok) throw new Error(`importing ${path} failed with ${response.status}: ${await response.text()}`);
}

function firstAdminKey(dataset: unknown): string | null {
  const keys = (dataset as { admin_keys?: unknown } | null)?.admin_keys;
  return Array.isArray(keys) && typeof keys[0] === 'string' ? keys[0] : null;
}
