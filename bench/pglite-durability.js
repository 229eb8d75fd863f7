// What durability costs a write on PGlite: the server (scripts/serve.js) in a
// fresh data directory, N writes (POST /v1/endorse_account, one after the
// other) each followed by a health check, the median of each and their ratio.
// Given --before DIR, a checkout of an earlier version (its node_modules in
// place), its server is measured too, the two alternating round by round so
// both meet the same machine:
//   node bench/pglite-durability.js [--writes 200] [--rounds 3] [--before DIR]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { writes: { type: 'string', default: '200' }, rounds: { type: 'string', default: '3' }, before: { type: 'string' } },
});
const WRITES = Number(values.writes);
const ROUNDS = Number(values.rounds);
const checkouts = [...(values.before ? [['before', resolve(values.before)]] : []), ['after', root]];

/** The server of `checkout` on a fresh data directory with the test dataset; resolves once it listens. */
async function startServer(checkout) {
  const directory = await mkdtemp(join(tmpdir(), 'questboard-durability-'));
  const args = [
    'scripts/serve.js',
    '--port',
    '0',
    '--data-dir',
    join(directory, 'data'),
    '--allow-bootstrap',
    '--data',
    'test/remote/remote-dataset.json',
  ];
  const child = spawn(process.execPath, args, { cwd: checkout, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolvePort, reject) => {
    child.on('exit', (code) => reject(new Error(`the server of ${checkout} exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) resolvePort(Number(match[1]));
    });
  });
  return {
    port,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Milliseconds `request` takes, failing on any status but 200. */
async function timed(request) {
  const start = performance.now();
  const answer = await request();
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
  return performance.now() - start;
}

const median = (samples) => samples.toSorted((a, b) => a - b)[samples.length >> 1];

async function measure(checkout, round) {
  const server = await startServer(checkout);
  const base = `http://127.0.0.1:${server.port}/v1`;
  const writes = [];
  const health = [];
  try {
    for (let index = 0; index < WRITES; index++) {
      writes.push(
        await timed(() =>
          fetch(`${base}/endorse_account`, {
            method: 'POST',
            headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json' },
            body: JSON.stringify({
              app_id: 'guild',
              from_account: 'alice',
              to_account: 'bob',
              endorsement_id: `r${round}-${index}`,
            }),
          }),
        ),
      );
      health.push(await timed(() => fetch(`${base}/health`)));
    }
  } finally {
    await server.stop();
  }
  return { write: median(writes), health: median(health) };
}

const results = new Map(checkouts.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, checkout] of checkouts) {
    const result = await measure(checkout, round);
    results.get(name).push(result);
    console.log(
      `round ${round + 1} ${name}: write ${result.write.toFixed(2)} ms, health ${result.health.toFixed(2)} ms, ` +
        `ratio ${(result.write / result.health).toFixed(2)}`,
    );
  }
}
for (const [name, rounds] of results) {
  const write = median(rounds.map((result) => result.write));
  const health = median(rounds.map((result) => result.health));
  console.log(
    `${name}: median of rounds: write ${write.toFixed(2)} ms, health ${health.toFixed(2)} ms, ratio ${(write / health).toFixed(2)}`,
  );
}
