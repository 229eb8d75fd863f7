// `npm run start:shared`: the demo against one Questboard server that every
// browser shares, so a presenter shows two browsers (or a browser and a
// private window) seeing the same leaderboard move. Starts the server (PGlite
// in questboard-data/demo, seeded with the demo's guild on first start), then
// Vite with the widgets pointed at it (VITE_QUESTBOARD_SERVER).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from './bundle-node.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = join(root, 'questboard-data', 'demo');
const port = process.env.QUESTBOARD_PORT ?? '8787';

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
  ['scripts/serve.js', '--data-dir', dataDir, '--port', port, '--allow-bootstrap', '--data', datasetFile],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`the Questboard server exited with ${code}`)));
  createInterface({ input: server.stdout }).on('line', (line) => {
    // Its log (a JSON line per request) is read here, not shown: the terminal is Vite's.
    const match = /listening on (http:\/\/[^"\s]+)/.exec(line);
    if (match) resolve(match[1]);
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
