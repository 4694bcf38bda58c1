// Prints the plain "N passed, N failed" line CI reads, from vitest's JSON report, and exits with the
// test run's status (non-zero if the report is missing or says a test failed).
import { existsSync, readFileSync } from 'node:fs';

const [reportPath, statusArg] = process.argv.slice(2);
const status = Number(statusArg ?? 1);
if (!reportPath || !existsSync(reportPath)) {
  console.log('0 passed, 1 failed');
  console.error(`ci-summary: no vitest report at ${reportPath} (the test run crashed before reporting)`);
  process.exit(status || 1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const passed = report.numPassedTests ?? 0;
// A file that fails to load has no failed test of its own: count it once as a failure.
const brokenFiles = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (passed === 0 && failed === 0) {
  console.log('0 passed, 1 failed');
  console.error('ci-summary: no test ran');
  process.exit(1);
}
// Skipped tests are reported on their own line: the last line stays exactly `N passed, N failed`.
if (skipped) console.log(`${skipped} skipped (each prints its reason in the log above)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : status);
