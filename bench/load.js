// A load run: many clients at once, each sending its next request as soon as
// the last is answered, for a fixed time. Any answer but 2xx, and any network
// error, counts as an error; the caller fails the run on one.
import { httpClient } from './http-client.js';
import { median, percentile } from './report.js';
import { seededRandom } from './seeded-random.js';

/**
 * `mix`: `[{ weight, operations }]`, each request drawn first by weight, then
 * uniformly among the operations of the group (bench/operations.js). Rounds
 * (the writes' targets) count up from `firstRound`, one per request, so no write
 * repeats another.
 */
export async function loadRun({ base, mix, clients, seconds, firstRound, seed = 1 }) {
  const client = httpClient(base, { connections: clients });
  const totalWeight = mix.reduce((sum, group) => sum + group.weight, 0);
  const latencies = [];
  const errors = new Map();
  let round = firstRound;
  let ends = 0;

  async function runClient(index) {
    const next = seededRandom(seed * 7919 + index);
    while (performance.now() < ends) {
      let pick = next() * totalWeight;
      const group = mix.find((candidate) => (pick -= candidate.weight) < 0) ?? mix.at(-1);
      const operation = group.operations[Math.floor(next() * group.operations.length)];
      let outcome;
      try {
        const { ms, status, text } = await client.send(operation.request(round++), { timeoutMs: 10_000 });
        latencies.push(ms);
        outcome = status >= 200 && status < 300 ? null : `${operation.name}: HTTP ${status} ${text.slice(0, 200)}`;
      } catch (error) {
        outcome = `${operation.name}: ${error.message}`;
      }
      if (outcome !== null) errors.set(outcome, (errors.get(outcome) ?? 0) + 1);
    }
  }

  let started;
  try {
    // Every connection opened first, by a health check each, none of it timed: opened while the
    // server is busy, a new connection waits for its first answer behind those already open
    // (Node serves them first), and 10 of 64 opened at the start of a PGlite run waited past 10 s.
    await Promise.all(Array.from({ length: clients }, () => client.send({ method: 'GET', url: '/v1/health', key: '' })));
    started = performance.now();
    ends = started + seconds * 1000;
    await Promise.all(Array.from({ length: clients }, (_, index) => runClient(index)));
  } finally {
    client.close();
  }
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    clients,
    seconds: elapsed,
    requests: sorted.length,
    perSecond: sorted.length / elapsed,
    median: sorted.length ? median(sorted) : NaN,
    p99: sorted.length ? percentile(sorted, 0.99) : NaN,
    errorCount: [...errors.values()].reduce((sum, count) => sum + count, 0),
    errors: [...errors].map(([what, count]) => ({ what, count })),
    rounds: round - firstRound,
  };
}
