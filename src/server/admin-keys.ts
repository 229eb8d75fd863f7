// Installation admin keys: given by the server's operator in the environment
// (QUESTBOARD_ADMIN_KEYS) or a file (--admin-keys-file), kept hashed in the store,
// and revoked by leaving them off the list at the next start.
import { readFile } from 'node:fs/promises';
import { MAX_API_KEY_LENGTH } from '../api/schemas.js';
import { addAdminKeys, replaceAdminKeys } from '../core/access.js';
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
    if (key.length > MAX_API_KEY_LENGTH) {
      throw new StartupError(`${source}: an admin key has at most ${MAX_API_KEY_LENGTH} characters, this one has ${key.length}.`);
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
 * Makes the operator's keys the installation's admin keys, when any are given: the list is the
 * whole truth, so removing a key and restarting revokes it (the key an --allow-bootstrap import
 * brought goes too). Given none (a server started with --allow-bootstrap), the stored keys stay. Runs at every start: that is also the step that
 * stores hashed the admin keys of a store written when they were kept in clear.
 */
export async function installAdminKeys(store: Store, keys: InstallationKey[]): Promise<void> {
  const given = keys.map(({ key }) => key);
  const nameOf = (index: number) => keys[index]!.source;
  try {
    await store.write((tx) => (given.length > 0 ? replaceAdminKeys(tx, given, nameOf) : addAdminKeys(tx, [])));
  } catch (error) {
    throw new StartupError(`cannot install the admin keys: ${reasonOf(error)}`);
  }
}
