// The embedded default keeps what it answered: every write the server answers
// on PGlite in a data directory has had its WAL synced to the disk, seen in
// the system calls of the server process (strace), not taken on trust.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { START_MS, startServer, WAIT_MS } from './reference-server.js';

/** @import { RunningServer } from './reference-server.js' */
import { cannot, installed } from './storage-faults.js';

const DATASET = 'test/remote/remote-dataset.json';
const WRITES = 20;

/**
 * Traces the fsync and fdatasync calls of every thread of process `pid` into `file`, with the
 * path of each file synced (-y). Resolves once every thread is traced; `stop()` detaches.
 * @param {number} pid
 * @param {string} file
 */
async function traceSyncs(pid, file) {
  const tracer = spawn('strace', ['-f', '-y', '-e', 'trace=fsync,fdatasync', '-o', file, '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`strace did not attach: ${stderr}`)), WAIT_MS);
      // "Process N attached with M threads": every thread of the process, at once.
      tracer.stderr.on('data', (chunk) => {
        stderr += chunk;
        if (stderr.includes('attached')) {
          clearTimeout(timer);
          resolve();
        }
      });
      tracer.on('exit', () => reject(new Error(`strace ended: ${stderr}`)));
    })
  );
  return {
    async stop() {
      const ended = once(tracer, 'exit');
      tracer.kill('SIGINT');
      await ended;
    },
  };
}

describe('PGlite in a data directory', () => {
  /** @type {string | undefined} */
  let directory;
  /** @type {RunningServer} */
  let server;
  after(async () => {
    await server?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('syncs the WAL of every write before answering it', async (t) => {
    if (!(await installed('strace'))) return cannot(t, 'strace is not installed', 'apt-get install strace');
    directory = await mkdtemp(join(tmpdir(), 'questboard-durable-'));
    server = await startServer(['--data-dir', join(directory, 'data'), '--allow-bootstrap', '--data', DATASET], {
      startMs: START_MS,
    });
    const trace = join(directory, 'syncs.trace');
    const tracing = await traceSyncs(server.pid, trace);
    let answered = 0;
    try {
      for (let write = 0; write < WRITES; write++) {
        const answer = await fetch(`http://127.0.0.1:${server.port}/v1/endorse_account`, {
          method: 'POST',
          headers: { Authorization: 'Bearer pk_guild', 'Content-Type': 'application/json' },
          body: JSON.stringify({ app_id: 'guild', from_account: 'alice', to_account: 'bob', endorsement_id: `kept-${write}` }),
        });
        assert.equal(answer.status, 200, await answer.text());
        answered++;
      }
    } finally {
      await tracing.stop();
    }
    const syncs = (await readFile(trace, 'utf8')).split('\n').filter((line) => /f(data)?sync\(\d+<[^>]*\/pg_wal\//.test(line));
    assert.ok(syncs.length >= answered, `${answered} writes answered, ${syncs.length} syncs of the WAL`);
  });
});
