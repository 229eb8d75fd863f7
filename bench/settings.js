// The command line both benchmarks share (bench/run.js in the browser, bench/server-run.js on
// the server): the sizes, the timing rounds and --no-docs, read and checked here; each adds
// options of its own.
import { parseArgs } from 'node:util';

/**
 * Reads the shared options and the caller's `options` (node:util parseArgs). Prints `usage`
 * and exits with 2 when a shared value is invalid; `refuse()` does the same for the caller's
 * own. `timing` is what bench/rounds.js `measureRounds` takes.
 */
export function readSettings({ defaultSizes, minSize, options, usage }) {
  const refuse = () => {
    console.error(usage);
    process.exit(2);
  };
  const known = {
    sizes: { type: 'string', default: defaultSizes },
    rounds: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '20' },
    'no-docs': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
    ...options,
  };
  /** @type {ReturnType<typeof parseArgs<{ options: typeof known }>>['values']} */
  let values;
  try {
    ({ values } = parseArgs({ options: known }));
  } catch (error) {
    // An unknown option or a missing value: said in one line with the usage, not a stack trace.
    console.error(/** @type {Error} */ (error).message);
    refuse();
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const sizes = values.sizes.split(',').map(Number);
  const rounds = Number(values.rounds);
  const timing = {
    rounds,
    warmupRounds: Number(values.warmup),
    // Per size: keeps the whole run near ten minutes even where an operation is slow.
    minRounds: Math.min(20, rounds),
    warmupBudgetMs: 10_000,
    budgetMs: 60_000,
  };
  if (sizes.some((size) => !Number.isInteger(size) || size < minSize) || !(timing.rounds > 0) || !(timing.warmupRounds >= 0)) {
    refuse();
  }
  return { values, sizes, timing, refuse };
}
