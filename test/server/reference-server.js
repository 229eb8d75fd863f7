// The Questboard server (`node scripts/serve.js`) as a child process, and raw
// HTTP/1.1 exchanges with it over node:net, for the tests that must send what
// no fetch can (odd methods, oversized heads, CONNECT, bodies sent in part).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const memoryProbe = fileURLToPath(new URL('memory-probe.js', import.meta.url));
const READY = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
/** Bound on any wait for the server; a test that reaches it fails instead of hanging. */
export const WAIT_MS = 20_000;
/** Bound on the start of a server on PGlite in a fresh data directory, and of any server: bundling it and starting PGlite took over 20 s on a loaded 2-core machine. */
export const START_MS = 60_000;

/** @typedef {{ env?: Record<string, string> }} SpawnOptions */
/** @typedef {{ code: number | null, stdout: string, stderr: string }} Ended */

/**
 * Runs `node scripts/serve.js …args`: the process, and its exit code, stdout and stderr once it ends.
 * @param {string[]} args
 * @param {SpawnOptions} [options]
 * @returns {{ child: import('node:child_process').ChildProcessWithoutNullStreams, ended: Promise<Ended> }}
 */
export function spawnServer(args, { env = {} } = {}) {
  const child = spawn(process.execPath, ['scripts/serve.js', ...args], { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // START_MS: the process bundles the server before it runs, as a start does.
  const ended = Promise.race([once(child, 'close'), bounded('the server to exit', START_MS)]).then(([code]) => ({
    code,
    stdout,
    stderr,
  }));
  return { child, ended };
}

/**
 * The same, for a server that ends by itself (--help, a command line or a start that fails).
 * @param {string[]} args
 * @param {SpawnOptions} [options]
 */
export const runServer = (args, options) => spawnServer(args, options).ended;

/**
 * Starts the server on a free port, in memory unless `args` say where the data
 * lives (--data-dir, --database-url); `args` are passed on (e.g.
 * ['--data', path]) and `env` added to this process's environment. Its log
 * lines (JSON on stdout) are kept, parsed, in `log`. `startMs` bounds the wait for it
 * to start (a server loading a dataset into a fresh data directory on a busy machine may take longer).
 * `probeMemory` loads test/server/memory-probe.js into it, for `retainedMemory()`.
 * @param {string[]} [args]
 * @param {{ env?: Record<string, string>, startMs?: number, probeMemory?: boolean }} [options]
 */
export async function startServer(args = [], { env = {}, startMs = START_MS, probeMemory = false } = {}) {
  const storage = args.some((arg) => arg === '--data-dir' || arg === '--database-url') ? [] : ['--memory'];
  const probe = probeMemory ? ['--expose-gc', '--import', memoryProbe] : [];
  const child = spawn(process.execPath, [...probe, 'scripts/serve.js', '--port', '0', ...storage, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  // 'close': the process has exited and its stdout has ended, so `log` holds every line it wrote.
  const exit = once(child, 'close').then(([code]) => code);
  const exited = exit.then((code) => {
    throw new Error(`the server exited with ${code} before it was ready`);
  });
  /** @type {LogLine[]} */
  const log = [];
  /** @type {Array<(bytes: number) => void>} the callers of retainedMemory() waiting for the probe's line */
  const probes = [];
  /** @type {Promise<number>} */
  const ready = new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const entry = JSON.parse(line);
      log.push(entry);
      if (entry.msg === 'memory probe') probes.shift()?.(entry.retained);
      const match = READY.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  exited.catch(() => {});
  let port;
  try {
    port = await Promise.race([ready, exited, bounded('the server to start', startMs)]);
  } catch (error) {
    // A server that did not start in time is not left running (its test file would wait for it).
    child.kill('SIGKILL');
    throw error;
  }
  // Defined: a process that failed to spawn never said it was listening.
  const pid = /** @type {number} */ (child.pid);
  return {
    port,
    log,
    pid,
    /** What it has written to stderr so far (passed on to this process's too). */
    stderr: () => stderr,
    /** Peak resident memory of the server process so far, in bytes (Linux). */
    peakMemory: () => statusBytes(pid, 'VmHWM'),
    /**
     * Bytes the process holds once all its garbage is collected: V8's heap and the memory outside
     * it (buffers, PGlite's WebAssembly memory). Only for a server started with `probeMemory`.
     * @returns {Promise<number>}
     */
    retainedMemory() {
      if (!probeMemory) throw new Error('retainedMemory() needs a server started with probeMemory');
      const answered = new Promise((resolve) => probes.push(resolve));
      child.kill('SIGUSR2');
      return Promise.race([answered, bounded('the memory probe')]);
    },
    /** Kills the process outright (SIGKILL), as a crash or a power cut would. */
    async crash() {
      const killed = once(child, 'exit');
      child.kill('SIGKILL');
      await killed;
    },
    /** Sends SIGTERM (again, if it was already sent) and resolves with the exit code. */
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return Promise.race([exit, bounded('the server to stop')]);
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof startServer>>} RunningServer */
/**
 * A line of the server's log (pino's JSON): its fields past these differ from message to message,
 * and a test reads the ones it expects (`any`: e.g. `err.message` of an error's line).
 * @typedef {{ level: number, time: string, msg: string, [field: string]: any }} LogLine
 */

/**
 * The TCP port process `pid` listens on, as the kernel says (Linux's /proc), or null while it
 * listens on none: for a server that does not say it, as at --log-level warn.
 * @param {number} pid
 */
export function listeningPort(pid) {
  const sockets = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) sockets.add(socket[1]);
    } catch {
      // closed while being read
    }
  }
  for (const table of ['tcp', 'tcp6']) {
    // "sl local_address rem_address st … inode …": a port in hex after the address, 0A for LISTEN.
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state === '0A' && sockets.has(inode)) return Number.parseInt(local.split(':')[1], 16);
    }
  }
  return null;
}

/**
 * A size /proc/<pid>/status gives in kB, in bytes.
 * @param {number} pid
 * @param {'VmHWM' | 'VmRSS'} field
 */
function statusBytes(pid, field) {
  return (
    Number(
      /** @type {RegExpExecArray} */ (
        new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      )[1],
    ) * 1024
  );
}

/**
 * Rejects, saying what was waited for, after `ms`.
 * @param {string} what
 * @returns {Promise<never>}
 */
function bounded(what, ms = WAIT_MS) {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), ms).unref());
}

/** @typedef {{ status: number, headers: Record<string, string>, body: string, json: () => any }} Answer */

/**
 * A connection to the server that reads whole answers (by Content-Length) as
 * they come, so a test can send a request in parts and see when it is answered.
 * @param {number} port
 */
export async function openConnection(port) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let closed = false;
  let wake = () => {};
  socket.on('data', (/** @type {Buffer} */ chunk) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  // A reset after the answer is a fact for the test to look at, not a crash.
  socket.on('error', () => {});
  /** @returns {Answer | null} */
  const takeAnswer = () => {
    const end = received.indexOf('\r\n\r\n');
    if (end === -1) return null;
    const head = received.subarray(0, end).toString('latin1');
    const [statusLine, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (received.length < end + 4 + length) return null;
    const body = received.subarray(end + 4, end + 4 + length).toString('utf8');
    received = received.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body, json: () => JSON.parse(body) };
  };
  return {
    socket,
    /**
     * Writes and waits until the kernel has taken it (or the connection failed).
     * @param {string | Uint8Array} data
     */
    write: (data) => /** @type {Promise<void>} */ (new Promise((resolve) => socket.write(data, () => resolve()))),
    /**
     * The next whole answer; rejects if the connection closes first or after WAIT_MS.
     * @returns {Promise<Answer>}
     */
    answer() {
      return Promise.race([
        new Promise((resolve, reject) => {
          const check = () => {
            const answer = takeAnswer();
            if (answer) resolve(answer);
            else if (closed)
              reject(new Error(`the connection closed without a whole answer: ${JSON.stringify(received.toString('latin1'))}`));
            else wake = check;
          };
          check();
        }),
        bounded('an answer'),
      ]);
    },
    get closed() {
      return closed;
    },
    close: () => socket.destroy(),
  };
}

/**
 * Sends `text` on a new connection and resolves with the one answer.
 * @param {number} port
 * @param {string | Uint8Array} text
 */
export async function exchange(port, text) {
  const connection = await openConnection(port);
  try {
    await connection.write(text);
    return await connection.answer();
  } finally {
    connection.close();
  }
}
