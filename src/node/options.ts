import { parseArgs } from 'node:util';

export interface ServeOptions {
  port: number;
  /** Path of a dataset in the admin import shape, loaded at start. */
  dataPath: string | null;
  /** Origins allowed by CORS; `*` allows any. */
  corsOrigins: string[];
  /** Enables the /_test endpoints the browser tests use to count requests and inject faults. */
  testHooks: boolean;
  help: boolean;
}

export const DEFAULT_PORT = 8787;

export const USAGE = `Usage: npm run serve -- [--port 8787] [--data dataset.json] [--cors-origin https://site.example]...
  --port         port on 127.0.0.1 (0 picks a free one; default ${DEFAULT_PORT})
  --data         dataset in the admin import shape, loaded at start
  --cors-origin  origin allowed to call the server; repeat or comma-separate for several (default: any)
  --test-hooks   adds /_test/requests, /_test/fault and /_test/reset for the browser tests
  --help         prints this`;

export function parseServeOptions(argv: string[]): ServeOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      data: { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'test-hooks': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  }
  const corsOrigins = (values['cors-origin'] ?? ['*'])
    .flatMap((list) => list.split(','))
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  return {
    port,
    dataPath: values.data ?? null,
    corsOrigins: corsOrigins.length === 0 ? ['*'] : corsOrigins,
    testHooks: values['test-hooks'] ?? false,
    help: values.help ?? false,
  };
}
