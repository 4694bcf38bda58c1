/** The release checks of scripts/release.mjs, run locally the way the release workflow runs them (dry run). */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

function release(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [join(ROOT, 'scripts/release.mjs'), ...args, '--skip-dist'],
      { cwd: ROOT },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('release dry run', () => {
  it('passes for the version in package.json and prints the CHANGELOG section and the plan', async () => {
    const r = await release(`v${version}`, '--dry-run');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`release v${version}: checks passed`);
    expect(r.stdout).toContain(`gh release create v${version}`);
    expect(r.stdout).toContain(`git tag -f v${version.split('.')[0]} v${version}^{commit}`);
    expect(r.stdout).toContain('npm publish --provenance --access public');
    expect(r.stdout).not.toMatch(/^\[0\.1\.0\]: http/m); // link definitions are not part of the notes
  });

  it('refuses a tag that does not match package.json or has no CHANGELOG section, naming the fix', async () => {
    const r = await release('v99.0.0', '--dry-run');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`package.json says version ${version}, the tag says 99.0.0`);
    expect(r.stderr).toContain('CHANGELOG.md has no (or an empty) section "## [99.0.0]"');
    expect((await release('latest')).stderr).toContain('the tag must look like v1.2.3, got "latest"');
  });
});
