// A web-test-runner reporter that writes the run's totals per engine as JSON
// ({ chromium: { passed, failed, skippedTests }, firefox: … }) to a file, for
// the closing line of scripts/test.js. Each engine runs in its own
// test-runner process (scripts/test-browsers.js), with a file of its own.
// Unlike the progress bar's figures it counts a test file that failed without
// a failing test (a load error, a failing hook) as one failure, so a broken
// file can never read as "0 failed".
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

function countTests(suite, totals, path) {
  for (const test of suite.tests) {
    if (test.skipped) totals.skippedTests.push([...path, test.name].join(' > '));
    else if (test.passed) totals.passed += 1;
    else totals.failed += 1;
  }
  for (const child of suite.suites) countTests(child, totals, [...path, child.name]);
}

function countResults(sessions) {
  /** @type {{ passed: number, failed: number, skippedTests: string[] }} */
  const totals = { passed: 0, failed: 0, skippedTests: [] };
  for (const session of sessions) {
    const failedBefore = totals.failed;
    if (session.testResults) countTests(session.testResults, totals, [relative(process.cwd(), session.testFile)]);
    if (!session.passed && totals.failed === failedBefore) totals.failed += 1;
  }
  return totals;
}

export function summaryReporter({ file, engine }) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = countResults(sessions);
      // Every skipped test by name (each says why in its title): none is skipped silently.
      for (const name of totals.skippedTests) console.log(`skipped in ${engine}: ${name}`);
      if (!file) return;
      mkdirSync(dirname(file), { recursive: true });
      const engines = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
      engines[engine] = totals;
      writeFileSync(file, `${JSON.stringify(engines)}\n`);
    },
  };
}
