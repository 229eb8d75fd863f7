// For tests only: the Questboard server (src/server/serve.ts, with the flags of questboard-server)
// and the /_test/ routes of test-hooks.ts, run by `node scripts/serve.js --test-hooks …` (the node
// tests' servers, and the browser tests' reference server, scripts/wtr-remote-server.js). The
// shipped server has neither.
// One flag of its own, --template FILE, for a server in memory started again and again: the first
// start keeps its database, once migrated, in FILE, and the next ones start from a copy of it
// instead of running PostgreSQL's initdb (half a minute of a start's 40 s on a busy machine).
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { main as serverMain } from '../../src/server/serve.js';
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
  const rest = at === -1 ? argv : [...argv.slice(0, at), ...argv.slice(at + 2)];
  const store = template === undefined ? undefined : await storeFrom(template);
  const clock = testClock();
  await serverMain(rest, process.env, {
    store,
    now: clock.now,
    wrapHandle: (handle, changes) => withTestHooks(handle, changes, clock),
  });
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
