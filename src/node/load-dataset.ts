import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { replaceAdminKeys } from '../core/access.js';
import { isEmpty } from '../core/dataset.js';
import { createHandler, type HandlerOptions } from '../server/handler.js';
import type { Store } from '../store/index.js';
import { installAdminKeys, type InstallationKey } from './admin-keys.js';
import { reasonOf, StartupError } from './startup-error.js';

/**
 * Loads a dataset file (--data) into an empty store through the handler's own
 * POST /v1/admin/import, so it passes the same validation as any import. A
 * server given installation keys imports with a key made for this import
 * alone, which the operator's keys replace as the start goes on
 * (installAdminKeys), so an app key clashing with one of them is named there;
 * given none, with the dataset's first admin key: the bootstrap rule, which a
 * file its operator names may always use. A store that holds data keeps it,
 * unchanged (a restart must not merge the file in again): returns false.
 */
export async function loadDataset(
  store: Store,
  path: string,
  installationKeys: InstallationKey[],
  onUnexpectedError: HandlerOptions['onUnexpectedError'],
): Promise<boolean> {
  if (!(await store.read(isEmpty))) return false;
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StartupError(`cannot read the dataset: ${reasonOf(error)}`);
  }
  let dataset: unknown;
  try {
    dataset = JSON.parse(text);
  } catch (error) {
    throw new StartupError(`${path} is not JSON: ${reasonOf(error)}`);
  }
  const adminKey = installationKeys.length > 0 ? await keyForThisImport(store) : firstAdminKey(dataset);
  if (adminKey === null) {
    throw new StartupError(
      `nothing may import ${path}: give the server an admin key (QUESTBOARD_ADMIN_KEYS or --admin-keys-file)`,
    );
  }
  const handle = createHandler({ store, allowBootstrap: installationKeys.length === 0, onUnexpectedError });
  const response = await handle(
    new Request('http://127.0.0.1/v1/admin/import', {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' },
      body: text,
    }),
  );
  if (!response.ok) {
    // The store stays empty, so the next start loads the file again.
    if (installationKeys.length > 0) await store.write((tx) => replaceAdminKeys(tx, []));
    const { message } = (await response.json()) as { message: string };
    throw new StartupError(`importing ${path} failed with ${response.status}: ${message}`);
  }
  return true;
}

async function keyForThisImport(store: Store): Promise<string> {
  const key = `sk_data_${randomBytes(32).toString('hex')}`;
  await installAdminKeys(store, [{ key, source: 'the key made to load --data' }]);
  return key;
}

function firstAdminKey(dataset: unknown): string | null {
  const keys = (dataset as { admin_keys?: unknown } | null)?.admin_keys;
  return Array.isArray(keys) && typeof keys[0] === 'string' ? keys[0] : null;
}
