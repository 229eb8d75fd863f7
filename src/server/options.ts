import { parseArgs } from 'node:util';
import { isOrigin } from '../api/formats.js';
import type { RateLimit } from '../api/schemas.js';
import { DEFAULT_STREAM_BUFFER_BYTES } from '../handler/change-stream.js';
import { DEFAULT_FAILED_AUTH_LIMIT, DEFAULT_RATE_LIMITS } from '../handler/rate-limits.js';
import { DEFAULT_CONNECTIONS } from '../store/sql/sql.js';
import { DEFAULT_STREAMS_PER_ADDRESS, DEFAULT_STREAMS_PER_KEY, type StreamLimits } from './stream-limits.js';

/** Where the data lives, in the shape the SQL store opens it. */
export type StorageOptions = { databaseUrl: string; connections?: number } | { dataDir: string } | { memory: true };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ServeOptions {
  /** The interface to listen on. */
  host: string;
  port: number;
  storage: StorageOptions;
  /** Whether an empty store takes an import authorised by a key the dataset itself lists. */
  allowBootstrap: boolean;
  /** Installation admin keys given in QUESTBOARD_ADMIN_KEYS. */
  adminKeys: string[];
  /** A file of installation admin keys, one a line. */
  adminKeysFile: string | null;
  /** How long a request may take before it is answered 503. */
  requestTimeoutMs: number;
  logLevel: LogLevel;
  /** Path of a dataset in the admin import shape, loaded into an empty store at start. */
  dataPath: string | null;
  /** Origins allowed by CORS for apps without allowed_origins of their own; `*` allows any. */
  corsOrigins: string[];
  /** Whether the last X-Forwarded-For entry is the client's address: behind a proxy that appends it. */
  trustProxy: boolean;
  /** Failed authentications (401) a client address may make every 60 s before it is answered 429; 0: no limit. */
  failedAuthLimit: number;
  /** How many event streams one client address, and one key, may hold open. */
  streamLimits: StreamLimits;
  /** Bytes an event stream's reader may leave unread before the stream is dropped. */
  streamBufferBytes: number;
  /**
   * Whether webhooks and callbacks may go to private, loopback and link-local addresses, and over
   * http: (for tests and intranets). Without it, https: to public addresses only (public-address.ts).
   */
  allowPrivateWebhooks: boolean;
  help: boolean;
}

/** A command line the server cannot run: said with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const DEFAULT_DATA_DIR = './questboard-data';
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** More streams than a process has file descriptors is a typo, not a limit. */
const MAX_STREAMS = 1_000_000;

export const USAGE = `Usage: questboard-server [options]     (from a checkout: npm run serve -- [options])
  --host HOST               interface to listen on (default ${DEFAULT_HOST}; 0.0.0.0 behind a proxy)
  --port PORT               port (0 picks a free one; default ${DEFAULT_PORT})
Where the data lives (one of):
  --data-dir DIR            an embedded PostgreSQL database in DIR (default ${DEFAULT_DATA_DIR})
  --database-url URL        a PostgreSQL server, postgres://user:password@host:5432/database
                            or by its socket, postgresql:///database?host=/var/run/postgresql
                            (or the environment's DATABASE_URL, when none of these is given)
  --memory                  in memory, lost when the server stops: for tests
  --database-connections N  with a PostgreSQL server, the connections this process keeps to it
                            (default ${DEFAULT_CONNECTIONS}; more where the database has cores to spare)
Keys:
  --admin-keys-file FILE    installation admin keys, one a line (# starts a comment); also
                            QUESTBOARD_ADMIN_KEYS=key1,key2 in the environment. Kept hashed;
                            the list replaces the stored keys, so a key left off is revoked.
  --allow-bootstrap         an empty store takes an import authorised by a key the dataset
                            itself lists: whoever reaches the server first owns it
Requests:
  --request-timeout-ms MS   answer 503 to a request still running after MS (default ${DEFAULT_REQUEST_TIMEOUT_MS});
                            imports run to their end
  --cors-origin ORIGIN      origin allowed to call the server; repeat or comma-separate for several (default: any).
                            An app's settings.allowed_origins replace it for that app's keys; a page from
                            another origin is answered 403
  --trust-proxy             the client's address (which the write limits count) is the last X-Forwarded-For
                            entry: only behind a proxy that appends it. Without it the header is ignored
  --failed-auth-limit N     failed authentications (a wrong key, a member token that does not verify) a client
                            address may make every ${DEFAULT_FAILED_AUTH_LIMIT.window_seconds} s; beyond, every request with a key is answered 429
                            with Retry-After (default ${DEFAULT_FAILED_AUTH_LIMIT.failures}; 0 turns it off)
  --event-streams-per-address N
                            event streams (GET /v1/events) one client address may hold open (default ${DEFAULT_STREAMS_PER_ADDRESS});
                            past it a stream is answered 429 with Retry-After
  --event-streams-per-key N event streams one key may hold open (default ${DEFAULT_STREAMS_PER_KEY}): a read key is shared
                            by every visitor of the pages that embed it
  --event-stream-buffer-bytes BYTES
                            unread bytes past which a slow reader's stream is dropped, with a last
                            'reconnect' event (default ${DEFAULT_STREAM_BUFFER_BYTES})
  --log-level LEVEL         ${LOG_LEVELS.join(', ')} (default info): one JSON line per request on stdout
  --data FILE               dataset in the admin import shape, loaded at start into an empty store
  --allow-private-webhooks  webhooks and callbacks may go to private, loopback and link-local
                            addresses, and over http: (tests, intranets); by default https: to
                            public addresses only
  --help                    prints this
Write limits are set per app, in its settings.rate_limits; by default ${describeDefaultLimits()}.
Over one, a write is answered 429 with Retry-After. Every process on one database shares the counts.`;

function describeDefaultLimits(): string {
  const { per_key, per_member, per_ip } = DEFAULT_RATE_LIMITS;
  const each = ({ writes, window_seconds }: RateLimit) => `${writes} writes every ${window_seconds} s`;
  return `${each(per_key)} per key,\n${each(per_member)} per member and ${each(per_ip)} per client address`;
}

export function parseServeOptions(argv: string[], env: Record<string, string | undefined> = {}): ServeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'database-connections': { type: 'string' },
        memory: { type: 'boolean' },
        'admin-keys-file': { type: 'string' },
        'allow-bootstrap': { type: 'boolean' },
        'request-timeout-ms': { type: 'string' },
        'cors-origin': { type: 'string', multiple: true },
        'trust-proxy': { type: 'boolean' },
        'failed-auth-limit': { type: 'string' },
        'event-streams-per-address': { type: 'string' },
        'event-streams-per-key': { type: 'string' },
        'event-stream-buffer-bytes': { type: 'string' },
        'log-level': { type: 'string' },
        data: { type: 'string' },
        'allow-private-webhooks': { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    // parseArgs says what is wrong with an unknown or incomplete option well; only its class is not ours.
    throw new UsageError((error as Error).message);
  }
  const corsOrigins = (values['cors-origin'] ?? ['*'])
    .flatMap((list) => list.split(','))
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  // Compared with a request's Origin as text, as an app's allowed_origins are: a pattern would match nothing.
  const unmatchable = corsOrigins.find((origin) => origin !== '*' && !isOrigin(origin));
  if (unmatchable !== undefined) {
    throw new UsageError(
      `--cors-origin takes origins as a browser sends them, scheme://host[:port] (such as https://forum.example.org), ` +
        `or * alone for any: "${unmatchable}" would match no request.`,
    );
  }
  return {
    host: nonEmpty('--host', values.host) ?? DEFAULT_HOST,
    port: integer('--port', values.port, DEFAULT_PORT, 0, 65535),
    storage: storage(values, env),
    allowBootstrap: values['allow-bootstrap'] ?? false,
    adminKeys: (env.QUESTBOARD_ADMIN_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key !== ''),
    adminKeysFile: nonEmpty('--admin-keys-file', values['admin-keys-file']) ?? null,
    requestTimeoutMs: integer('--request-timeout-ms', values['request-timeout-ms'], DEFAULT_REQUEST_TIMEOUT_MS, 1, 2 ** 31 - 1),
    logLevel: logLevel(values['log-level']),
    dataPath: nonEmpty('--data', values.data) ?? null,
    corsOrigins: corsOrigins.length === 0 ? ['*'] : corsOrigins,
    trustProxy: values['trust-proxy'] ?? false,
    failedAuthLimit: integer(
      '--failed-auth-limit',
      values['failed-auth-limit'],
      DEFAULT_FAILED_AUTH_LIMIT.failures,
      0,
      1_000_000,
    ),
    streamLimits: {
      perAddress: integer(
        '--event-streams-per-address',
        values['event-streams-per-address'],
        DEFAULT_STREAMS_PER_ADDRESS,
        1,
        MAX_STREAMS,
      ),
      perKey: integer('--event-streams-per-key', values['event-streams-per-key'], DEFAULT_STREAMS_PER_KEY, 1, MAX_STREAMS),
    },
    streamBufferBytes: integer(
      '--event-stream-buffer-bytes',
      values['event-stream-buffer-bytes'],
      DEFAULT_STREAM_BUFFER_BYTES,
      1024,
      2 ** 30,
    ),
    allowPrivateWebhooks: values['allow-private-webhooks'] ?? false,
    help: values.help ?? false,
  };
}

/**
 * One place for the data: two options naming two is a mistake to point out,
 * not one to pick a winner in. DATABASE_URL comes from the environment, which
 * a test or a one-off run does not control, so an option given overrides it.
 */
function storage(
  values: { memory?: boolean; 'data-dir'?: string; 'database-url'?: string; 'database-connections'?: string },
  env: Record<string, string | undefined>,
): StorageOptions {
  const given = [
    values.memory ? '--memory' : null,
    values['data-dir'] !== undefined ? '--data-dir' : null,
    values['database-url'] !== undefined ? '--database-url' : null,
  ].filter((option) => option !== null);
  if (given.length > 1) {
    throw new UsageError(`${given.join(' and ')} each say where the data lives: give one of them.`);
  }
  const connections = values['database-connections'];
  const embedded = (where: Exclude<StorageOptions, { databaseUrl: string }>): StorageOptions => {
    if (connections !== undefined) throw new UsageError('--database-connections needs a PostgreSQL server (--database-url).');
    return where;
  };
  if (values.memory) return embedded({ memory: true });
  const dataDir = nonEmpty('--data-dir', values['data-dir']);
  if (dataDir !== undefined) return embedded({ dataDir });
  const databaseUrl = nonEmpty('--database-url', values['database-url']) ?? (env.DATABASE_URL || undefined);
  if (databaseUrl === undefined) return embedded({ dataDir: DEFAULT_DATA_DIR });
  return { databaseUrl, connections: integer('--database-connections', connections, DEFAULT_CONNECTIONS, 1, 1000) };
}

function nonEmpty(option: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError(`${option} needs a value, got an empty one.`);
  return value;
}

function integer(option: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, got "${text}".`);
  }
  return value;
}

function logLevel(text: string | undefined): LogLevel {
  if (text === undefined) return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(text)) {
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${text}".`);
  }
  return text as LogLevel;
}
