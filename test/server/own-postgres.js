// A PostgreSQL cluster of a test's own, in a temporary directory, on a free
// port: made with initdb, started, stopped (fast or immediate), frozen
// (SIGSTOP of the postmaster and its children) and thawed, and removed. As
// root, PostgreSQL's programs run as the postgres user, which they require.
import { execFile } from 'node:child_process';
import { access, chown, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest PostgreSQL's programs' directory (Debian's layout), or null where none is installed. */
export async function postgresPrograms() {
  const versions = await readdir('/usr/lib/postgresql').catch(() => []);
  const newest = versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
  if (newest === undefined) return null;
  const programs = join('/usr/lib/postgresql', newest, 'bin');
  return (await access(join(programs, 'initdb')).then(
    () => true,
    () => false,
  ))
    ? programs
    : null;
}

/**
 * A TCP port no one listens on now, below the range the system gives out for listen(0) and for
 * outgoing connections (ip_local_port_range): the cluster is stopped and started again on it, and
 * in between a connection's local port, taken from that range, could otherwise hold it.
 */
async function freePort() {
  const [ephemeralLow] = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768'))
    .trim()
    .split(/\s+/)
    .map(Number);
  // Where that range starts low, a port from it is the best there is: any port, as listen(0) picks it.
  const lowest = 10_000;
  const pick = () => (ephemeralLow > lowest ? lowest + Math.floor(Math.random() * (ephemeralLow - lowest)) : 0);
  for (let tries = 0; tries < 100; tries++) {
    const server = createServer();
    const listening = await new Promise((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(pick(), '127.0.0.1', () => resolve(true));
    });
    if (listening) {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error(`no free port below ${ephemeralLow}`);
}

/**
 * Makes and starts a cluster; `remove()` it in after(), whatever happened.
 * @param {string} programs the directory of PostgreSQL's programs (postgresPrograms())
 */
export async function ownCluster(programs) {
  const asRoot = process.getuid?.() === 0;
  const directory = await mkdtemp(join(tmpdir(), 'questboard-cluster-'));
  const data = join(directory, 'data');
  const port = await freePort();
  /**
   * @param {string} name
   * @param {string[]} args
   */
  const program = (name, args) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(programs, name), ...args]) : run(join(programs, name), args);
  /** @param {...string} args */
  const pgCtl = (...args) => program('pg_ctl', ['-D', data, '-l', join(directory, 'log'), '-w', ...args]);
  /** The postmaster and its children, as they run now. */
  const processes = async () => {
    const postmaster = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(postmaster)]);
    return [postmaster, ...stdout.split('\n').filter(Boolean).map(Number)];
  };
  /** @type {number[]} */
  let frozen = [];
  const cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => pgCtl('-o', `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1`, 'start'),
    /** `mode`: fast (the default: sessions ended, then a clean shutdown) or immediate (as a crash). */
    stop: (mode = 'fast') => pgCtl('-m', mode, 'stop'),
    /** Stops every process of it (SIGSTOP): connections stay open, nothing answers. */
    async freeze() {
      frozen = await processes();
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    async thaw() {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
      frozen = [];
    },
    async remove() {
      await cluster.thaw().catch(() => {});
      await cluster.stop('immediate').catch(() => {});
      await rm(directory, { recursive: true, force: true });
    },
  };
  try {
    if (asRoot) await chown(directory, ...(await postgresIds()));
    await program('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
    await cluster.start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}

/** @returns {Promise<[number, number]>} the postgres user's uid and gid */
async function postgresIds() {
  /** @param {'-u' | '-g'} flag */
  const ids = async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim());
  return [await ids('-u'), await ids('-g')];
}
