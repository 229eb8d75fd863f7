// A reporter for node's test runner (--test-reporter) that writes the run's
// totals as JSON, { passed, failed, skipped }, to its destination
// (--test-reporter-destination), for scripts/test.js's closing line. It reads
// the runner's own closing figures; a cancelled test (a file that never
// finished, a hook that failed) counts as failed.

/** @param {AsyncIterable<{ type: string, data: { message?: string, nesting?: number } }>} source */
export default async function* nodeSummaryReporter(source) {
  const figures = {};
  for await (const event of source) {
    if (event.type !== 'test:diagnostic' || event.data.nesting !== 0) continue;
    const match = /^(pass|fail|cancelled|skipped|todo) (\d+)$/.exec(event.data.message ?? '');
    if (match) figures[match[1]] = Number(match[2]);
  }
  const totals = {
    passed: figures.pass ?? 0,
    failed: (figures.fail ?? 0) + (figures.cancelled ?? 0),
    skipped: (figures.skipped ?? 0) + (figures.todo ?? 0),
  };
  yield `${JSON.stringify(totals)}\n`;
}
