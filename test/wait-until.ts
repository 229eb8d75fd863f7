// open-wc's waitUntil, with a hang guard for its timeout instead of its 1 s default. On a busy
// machine (two copies of the suite on two cores, Firefox the slower) a write through the handler
// or an element loaded on demand can take seconds, and a 1 s limit made such waits fail: a speed
// limit, which tests never set (CONTRIBUTING.md). A test that gives its own timeout keeps it.
import { waitUntil as openWcWaitUntil } from '@open-wc/testing';

/** How long a wait may last before the test says what never happened: a hang, not slowness. */
const HANG_GUARD_MS = 15_000;

export function waitUntil(
  predicate: () => unknown,
  message?: string,
  options: { interval?: number; timeout?: number } = {},
): Promise<void> {
  return openWcWaitUntil(predicate, message, { timeout: HANG_GUARD_MS, ...options });
}
