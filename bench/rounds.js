// Timing rounds, shared by the browser benchmark (bench/page.js, through the
// service worker) and the server benchmark (bench/server-run.js, over HTTP):
// each round sends every operation once, interleaved, so the baseline shares
// the conditions of the operations it is compared with.

/**
 * Throws unless the answer is HTTP 200 with `is_valid: true`.
 * @param {string} what
 * @param {{ status: number, text: string }} answer
 */
export function assertSuccess(what, { status, text }) {
  let valid = false;
  try {
    valid = JSON.parse(text).is_valid === true;
  } catch {
    // not JSON: reported below
  }
  if (status !== 200 || !valid) throw new Error(`${what}: HTTP ${status} ${text.slice(0, 300)}`);
}

/**
 * Runs every operation once per round through `send(request) → { ms, status, text }`.
 * Warm-up rounds are not kept. Each phase also stops at its time budget (after
 * a minimum of rounds), so a slow operation bounds the run instead of
 * stretching it. Returns what report.js `summarize` takes, and the rounds kept.
 * @param {{
 *   operations: import('./operations.js').Operation[],
 *   send: (request: import('./operations.js').BenchRequest) => Promise<import('./operations.js').BenchAnswer>,
 *   rounds: number, warmupRounds: number, minRounds: number, warmupBudgetMs: number, budgetMs: number,
 * }} settings
 */
export async function measureRounds({ operations, send, rounds, warmupRounds, minRounds, warmupBudgetMs, budgetMs }) {
  /** @type {Record<string, number[]>} */
  const samples = Object.fromEntries(operations.map(({ name }) => [name, []]));
  /** @type {(round: number, keep: boolean) => Promise<void>} */
  const runRound = async (round, keep) => {
    for (const { name, request } of operations) {
      const answer = await send(request(round));
      assertSuccess(`${name} (round ${round})`, answer);
      if (keep) samples[name].push(answer.ms);
    }
  };
  let round = 0;
  const warmupEnds = performance.now() + warmupBudgetMs;
  for (let warmup = 0; warmup < warmupRounds && (warmup < 1 || performance.now() < warmupEnds); warmup++) {
    await runRound(round++, false);
  }
  const measureEnds = performance.now() + budgetMs;
  let kept = 0;
  for (; kept < rounds && (kept < minRounds || performance.now() < measureEnds); kept++) await runRound(round++, true);
  return { kinds: Object.fromEntries(operations.map(({ name, kind }) => [name, kind])), samples, rounds: kept };
}
