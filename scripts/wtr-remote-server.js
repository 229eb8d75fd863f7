// A web-test-runner plugin that runs the reference server (`npm run serve`) on
// a port of its own, so browser tests reach a real remote cross-origin.
// Tests drive it with executeServerCommand('remote-server', { action }):
//   'url'    → the server's base URL
//   'stop'   → stops it (SIGTERM), so calls fail with a network error
//   'start'  → starts it again on the same port, with the dataset loaded afresh
// The server runs in memory with --test-hooks: tests count received requests
// and inject 5xx answers through its /_test endpoints.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** In the server's JSON log line, which ends the URL with a quote. */
const READY = /listening on (http:\/\/[^\s"]+)/;

/** @param {{ dataset: string }} options path of the dataset (import shape), relative to the project root */
export function remoteServerPlugin({ dataset }) {
  let child = null;
  let url = null;
  let port = 0;
  // A server that cannot start fails the tests that use it, not the whole run.
  let startError = null;

  async function start() {
    if (child) return;
    const server = spawn(
      process.execPath,
      ['scripts/serve.js', '--port', String(port), '--memory', '--allow-bootstrap', '--data', dataset, '--test-hooks'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = once(server, 'exit').then(([code]) => {
      throw new Error(`the reference server exited with ${code} before it was ready`);
    });
    const ready = new Promise((resolve) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        const match = READY.exec(line);
        if (match) resolve(match[1]);
      });
    });
    url = await Promise.race([ready, exited]);
    exited.catch(() => {});
    port = Number(new URL(url).port);
    child = server;
  }

  async function stop() {
    if (!child) return;
    const server = child;
    child = null;
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }

  return {
    name: 'questboard-remote-server',
    async serverStart() {
      await start().catch((error) => {
        startError = error;
        console.error(`questboard-remote-server: ${error.message}`);
      });
    },
    serverStop: stop,
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
