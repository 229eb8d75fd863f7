// Runs in the benchmark page: registers the built worker, seeds apps through
// POST /v1/admin/import and times operations as a site's page sees them
// (fetch to the last byte of the body, through the service worker).
import { ADMIN_KEY, appFor, importBody } from './dataset.js';
import { operationsFor } from './operations.js';
import { assertSuccess, measureRounds } from './rounds.js';

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
 * `whole`, or the app given); the first chunk also brings the admin key
 * (bootstrap on an empty store) and the app definition. Returns the HTTP
 * status so the caller can shrink chunks on 413.
 */
async function importChunk({ size, appIndex, start, end, nowMs, whole = false, app = appFor(size, appIndex, { whole }) }) {
  const body = importBody(app, start, end, nowMs, { bringsAdminKey: true });
  const answer = await send({ method: 'POST', url: '/v1/admin/import', key: ADMIN_KEY, body }, null);
  if (answer.status !== 413) assertSuccess(`import of members ${start}–${end - 1}`, answer);
  return { status: answer.status, ms: answer.ms };
}

/** Times every operation against health in interleaved rounds (bench/rounds.js). */
async function measure({ size, appIndex, ...settings }) {
  return measureRounds({ operations: operationsFor(appFor(size, appIndex)), send, ...settings });
}

window.bench = { controlledByWorker, importChunk, measure };
