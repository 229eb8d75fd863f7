// CPU time of the processes a load run keeps busy, from /proc (Linux; null
// elsewhere): the server's, the client's (this process) and PostgreSQL's, so
// the report can say which of them the machine's cores went to.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ): 100 on the Linux machines this runs on. */
const TICKS = 100;

/** @param {number | string} pid a process id, or 'self' */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // utime and stime: fields 14 and 15 of stat(5), here 11 and 12 after the name.
    return {
      name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
      seconds: (Number(fields[11]) + Number(fields[12])) / TICKS,
    };
  } catch {
    return null;
  }
}

/**
 * CPU seconds so far of the server process, of this process and of each process named postgres (by pid).
 * @param {number} serverPid
 */
export function cpuSeconds(serverPid) {
  if (!existsSync('/proc/self/stat')) return null;
  /** @type {Map<string, number>} */
  const postgres = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const process = stat(entry);
    if (process?.name.startsWith('postgres')) postgres.set(entry, process.seconds);
  }
  return { server: stat(serverPid)?.seconds ?? NaN, client: stat('self')?.seconds ?? NaN, postgres };
}

/**
 * Each one's share of one core between two readings. A postgres process that
 * ended in between is left out (its last ticks are lost), one that started
 * counts from zero.
 * @param {ReturnType<typeof cpuSeconds>} before
 * @param {ReturnType<typeof cpuSeconds>} after
 * @param {number} seconds
 */
export function cpuShares(before, after, seconds) {
  if (before === null || after === null) return null;
  let postgres = 0;
  for (const [pid, total] of after.postgres) postgres += total - (before.postgres.get(pid) ?? 0);
  return {
    server: (after.server - before.server) / seconds,
    client: (after.client - before.client) / seconds,
    postgres: postgres / seconds,
  };
}
