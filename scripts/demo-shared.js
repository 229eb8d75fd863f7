// `npm run start:shared`: the demo against one Questboard server that every
// browser shares, so a presenter shows two browsers (or a browser and a
// private window) seeing the same leaderboard move. Starts the server (PGlite
// in questboard-data/demo, seeded with the demo's guild on first start), then
// Vite with the widgets pointed at it (VITE_QUESTBOARD_SERVER).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from './bundle-node.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = join(root, 'questboard-data', 'demo');
const HOST = '127.0.0.1';
const PREFERRED_PORT = 8787;

/** Whether this machine lets a server listen on the port now. */
async function isFree(port) {
  const probe = createServer();
  const free = await new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen({ host: HOST, port, exclusive: true }, () => resolve(true));
  });
  if (free) await new Promise((resolve) => probe.close(resolve));
  return free;
}

/**
 * The server's port, settled before the seeding (minutes on a first start): QUESTBOARD_PORT when
 * given, and it must be free; else 8787, or any free port (0) when something else holds 8787.
 */
async function choosePort() {
  const given = process.env.QUESTBOARD_PORT;
  if (given === undefined || given === '') {
    if (await isFree(PREFERRED_PORT)) return PREFERRED_PORT;
    console.log(
      `start:shared: port ${PREFERRED_PORT} is taken, so the Questboard server takes a free one (QUESTBOARD_PORT=N chooses).`,
    );
    return 0;
  }
  const port = Number(given);
  if (!/^\d+$/.test(given) || port > 65535) quit(`QUESTBOARD_PORT must be a port number from 0 to 65535, got "${given}".`);
  if (port !== 0 && !(await isFree(port))) {
    quit(
      `port ${port} (QUESTBOARD_PORT) is taken: choose another, e.g. QUESTBOARD_PORT=8788 npm run start:shared, or 0 for any free one.`,
    );
  }
  return port;
}

/** Says in one line why the demo cannot start, and stops. */
function quit(line) {
  process.stderr.write(`start:shared: ${line}\n`);
  process.exit(1);
}

const port = await choosePort();

// The guild the demo seeds in each browser, made once here for the server instead.
await mkdir(dataDir, { recursive: true });
const bundle = await bundleForNode('demo/dataset.ts');
const { generateDataset } = await import(bundle.file);
await bundle.remove();
const datasetFile = join(dataDir, 'guild.json');
await writeFile(datasetFile, JSON.stringify(generateDataset({ now: new Date() })));

// --data loads it into an empty store only: a restart keeps what the presenter did.
const server = spawn(
  process.execPath,
  ['scripts/serve.js', '--data-dir', dataDir, '--host', HOST, '--port', String(port), '--allow-bootstrap', '--data', datasetFile],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const url = await new Promise((resolve) => {
  // The server has said why on stderr (this terminal's), in one line.
  const stoppedEarly = (code) => quit(`the Questboard server stopped (exit code ${code}); its reason is above.`);
  server.once('exit', stoppedEarly);
  let ready = false;
  createInterface({ input: server.stdout }).on('line', (line) => {
    // Its log (a JSON line per request) is read here, not shown: the terminal is Vite's. Until it
    // listens, what it says it is doing (creating its database, loading the guild) is shown.
    const match = /listening on (http:\/\/[^"\s]+)/.exec(line);
    if (match) {
      ready = true;
      server.off('exit', stoppedEarly);
      resolve(match[1]);
    } else if (!ready) {
      console.log(`Questboard server: ${JSON.parse(line).msg}`);
    }
  });
});
console.log(`Questboard server: ${url} (data in ${dataDir}; delete it to start from the seed again)`);

const vite = spawn(process.execPath, ['node_modules/vite/bin/vite.js'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, VITE_QUESTBOARD_SERVER: url },
});
const stop = () => {
  vite.kill('SIGTERM');
  server.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
await Promise.race([once(vite, 'exit'), once(server, 'exit')]);
stop();
