import { readFile } from 'node:fs/promises';
import { createHandler, type HandlerOptions } from '../handler/handler.js';
import type { Store } from '../store/index.js';
import { reasonOf, StartupError } from './startup-error.js';

export interface DatasetLoad {
  /** The operator's first admin key, which imports it; null when the operator gave none. */
  adminKey: string | null;
  /** --allow-bootstrap: given no admin key, a key the dataset lists may import it (and stays its admin key). */
  allowBootstrap: boolean;
  /** --allow-private-webhooks: the dataset's webhooks may be http: (HandlerOptions.allowPrivateWebhooks). */
  allowPrivateWebhooks?: boolean;
  onUnexpectedError: HandlerOptions['onUnexpectedError'];
}

/**
 * Loads a dataset file (--data) into a store that holds no app through the handler's own
 * POST /v1/admin/import, so it passes the same validation as any import, and the server's rule
 * on admin keys: they come from its operator, so a dataset that lists any is refused, unless the
 * operator allowed the bootstrap and gave no key. A store that holds data keeps it, unchanged
 * (a restart must not merge the file in again): returns false.
 */
export async function loadDataset(
  store: Store,
  path: string,
  { adminKey, allowBootstrap, allowPrivateWebhooks, onUnexpectedError }: DatasetLoad,
): Promise<boolean> {
  if (await store.read((tx) => tx.hasApps())) return false;
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
  const key = adminKey ?? (allowBootstrap ? firstAdminKey(dataset) : null);
  if (key === null) {
    throw new StartupError(
      allowBootstrap
        ? `${path} lists no admin_keys, and no admin key is given (QUESTBOARD_ADMIN_KEYS or --admin-keys-file), so nothing may import it`
        : `--data needs an admin key to import ${path} with: set QUESTBOARD_ADMIN_KEYS or --admin-keys-file ` +
            "(a server takes none from a dataset), or start with --allow-bootstrap to take the dataset's own",
    );
  }
  const handle = createHandler({
    store,
    allowBootstrap,
    adminKeysFromDatasets: false,
    allowPrivateWebhooks,
    onUnexpectedError,
  });
  const response = await handle(
    new Request('http://127.0.0.1/v1/admin/import', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: text,
    }),
  );
  if (!response.ok) {
    const { message } = (await response.json()) as { message: string };
    throw new StartupError(`importing ${path} failed with ${response.status}: ${message}`);
  }
  return true;
}

function firstAdminKey(dataset: unknown): string | null {
  const keys = (dataset as { admin_keys?: unknown } | null)?.admin_keys;
  return Array.isArray(keys) && typeof keys[0] === 'string' ? keys[0] : null;
}
