// The store runs on an in-memory IndexedDB: this must be set up before any store code opens it.
import 'fake-indexeddb/auto';
import { inProcessChangeFeed } from '../server/change-feed.js';
import { createHandler } from '../server/handler.js';
import { openStore } from '../store/index.js';
import { startHttpHost } from './http-host.js';
import { loadDataset } from './load-dataset.js';
import { parseServeOptions, USAGE } from './options.js';
import { withTestHooks } from './test-hooks.js';

async function serve(): Promise<void> {
  let options;
  try {
    options = parseServeOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const store = openStore();
  const changes = inProcessChangeFeed();
  const handle = createHandler({ store, changes, onChange: changes.publish });
  if (options.dataPath !== null) await loadDataset(handle, options.dataPath);
  const host = await startHttpHost(options.testHooks ? withTestHooks(handle, changes) : handle, options);
  const stop = async (signal: string) => {
    console.log(`${signal}: stopping`);
    await host.close();
    store.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(
    `Questboard reference server listening on ${host.url}\n` +
      '  It keeps its data in memory: for development and tests only; everything is lost when it stops.',
  );
}

serve().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
