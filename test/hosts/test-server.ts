// For tests only: the Questboard server (src/server/serve.ts, with the flags of questboard-server)
// and the /_test/ routes of test-hooks.ts, run by `node scripts/serve.js --test-hooks …` (the node
// tests' servers, and the browser tests' reference server, scripts/wtr-remote-server.js). The
// shipped server has neither.
// Two flags of its own, for a server in memory that the tests stop and start again and again:
//   --template FILE        the first start keeps its database, once migrated, in FILE, and the next
//                          ones start from a copy of it instead of running PostgreSQL's initdb
//                          (half a minute of a start's 40 s on a busy machine)
//   --restart-on-message   (with --template, spawned with an IPC channel) the parent's 'stop' stops
//                          the server as SIGTERM would, but the process stays; its 'start' starts it
//                          again, on a new port, from a new copy of the template with the dataset
//                          loaded afresh, skipping the start of Node and PGlite that made a
//                          new process's too slow for the browser tests. Each start answers
//                          { listening: url }, each stop { stopped: true }.
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { createLogger } from '../../src/server/logger.js';
import {
  main as serverMain,
  optionsOrExit,
  startOrExit,
  stopOnSignals,
  stopRunning,
  type Running,
} from '../../src/server/serve.js';
import type { Store } from '../../src/store/index.js';
import { openSqlStore } from '../../src/store/sql/index.js';
import { pgliteDriverOf } from '../../src/store/sql/pglite-driver.js';
import { testClock, withTestHooks } from './test-hooks.js';

export async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--template');
  const template = at === -1 ? undefined : argv[at + 1];
  if (at !== -1 && (template === undefined || !argv.includes('--memory'))) {
    throw new Error('--template FILE goes with --memory');
  }
  const restartOnMessage = argv.includes('--restart-on-message');
  const rest = (at === -1 ? argv : [...argv.slice(0, at), ...argv.slice(at + 2)]).filter((arg) => arg !== '--restart-on-message');
  if (!restartOnMessage) {
    const store = template === undefined ? undefined : await storeFrom(template);
    const clock = testClock();
    await serverMain(rest, process.env, {
      store,
      now: clock.now,
      wrapHandle: (handle, changes) => withTestHooks(handle, changes, clock),
    });
    return;
  }
  const send = process.send?.bind(process);
  if (template === undefined || send === undefined) {
    throw new Error('--restart-on-message goes with --template FILE, in a process spawned with an IPC channel');
  }
  const options = optionsOrExit(rest, process.env);
  const logger = createLogger(options.logLevel);
  // A clock of its own at each start, as a new process would have: nothing of the run before is kept.
  const startAfresh = async () => {
    const clock = testClock();
    return startOrExit(options, logger, {
      store: await storeFrom(template),
      now: clock.now,
      wrapHandle: (handle, changes) => withTestHooks(handle, changes, clock),
    });
  };
  let running: Running | null = null;
  stopOnSignals(() => running, logger);
  running = await startAfresh();
  // While stopped nothing else keeps the process alive until the next 'start'; the channel
  // still ends it with its parent (scripts/wtr-exit-with-parent.js).
  process.channel?.ref();
  // Handled one after the other, in the order sent: a start never overlaps the stop before it.
  let handled = Promise.resolve();
  process.on('message', (message) => {
    handled = handled.then(async () => {
      if (message === 'stop') {
        const stopping = running;
        running = null;
        if (stopping !== null) await stopRunning(stopping);
        send({ stopped: true });
      } else if (message === 'start') {
        running ??= await startAfresh();
        send({ listening: running.host.url });
      }
    });
  });
  send({ listening: running.host.url });
}

/** A store in memory: a copy of the template's database, or a new one then kept as the template. */
async function storeFrom(template: string): Promise<Store> {
  const kept = existsSync(template);
  const db = await PGlite.create(kept ? { loadDataDir: new Blob([await readFile(template)]) } : {});
  const store = await openSqlStore({ driver: pgliteDriverOf(db) });
  if (!kept) {
    // Written beside it, then renamed: a start never reads half a template.
    const dump = await db.dumpDataDir('none');
    await writeFile(`${template}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
    await rename(`${template}.${process.pid}`, template);
  }
  return store;
}
