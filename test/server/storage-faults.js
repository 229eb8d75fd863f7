// What the storage tests need of the machine: a small tmpfs or ext4 disk of
// their own, mounted for the test and unmounted after it, and strace. Where
// this process cannot have them (not root, no loop device, no strace), a test
// is skipped with a loud message, except under CI=true, where it fails.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Skips `t` saying why, or throws under CI, where nothing is skipped.
 * @param {import('node:test').TestContext} t
 * @param {string} what
 * @param {Error | string} error what went wrong, or what to do about it
 */
export function cannot(t, what, error) {
  const message = `${what}: ${typeof error === 'string' ? error : error.message}`;
  if (process.env.CI) throw new Error(`${message} (CI never skips this test)`);
  process.stderr.write(`\n*** SKIPPED: ${t.name}: ${message} ***\n\n`);
  t.skip(message);
}

/**
 * Whether `command` runs here.
 * @param {string} command
 */
export async function installed(command) {
  try {
    await run('which', [command]);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file system of the test's own, at a directory of its own: `tmpfs` of `size`
 * (e.g. '48m'), or 'ext4' on a loop device (errors=remount-ro, as a root file
 * system is mounted, so that an error makes it read-only). Returns its path and
 * `unmount()`, which removes everything, mounted or not; null (with `t`
 * skipped) where it cannot be mounted.
 * @param {import('node:test').TestContext} t
 * @param {'tmpfs' | 'ext4'} type
 * @param {string} size
 */
export async function mountScratch(t, type, size) {
  const base = await mkdtemp(join(tmpdir(), `questboard-${type}-`));
  const path = join(base, 'mnt');
  const image = join(base, 'disk.img');
  let mounted = false;
  const unmount = async () => {
    // Lazily: a server killed a moment ago may still hold files there.
    if (mounted) await run('umount', ['-l', path]).catch(() => undefined);
    mounted = false;
    await rm(base, { recursive: true, force: true });
  };
  try {
    await run('mkdir', [path]);
    if (type === 'tmpfs') await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path]);
    else {
      await writeFile(image, '');
      await run('truncate', ['-s', size, image]);
      await run('mkfs.ext4', ['-q', '-F', image]);
      await run('mount', ['-o', 'loop,errors=remount-ro', image, path]);
    }
    mounted = true;
  } catch (error) {
    await unmount();
    cannot(t, `cannot mount a ${type} of the test's own`, error.stderr || error);
    return null;
  }
  return { path, unmount };
}

/**
 * Fills the file system at `path` to the last byte.
 * @param {string} path
 */
export async function fillUp(path) {
  await run('sh', ['-c', `dd if=/dev/zero of=${join(path, 'filler')} bs=1M 2>/dev/null; sync; true`]);
}

/**
 * Turns the ext4 file system at `path` read-only as a disk error does (its journal
 * aborted, errors=remount-ro): through ext4's trigger_fs_error, which, unlike a
 * remount, takes no notice of the files open for writing.
 * @param {string} path
 */
export async function failExt4(path) {
  const { stdout } = await run('findmnt', ['-n', '-o', 'SOURCE', path]);
  const device = stdout.trim().replace('/dev/', '');
  await writeFile(`/sys/fs/ext4/${device}/trigger_fs_error`, 'a test made this disk fail\n');
}
