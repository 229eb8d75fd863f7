// Runs in the benchmark page: registers the built worker, seeds apps through
// POST /v1/admin/import and times operations as a site's page sees them
// (fetch to the last byte of the body, through the service worker).
import { ADMIN_KEY, appDefinition, appFor, memberChunk } from './dataset.js';
import { operationsFor } from './operations.js';

const REQUEST_TIMEOUT_MS = 30_000;

/** `timeoutMs: null` for imports: however long a large one takes, the seeding waits for it. */
async function send({ method, url, key, body }, timeoutMs = REQUEST_TIMEOUT_MS) {
  const headers = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
}

function assertSuccess(what, { status, text }) {
  let valid = false;
  try {
    valid = JSON.parse(text).is_valid === true;
  } catch {
    // not JSON: reported below
  }
  if (status !== 200 || !valid) throw new Error(`${what}: HTTP ${status} ${text.slice(0, 300)}`);
}

async function controlledByWorker() {
  const registration = await navigator.serviceWorker.register('/questboard-sw.js', { scope: '/' });
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the worker did not take control within 20 s')), 20_000);
      navigator.serviceWorker.addEventListener('controllerchange', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  return registration.active?.scriptURL ?? navigator.serviceWorker.controller.scriptURL;
}

/**
 * Imports members [start, end) of the app of this size (or of its twin,
 * `whole`); the first chunk also brings the admin key (bootstrap on an empty
 * store) and the app definition. Returns the HTTP status so the caller can
 * shrink chunks on 413.
 */
async function importChunk({ size, appIndex, start, end, nowMs, whole = false }) {
  const app = appFor(size, appIndex, { whole });
  const members = memberChunk(app, start, end, nowMs);
  const dataset = start === 0 ? { admin_keys: [ADMIN_KEY], apps: [{ ...appDefinition(app), ...members }] } : { apps: [members] };
  const answer = await send({ method: 'POST', url: '/v1/admin/import', key: ADMIN_KEY, body: dataset }, null);
  if (answer.status !== 413) assertSuccess(`import of members ${start}–${end - 1}`, answer);
  return { status: answer.status, ms: answer.ms };
}

/**
 * Runs every operation once per round, interleaved, so the baseline shares the
 * conditions of the operations it is compared with. Warm-up rounds are not
 * kept. Each phase also stops at its time budget (after a minimum of rounds),
 * so a slow operation bounds the run instead of stretching it.
 */
async function measure({ size, appIndex, rounds, warmupRounds, minRounds, warmupBudgetMs, budgetMs }) {
  const operations = operationsFor(appFor(size, appIndex));
  const samples = Object.fromEntries(operations.map(({ name }) => [name, []]));
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

window.bench = { controlledByWorker, importChunk, measure };
