// The Questboard server: the /v1 handler on Node's HTTP server, over the
// server's store. `main` is the questboard-server command (bin/) and
// `npm run serve` (scripts/serve.js).
import { isEmpty } from '../core/dataset.js';
import { inProcessChangeFeed, type InProcessChangeFeed } from '../handler/change-feed.js';
import { changeStreams } from '../handler/change-stream.js';
import { postgresChangeFeed, type SharedChangeFeed } from './postgres-change-feed.js';
import { createHandler, type Handle } from '../handler/handler.js';
import { createReadAhead } from '../handler/read-ahead.js';
import { createRateLimiter, DEFAULT_FAILED_AUTH_LIMIT } from '../handler/rate-limits.js';
import { sqlRateCounters } from '../store/sql/index.js';
import { installAdminKeys, readInstallationKeys } from './admin-keys.js';
import { defaultConsoleDirectory, readConsoleFiles, serveConsole } from './console-files.js';
import { checkCanListen, startHttpHost, type HttpHost } from './http-host.js';
import { sharingReads } from './shared-reads.js';
import { loadDataset } from './load-dataset.js';
import { createLogger, type Logger } from './logger.js';
import { parseServeOptions, USAGE, UsageError, type ServeOptions } from './options.js';
import type { Store } from '../store/index.js';
import type { SqlStore } from '../store/sql/index.js';
import { startWebhookDelivery, type WebhookDelivery } from './webhook-delivery.js';
import { createCallbackCheck, handlersCallbackCheck } from './callback-check.js';
import { createsDatabase, describeStorage, openServerStore, sharesChanges } from './server-store.js';
import { reasonOf, StartupError } from './startup-error.js';

/**
 * Runs the server until SIGTERM or SIGINT. Exits with 2 for a command line it
 * cannot run (with the usage), with 1 when it cannot start (one line on
 * stderr saying why), and with 0 once stopped.
 */
export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  extensions?: Extensions,
): Promise<void> {
  const options = optionsOrExit(argv, env);
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const logger = createLogger(options.logLevel);
  // Heard from before the start: a signal while it starts (a Ctrl-C during a long first start, a
  // caller stopping it the moment it says it listens) ends the process by its exit handlers, never
  // by the default action that kills it outright and leaves its temporary files.
  let running: Running | null = null;
  stopOnSignals(() => running, logger);
  running = await startOrExit(options, logger, extensions);
}

/** The options of a command line, or the process exits with 2 and the usage. */
export function optionsOrExit(argv: string[], env: Record<string, string | undefined>): ServeOptions {
  try {
    return parseServeOptions(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`questboard-server: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
}

/** Starts the server, or the process exits with 1 and one line on stderr saying why. */
export async function startOrExit(options: ServeOptions, logger: Logger, extensions?: Extensions): Promise<Running> {
  try {
    return await start(options, logger, extensions);
  } catch (error) {
    // What could not start and why, never a stack: anything but a StartupError is at least said as such.
    const line = error instanceof StartupError ? error.message : `could not start: ${reasonOf(error)}`;
    process.stderr.write(`questboard-server: ${line}\n`);
    process.exit(1);
  }
}

export interface Running {
  host: HttpHost;
  store: Store;
  /** Where the processes share PostgreSQL, the feed that hears every process's change notices. */
  sharedChanges: SharedChangeFeed | null;
  /** Delivers the webhooks the store's outbox keeps; null where the store has none (a benchmark's). */
  webhooks: WebhookDelivery | null;
}

/**
 * What a caller changes in the server it starts, the shipped command nothing: `npm run bench:server`
 * (bench/server-host.js) and the tests' server (test/hosts/test-server.ts).
 */
export interface Extensions {
  /** The store, opened by the caller (over a driver that times each statement, or from a copy of a database). */
  store?: Store;
  /** Wraps what the host serves, given the change feed (the benchmark adds its statement report, the tests their /_test/ routes). */
  wrapHandle?: (handle: Handle, changes: InProcessChangeFeed) => Handle;
  /** The clock of the handler, the webhooks and the callback checks (the tests move it a day on); absent: Date.now. */
  now?: () => number;
}

/** Starts the server as configured: its store, admin keys, dataset, change feed, limits and host. */
export async function start(options: ServeOptions, logger: Logger, extensions: Extensions = {}): Promise<Running> {
  const { now = Date.now } = extensions;
  const installationKeys = await readInstallationKeys(options);
  // Said before the minutes a new database and a dataset may take, not after them.
  await checkCanListen(options.host, options.port);
  const store = extensions.store ?? (await openStore(options.storage, logger));
  try {
    const onUnexpectedError = (error: unknown, request: Request) =>
      logger.error({ err: error, reqId: request.headers.get('X-Request-Id') }, 'unexpected error');
    // The operator's keys first: the dataset is imported with one of them, and never brings its own.
    await installAdminKeys(store, installationKeys);
    if (options.dataPath !== null) {
      const began = performance.now();
      logger.info(`--data ${options.dataPath}: loading it, if the store holds no app`);
      const load = {
        adminKey: installationKeys[0]?.key ?? null,
        allowBootstrap: options.allowBootstrap,
        allowPrivateWebhooks: options.allowPrivateWebhooks,
        onUnexpectedError,
      };
      if (await loadDataset(store, options.dataPath, load)) {
        logger.info(`--data ${options.dataPath}: loaded in ${secondsSince(began)}`);
      } else {
        logger.warn(
          `--data ${options.dataPath}: not loaded, as the store holds data already; ` +
            'POST it to /v1/admin/import to merge it in.',
        );
      }
    }
    if (!options.allowBootstrap && (await store.read(isEmpty))) {
      logger.warn(
        'This server has no admin key yet, so nothing can be imported: set QUESTBOARD_ADMIN_KEYS or --admin-keys-file.',
      );
    }
    // On PostgreSQL several processes may serve one community: each hears the others' writes,
    // and its own, from the database (the store announces them); elsewhere the handler publishes.
    const sharedChanges = sharesChanges(options.storage) ? await postgresChangeFeed(options.storage.databaseUrl, logger) : null;
    const changes = sharedChanges ?? inProcessChangeFeed();
    // One limiter for both: the read-ahead counts a write ahead as the limiter last limited its key.
    const failedAuthLimit = { ...DEFAULT_FAILED_AUTH_LIMIT, failures: options.failedAuthLimit };
    const limiter = createRateLimiter(sqlRateCounters, options.failedAuthLimit === 0 ? null : failedAuthLimit);
    const handle = sharingReads(
      createHandler({
        store,
        changeStreams: changeStreams(changes, { bufferBytes: options.streamBufferBytes }),
        onChange: sharedChanges ? undefined : changes.publish,
        limiter,
        readAhead: createReadAhead(undefined, limiter),
        allowBootstrap: options.allowBootstrap,
        adminKeysFromDatasets: false,
        allowPrivateWebhooks: options.allowPrivateWebhooks,
        checkCallback: handlersCallbackCheck(createCallbackCheck({ allowPrivate: options.allowPrivateWebhooks }, now)),
        now: () => new Date(now()),
        onUnexpectedError,
      }),
    );
    const consoleFile = serveConsole(await readConsoleFiles(defaultConsoleDirectory()));
    const served: Handle = (request, context) => {
      const file = consoleFile(request);
      return file ? Promise.resolve(file) : handle(request, context);
    };
    const host = await startHttpHost(extensions.wrapHandle?.(served, changes) ?? served, { ...options, logger });
    logger.info({ storage: describeStorage(options.storage) }, `Questboard server listening on ${host.url}`);
    // Delivered from the start: what a stopped or killed process left undelivered goes now.
    const outbox = (store as Partial<SqlStore>).webhookOutbox;
    const webhooks = outbox
      ? startWebhookDelivery(outbox, {
          logger,
          allowPrivate: options.allowPrivateWebhooks,
          alone: !sharesChanges(options.storage),
          now,
        })
      : null;
    return { host, store, sharedChanges, webhooks };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Opens the server's store, saying so when that first creates its database, which takes a while. */
async function openStore(storage: ServeOptions['storage'], logger: Logger): Promise<Store> {
  const onStorageFailure = (error: Error) =>
    logger.error({ err: error }, 'the data directory failed: every request is refused until the server is restarted');
  if (!(await createsDatabase(storage))) return openServerStore(storage, onStorageFailure);
  const began = performance.now();
  logger.info(`creating a new database in ${describeStorage(storage)}: the first start takes up to a minute`);
  const store = await openServerStore(storage, onStorageFailure);
  logger.info(`the database is ready, created in ${secondsSince(began)}`);
  return store;
}

const secondsSince = (began: number) => `${((performance.now() - began) / 1000).toFixed(1)} s`;

/**
 * Stops a server gracefully: no new connections, the requests under way finish
 * (within the host's grace), then the webhook delivery, the change feed's
 * connection and the store close.
 */
export async function stopRunning({ host, store, sharedChanges, webhooks }: Running): Promise<void> {
  await host.close();
  await webhooks?.stop();
  await sharedChanges?.close();
  await store.close();
}

/**
 * The first signal stops the server running now (`current`; none while it starts, or while the
 * tests' server is stopped between its restarts) and ends the process. A second signal ends it at once.
 */
export function stopOnSignals(current: () => Running | null, logger: Logger): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'stopping at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping: no new connections, finishing the requests under way');
    const running = current();
    try {
      if (running !== null) await stopRunning(running);
    } catch (error) {
      logger.error({ err: error }, 'the server did not stop cleanly');
      process.exit(1);
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}
