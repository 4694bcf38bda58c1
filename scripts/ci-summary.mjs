// Prints the plain "N passed, N failed" line CI reads, from vitest's JSON report, and exits with the
// test run's status (non-zero if the report is missing or says a test failed). The failing tests' names
// come just before that line, so the end of a long CI log says what failed without scrolling back.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [reportPath, statusArg] = process.argv.slice(2);
const status = Number(statusArg ?? 1);
if (!reportPath || !existsSync(reportPath)) {
  console.log('0 passed, 1 failed');
  console.error(`ci-summary: no vitest report at ${reportPath} (the test run crashed before reporting)`);
  process.exit(status || 1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const files = report.testResults ?? [];
const passed = report.numPassedTests ?? 0;
const failures = failedNames(files);
// A file that fails to load has no failed test of its own: it is counted once as a failure (failedNames).
const brokenFiles = failures.filter((f) => f.file).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (passed === 0 && failed === 0) {
  console.log('0 passed, 1 failed');
  console.error('ci-summary: no test ran');
  process.exit(1);
}
// Skipped tests and the failing tests' names come on lines of their own: the last line stays exactly
// `N passed, N failed`, and the names sit right above it (stdout, like that line, so they stay in order).
if (skipped) console.log(`${skipped} skipped (each prints its reason in the log above)`);
if (failures.length) {
  console.log(`failed (${failures.length}):`);
  for (const f of failures) console.log(`  ${f.name}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : status);

/**
 * Every failed test as `file > describe > test`, and every file that failed without a failed test of its
 * own (it did not load, or a hook failed) as `file (message's first line)` with `file: true`.
 */
function failedNames(results) {
  const out = [];
  for (const r of results) {
    const file = relative(process.cwd(), r.name ?? '?') || r.name;
    const tests = (r.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of tests) out.push({ name: [file, ...(a.ancestorTitles ?? []), a.title].join(' > ') });
    if (r.status === 'failed' && tests.length === 0) {
      const why = String(r.message ?? '').split('\n')[0] || 'the file failed';
      out.push({ name: `${file} (${why})`, file: true });
    }
  }
  return out;
}
