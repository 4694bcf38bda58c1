/**
 * The contract must fail for broken stores. Runs `mutants/mutants.contract.ts` (six RefStores with one
 * realistic bug each) in a child vitest and checks that the test aimed at each bug fails — and that
 * the same suite passes for the unbroken MemoryRefStore (see __tests__/memory/memory-contract.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

interface JsonReport {
  testResults: { assertionResults: { ancestorTitles: string[]; title: string; status: string }[] }[];
}

/** Mutant → a test that must fail for it (substring of "<describe> > <title>"). */
const EXPECTED: Record<string, string> = {
  'lost-update': 'disjoint keys from different writers all land',
  'ignores-version': 'get and list at an old version see the old state',
  'unsorted-list': 'ascending code-unit order',
  'history-without-delete': 'newest first, including its delete',
  'partial-batch': 'all-or-nothing',
  'commits-no-ops': 'writing identical content makes no commit',
};

it('every mutant store fails the contract test aimed at its bug', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-mutants-'));
  const out = join(dir, 'report.json');
  try {
    await run(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        '__tests__/contract/mutants/vitest.config.ts',
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 32 * 1024 * 1024 },
    ).catch((e: { code?: number }) => {
      // vitest exits 1 when tests fail — that is the point here.
      if (e.code !== 1) throw e;
    });
    const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
    const results = report.testResults.flatMap((f) => f.assertionResults);
    for (const [mutant, aimed] of Object.entries(EXPECTED)) {
      const mine = results.filter((r) => r.ancestorTitles[0] === `RefStore contract: mutant ${mutant}`);
      expect(mine.length, mutant).toBeGreaterThan(20);
      const failed = mine
        .filter((r) => r.status === 'failed')
        .map((r) => [...r.ancestorTitles.slice(1), r.title].join(' > '));
      expect(
        failed.some((t) => t.includes(aimed)),
        `${mutant} should fail "${aimed}"; failed: ${JSON.stringify(failed)}`,
      ).toBe(true);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
