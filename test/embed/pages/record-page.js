// Test pages only: records CSP violations and console lines for the embed tests to read.
window.pageRecord = { violations: [], console: [] };
document.addEventListener('securitypolicyviolation', (event) => {
  window.pageRecord.violations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`,
  );
});
for (const level of ['info', 'warn', 'error', 'log']) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    window.pageRecord.console.push(`${level}: ${args.join(' ')}`);
    original(...args);
  };
}
// Whether a leaderboard container already held rows when the page's DOM was ready (a kept answer).
document.addEventListener('DOMContentLoaded', () => {
  window.pageRecord.rowsAtDomContentLoaded = document.querySelectorAll('[data-questboard-leaderboard] tbody tr').length;
});
