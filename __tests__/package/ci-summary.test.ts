/** scripts/ci-summary.mjs: the last lines of `.ci/run` — the failing tests' names, then `N passed, N failed`. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs the script from the repository root on `report` (written as vitest's JSON report) and exit status 1. */
function summary(report: object): Promise<{ code: number; lines: string[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-ci-summary-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'report.json');
  writeFileSync(path, JSON.stringify(report));
  return new Promise((done) =>
    execFile(
      process.execPath,
      [join(ROOT, 'scripts/ci-summary.mjs'), path, '1'],
      { cwd: ROOT },
      (err, stdout, stderr) =>
        done({ code: err ? Number(err.code ?? 1) : 0, lines: stdout.trimEnd().split('\n'), stderr }),
    ),
  );
}

const test = (title: string, status: string, ancestorTitles: string[] = []) => ({ title, status, ancestorTitles });

describe('scripts/ci-summary.mjs', () => {
  it('names every failed test and every file that did not load just before the last line, N passed, N failed', async () => {
    const r = await summary({
      numPassedTests: 3,
      numFailedTests: 2,
      numPendingTests: 1,
      testResults: [
        {
          name: join(ROOT, '__tests__/viewer/live.test.ts'),
          status: 'failed',
          assertionResults: [test('polls', 'passed', ['live']), test('pauses while hidden', 'failed', ['live'])],
        },
        { name: join(ROOT, '__tests__/a.test.ts'), status: 'passed', assertionResults: [test('a', 'passed')] },
        {
          name: join(ROOT, '__tests__/b.test.ts'),
          status: 'failed',
          assertionResults: [test('b1', 'failed', ['outer', 'inner']), test('b2', 'passed'), test('b3', 'skipped')],
        },
        {
          name: join(ROOT, '__tests__/broken.test.ts'),
          status: 'failed',
          message: 'Failed to load url ./missing.js\n    at somewhere',
          assertionResults: [],
        },
      ],
    });
    expect(r.lines.slice(-6)).toEqual([
      '1 skipped (each prints its reason in the log above)',
      'failed (3):',
      '  __tests__/viewer/live.test.ts > live > pauses while hidden',
      '  __tests__/b.test.ts > outer > inner > b1',
      '  __tests__/broken.test.ts (Failed to load url ./missing.js)',
      '3 passed, 3 failed',
    ]);
    expect(r.code).toBe(1);
  });

  it('a green run ends with the count line alone, and exits with the run status', async () => {
    const r = await summary({
      numPassedTests: 1,
      numFailedTests: 0,
      testResults: [
        { name: join(ROOT, '__tests__/a.test.ts'), status: 'passed', assertionResults: [test('a', 'passed')] },
      ],
    });
    expect(r.lines).toEqual(['1 passed, 0 failed']);
    expect(r.code).toBe(1); // the run said 1 (say, a reporter error): the summary does not hide it
  });
});
