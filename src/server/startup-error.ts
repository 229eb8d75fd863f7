/**
 * Why the server cannot start, in one line for its operator: what it was doing
 * and what stood in the way. The server prints it on stderr and exits with 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The reason an error gives, without its stack. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Why the server cannot listen; a port in use says how to choose another. */
export function cannotListen(host: string, port: number, error: unknown): StartupError {
  const inUse = (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
  const why = inUse
    ? 'another process uses it (EADDRINUSE); give another with --port PORT, or --port 0 for a free one'
    : reasonOf(error);
  return new StartupError(`cannot listen on ${host} port ${port}: ${why}`);
}
