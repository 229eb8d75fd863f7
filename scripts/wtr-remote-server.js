// A web-test-runner plugin that runs the reference server (`npm run serve`) on
// a port of its own, so browser tests reach a real remote cross-origin.
// Tests drive it with executeServerCommand('remote-server', { action }):
//   'url'    → the server's base URL, the same for the whole run
//   'stop'   → stops it, so calls fail with a network error
//   'start'  → starts it again, same URL, with the dataset loaded afresh
// The server is the tests' (test/hosts/test-server.ts, by --test-hooks), in memory: tests count
// received requests and inject 5xx answers through its /_test endpoints.
// One server process serves the whole run (--restart-on-message): 'stop' and 'start' are
// messages on its IPC channel, and it stops as on SIGTERM but stays, then starts again in the
// same process from a copy of the database its first start made and migrated (--template),
// the dataset loaded afresh, with a new store, change feed and test hooks: nothing of the run
// before is kept, as in a new process. A new process at each start took longer, at a load of 20
// on 2 cores, than the 20 s a browser waits for a command's answer (numbers in CONTRIBUTING.md).
//
// The URL stays the same across restarts without asking for a port again
// (another process may have taken it meanwhile): this plugin keeps one
// listening socket, on a port the OS picked, for the whole run, and relays
// each connection to the server of the moment, itself on a port the OS picks
// at each start. While the server is stopped, connections are reset.
//
// Its temporary directory (the bundle and the database template, some 40 MB) goes with the run,
// however the run ends. web-test-runner stops its plugins on SIGINT (Ctrl-C) itself, but leaves
// SIGTERM and SIGHUP to their default action, which ends the process before any 'exit' listener
// runs: on those this plugin stops its server, removes the directory and ends the process.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { bundleServerSource } from './server-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const EXIT_WITH_PARENT = new URL('wtr-exit-with-parent.js', import.meta.url).href;
/** How long others that handle SIGTERM or SIGHUP get to finish before the plugin ends the process. */
const OTHERS_GRACE_MS = 5_000;

/** @param {{ dataset: string }} options path of the dataset (import shape), relative to the project root */
export function remoteServerPlugin({ dataset }) {
  /** The server process, from its first start to the end of the run (null before, or once it exited). */
  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
  /** Where the server listens while started; null while stopped. */
  /** @type {{ host: string, port: number } | null} */
  let target = null;
  /** The listening socket tests connect to, and the URL it gives them. */
  /** @type {import('node:net').Server | null} */
  let front = null;
  /** @type {string | null} */
  let url = null;
  /** Relayed connections, ended with the server they reach. */
  const relayed = new Set();
  // A server that cannot start fails the tests that use it, not the whole run.
  /** @type {Error | null} */
  let startError = null;
  /** The server's source bundled once for the run (QUESTBOARD_SERVER_BUNDLE), and its database template. */
  const bundleDirectory = mkdtempSync(join(tmpdir(), 'questboard-remote-server-'));
  // Also when the runner ends without stopping its plugins (an error of its own, a second Ctrl-C).
  process.once('exit', () => rmSync(bundleDirectory, { recursive: true, force: true }));
  // Left to their default action, these would end the process before that listener runs.
  process.on('SIGTERM', endOnSignal).on('SIGHUP', endOnSignal);
  const bundle = join(bundleDirectory, 'serve.mjs');
  const template = join(bundleDirectory, 'database.tar');
  /** Set by the first SIGTERM or SIGHUP. */
  let ending = false;

  /** @param {import('node:net').Socket} socket */
  function relay(socket) {
    if (target === null) {
      socket.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    const pair = [socket, upstream];
    relayed.add(pair);
    const end = () => {
      relayed.delete(pair);
      socket.destroy();
      upstream.destroy();
    };
    for (const side of pair) side.on('error', end).on('close', end);
    socket.pipe(upstream).pipe(socket);
  }

  function endRelayed() {
    for (const [socket, upstream] of relayed) {
      socket.destroy();
      upstream.destroy();
    }
  }

  /** @param {string} hostname */
  async function listenFront(hostname) {
    front = createServer(relay);
    front.listen(0, hostname);
    await once(front, 'listening');
    return /** @type {import('node:net').AddressInfo} */ (front.address()).port;
  }

  /** The server process, started; it answers { listening: url } once ready. */
  async function spawnServer() {
    await bundleServerSource(bundle, { testServer: true });
    const server = spawn(
      process.execPath,
      [
        '--import',
        EXIT_WITH_PARENT,
        'scripts/serve.js',
        '--port',
        '0',
        '--memory',
        '--allow-bootstrap',
        // Remote tests send refused keys on purpose, all from 127.0.0.1: no failed-auth limit here.
        '--failed-auth-limit',
        '0',
        '--data',
        dataset,
        '--test-hooks',
        '--template',
        template,
        '--restart-on-message',
      ],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: { ...process.env, QUESTBOARD_SERVER_BUNDLE: bundle } },
    );
    server.once('exit', () => {
      if (child !== server) return;
      child = null;
      target = null;
    });
    return server;
  }

  /**
   * The server's answer to what it was asked; rejects if it exits instead.
   * @param {import('node:child_process').ChildProcess} server
   */
  function answerOf(server) {
    return new Promise((resolve, reject) => {
      /** @param {unknown} message */
      const answered = (message) => {
        server.off('exit', exited);
        resolve(message);
      };
      /** @param {number | null} code */
      const exited = (code) => {
        server.off('message', answered);
        reject(new Error(`the reference server exited with ${code} before it answered`));
      };
      server.once('message', answered).once('exit', exited);
    });
  }

  async function start() {
    if (target) return;
    let answer;
    if (child === null) {
      child = await spawnServer();
      answer = answerOf(child);
    } else {
      answer = answerOf(child);
      child.send('start');
    }
    const serverUrl = new URL((await answer).listening);
    target = { host: serverUrl.hostname, port: Number(serverUrl.port) };
    if (url === null) {
      serverUrl.port = String(await listenFront(serverUrl.hostname));
      url = serverUrl.origin;
    }
  }

  /** Stops the server process and the relay, and removes the directory: the end of the run. */
  async function stopServer() {
    target = null;
    if (child) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    endRelayed();
    front?.close();
    rmSync(bundleDirectory, { recursive: true, force: true });
  }

  /**
   * Stops the server, then ends the process with the status a shell gives one the signal ended.
   * @param {NodeJS.Signals} signal
   */
  async function endOnSignal(signal) {
    const status = 128 + constants.signals[signal];
    // A second signal does not wait for the server, which leaves with this process
    // (wtr-exit-with-parent.js); the 'exit' listener still removes the directory.
    if (ending) process.exit(status);
    ending = true;
    await stopServer();
    // Whoever else handles the signal stops listening once done (puppeteer, which closes its browser
    // and removes the browser's profile directory): they get a grace period to finish.
    for (let waited = 0; waited < OTHERS_GRACE_MS && process.listenerCount(signal) > 1; waited += 50) await sleep(50);
    process.exit(status);
  }

  async function stop() {
    if (!target || !child) return;
    target = null;
    const answer = answerOf(child);
    child.send('stop');
    await answer;
    endRelayed();
  }

  return {
    name: 'questboard-remote-server',
    async serverStart() {
      await start().catch((error) => {
        startError = error;
        console.error(`questboard-remote-server: ${error.message}`);
      });
    },
    serverStop: stopServer,
    /** @param {{ command: string, payload?: { action?: string } }} message */
    async executeCommand({ command, payload }) {
      if (command !== 'remote-server') return undefined;
      switch (payload?.action) {
        case 'url':
          if (url === null) throw new Error(`the reference server did not start: ${startError?.message}`);
          return url;
        case 'stop':
          await stop();
          return true;
        case 'start':
          await start();
          return true;
        default:
          throw new Error(`remote-server: unknown action ${JSON.stringify(payload?.action)}`);
      }
    },
  };
}
