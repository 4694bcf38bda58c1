import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [join(ROOT, 'scripts/check-dist.mjs'), ...args],
      { cwd: ROOT, encoding: 'utf8' },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('scripts/check-dist.mjs', () => {
  it('passes for the committed dist/ (a fresh ncc build of src/ is byte-identical)', async () => {
    const r = await run([]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dist/ is up to date');
  });

  it('fails with a clear message when dist/ differs from a fresh build', async () => {
    const { compareDist, staleMessage } = (await import(join(ROOT, 'scripts/check-dist.mjs'))) as {
      compareDist: (a: string, b: string) => Promise<string[]>;
      staleMessage: (p: string[]) => string;
    };
    const stale = mkdtempSync(join(tmpdir(), 'docdb-stale-'));
    onTestFinished(() => rmSync(stale, { recursive: true, force: true }));
    cpSync(join(ROOT, 'dist'), stale, { recursive: true });
    writeFileSync(join(stale, 'index.js'), '// old build\n');
    writeFileSync(join(stale, 'leftover.js'), '');
    const problems = await compareDist(join(ROOT, 'dist'), stale);
    expect(problems).toEqual([
      'differs: index.js (first difference at line 1)',
      'extra: leftover.js (not produced by the build)',
    ]);
    expect(staleMessage(problems)).toMatch(/dist\/ is stale.*\n.*\n.*\nRun "npm run build:action" and commit dist\//);
    expect(await compareDist(join(ROOT, 'dist'), join(ROOT, 'dist'))).toEqual([]);
  });

  it('exits 1 when pointed at a stale copy', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'docdb-stale-'));
    onTestFinished(() => rmSync(stale, { recursive: true, force: true }));
    writeFileSync(join(stale, 'package.json'), '{"type":"module"}\n');
    // The committed dist/ stands in for the fresh build (the first test proved they are identical), so this
    // exercises the CLI's exit code and message without a second ~10 s ncc build.
    const r = await run(['--dist', stale, '--fresh', join(ROOT, 'dist')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missing: index.js');
    expect(r.stderr).toContain('Run "npm run build:action" and commit dist/.');
  });
});
