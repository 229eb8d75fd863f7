// Loaded into a server under test (`node --expose-gc --import this scripts/serve.js`): on SIGUSR2
// it collects all garbage, twice, then prints the memory the process still holds as one JSON line
// on stdout, beside the server's own log. A test compares what is retained, not resident memory:
// how far the heap grows before a collection depends on the machine's load, what is retained not.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const collect = /** @type {() => void} */ (globalThis.gc);
  process.on('SIGUSR2', () => {
    // The second collection frees what the first only finalized (weak references, finalizers).
    collect();
    collect();
    const { heapUsed, external } = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ msg: 'memory probe', retained: heapUsed + external })}\n`);
  });
}
