// The server's log: JSON lines on stdout through pino, one for each request
// (the access log) and one for each error nobody expected.
import { pino, type Logger } from 'pino';
import type { LogLevel } from './options.js';

export type { Logger };

/**
 * Written synchronously: an asynchronous stdout reorders the last lines when
 * the process exits (the buffer is flushed before the write under way), and
 * the lines about stopping are the ones an operator reads.
 */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: true }));
}
