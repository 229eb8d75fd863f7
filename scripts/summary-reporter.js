// A web-test-runner reporter that writes the run's totals as JSON
// ({ passed, failed, skipped }) to a file, for .ci/run's closing line.
// Unlike the progress bar's figures it counts a test file that failed without
// a failing test (a load error, a failing hook) as one failure, so a broken
// file can never read as "0 failed".
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

function countTests(suite, totals) {
  for (const test of suite.tests) {
    if (test.skipped) totals.skipped += 1;
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite.suites) countTests(child, totals);
}

function countResults(sessions) {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const session of sessions) {
    const failedBefore = totals.failed;
    if (session.testResults) countTests(session.testResults, totals);
    if (!session.passed && totals.failed === failedBefore) totals.failed += 1;
  }
  return totals;
}

/** @param {{ file?: string }} options without a file the reporter does nothing */
export function summaryReporter({ file } = {}) {
  return {
    onTestRunFinished({ sessions }) {
      if (!file) return;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(countResults(sessions))}\n`);
    },
  };
}
