// A web-test-runner plugin that runs the reference server (`npm run serve`) on
// a port of its own, so browser tests reach a real remote cross-origin.
// Tests drive it with executeServerCommand('remote-server', { action }):
//   'url'    → the server's base URL, the same for the whole run
//   'stop'   → stops it (SIGTERM), so calls fail with a network error
//   'start'  → starts it again, same URL, with the dataset loaded afresh
// The server is the tests' (test/hosts/test-server.ts, by --test-hooks), in memory: tests count
// received requests and inject 5xx answers through its /_test endpoints. Each start copies the
// database the first one made and migrated (--template): PostgreSQL's initdb made a start take
// 40 s or more at a load of 15 on 2 cores, beyond the 20 s a browser waits for a command's answer.
//
// The URL stays the same across restarts without asking for a port again
// (another process may have taken it meanwhile): this plugin keeps one
// listening socket, on a port the OS picked, for the whole run, and relays
// each connection to the server of the moment, itself on a port the OS picks
// at each start. While the server is stopped, connections are reset.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleServerSource } from './server-bundle.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const EXIT_WITH_PARENT = new URL('wtr-exit-with-parent.js', import.meta.url).href;
/** In the server's JSON log line, which ends the URL with a quote. */
const READY = /listening on (http:\/\/[^\s"]+)/;

/** @param {{ dataset: string }} options path of the dataset (import shape), relative to the project root */
export function remoteServerPlugin({ dataset }) {
  /** The server now running, and where it listens; null while stopped. */
  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
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
  /**
   * The server's source bundled once for the run (QUESTBOARD_SERVER_BUNDLE): tests stop and
   * start it again and again, and bundling at each start made a start slow on a busy machine.
   */
  const bundleDirectory = mkdtempSync(join(tmpdir(), 'questboard-remote-server-'));
  const bundle = join(bundleDirectory, 'serve.mjs');
  const template = join(bundleDirectory, 'database.tar');
  /** @type {Promise<void> | null} */
  let bundled = null;

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

  /** @param {string} hostname */
  async function listenFront(hostname) {
    front = createServer(relay);
    front.listen(0, hostname);
    await once(front, 'listening');
    return /** @type {import('node:net').AddressInfo} */ (front.address()).port;
  }

  async function start() {
    if (child) return;
    bundled ??= bundleServerSource(bundle, { testServer: true });
    await bundled;
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
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env, QUESTBOARD_SERVER_BUNDLE: bundle } },
    );
    const exited = once(server, 'exit').then(([code]) => {
      throw new Error(`the reference server exited with ${code} before it was ready`);
    });
    const ready = new Promise((resolve) => {
      createInterface({ input: /** @type {import('node:stream').Readable} */ (server.stdout) }).on('line', (line) => {
        const match = READY.exec(line);
        if (match) resolve(match[1]);
      });
    });
    const serverUrl = new URL(await Promise.race([ready, exited]));
    exited.catch(() => {});
    target = { host: serverUrl.hostname, port: Number(serverUrl.port) };
    child = server;
    if (url === null) {
      serverUrl.port = String(await listenFront(serverUrl.hostname));
      url = serverUrl.origin;
    }
  }

  async function stop() {
    if (!child) return;
    const server = child;
    child = null;
    target = null;
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
    for (const [socket, upstream] of relayed) {
      socket.destroy();
      upstream.destroy();
    }
  }

  return {
    name: 'questboard-remote-server',
    async serverStart() {
      await start().catch((error) => {
        startError = error;
        console.error(`questboard-remote-server: ${error.message}`);
      });
    },
    async serverStop() {
      await stop();
      front?.close();
      rmSync(bundleDirectory, { recursive: true, force: true });
    },
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
