// Installation admin keys: given by the server's operator in the environment
// (QUESTBOARD_ADMIN_KEYS) or a file (--admin-keys-file), kept hashed in the store.
import { readFile } from 'node:fs/promises';
import { addAdminKeys } from '../core/access.js';
import type { ServeOptions } from './options.js';
import type { Store } from '../store/index.js';
import { reasonOf, StartupError } from './startup-error.js';

/** An admin key opens every app: one short enough to guess is refused at start. */
const MIN_ADMIN_KEY_LENGTH = 16;

export interface InstallationKey {
  key: string;
  /** Where it was given, for messages, which never show a key itself. */
  source: string;
}

/** The keys of QUESTBOARD_ADMIN_KEYS and of the file, each checked; throws a StartupError naming the one at fault. */
export async function readInstallationKeys(
  options: Pick<ServeOptions, 'adminKeys' | 'adminKeysFile'>,
): Promise<InstallationKey[]> {
  const keys = options.adminKeys.map((key, index) => ({ key, source: `QUESTBOARD_ADMIN_KEYS key ${index + 1}` }));
  if (options.adminKeysFile !== null) keys.push(...(await readKeysFile(options.adminKeysFile)));
  for (const { key, source } of keys) {
    if (/\s/.test(key)) throw new StartupError(`${source}: an admin key is one word, without spaces.`);
    if (key.length < MIN_ADMIN_KEY_LENGTH) {
      throw new StartupError(
        `${source}: an admin key needs at least ${MIN_ADMIN_KEY_LENGTH} characters, this one has ${key.length} ` +
          '(make one with: openssl rand -hex 32).',
      );
    }
  }
  return keys;
}

/** One key a line; blank lines and lines starting with # are left out. */
async function readKeysFile(path: string): Promise<InstallationKey[]> {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StartupError(`cannot read the admin keys file: ${reasonOf(error)}`);
  }
  return text
    .split('\n')
    .map((line, index) => ({ key: line.trim(), source: `${path} line ${index + 1}` }))
    .filter(({ key }) => key !== '' && !key.startsWith('#'));
}

/**
 * Adds the keys to the store's admin keys. Runs at every start, with no keys
 * too: that is the step that stores hashed the admin keys of a store written
 * when they were kept in clear.
 */
export async function installAdminKeys(store: Store, keys: InstallationKey[]): Promise<void> {
  try {
    await store.write((tx) =>
      addAdminKeys(
        tx,
        keys.map(({ key }) => key),
        (index) => keys[index]!.source,
      ),
    );
  } catch (error) {
    throw new StartupError(`cannot install the admin keys: ${reasonOf(error)}`);
  }
}
