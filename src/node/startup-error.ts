/**
 * Why the server cannot start, in one line for its operator: what it was doing
 * and what stood in the way. The server prints it on stderr and exits with 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The reason an error gives, without its stack. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
