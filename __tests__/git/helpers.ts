/**
 * Test helpers for the git stores: throwaway repositories with an isolated git environment (no user
 * or system config), and `git fsck --strict` on every repository a test wrote.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Environment for every git the tests (and the stores under test) run: no user or system config. */
export const GIT_TEST_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Run git; returns stdout as text (throws with stderr on failure). */
export function git(args: string[], options: { cwd?: string; input?: string | Uint8Array } = {}): string {
  return execFileSync('git', args, {
    env: GIT_TEST_ENV,
    stdio: ['pipe', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
    ...options,
  }).toString('utf8');
}

/** Git repositories (bare, or a clone's .git) up to `depth` levels below `dir`. */
function repositoriesBelow(dir: string, depth: number): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) return [dir];
  if (existsSync(join(dir, '.git', 'HEAD'))) return [join(dir, '.git')];
  if (depth === 0) return [];
  return readdirSync(dir)
    .filter((name) => name !== 'node_modules')
    .flatMap((name) => repositoriesBelow(join(dir, name), depth - 1));
}

/**
 * A fresh temporary directory. `cleanup` runs `git fsck --strict` on every repository the test wrote
 * in it (so no test can leave a corrupt repository unnoticed), removes it, then throws any fsck failure.
 */
export function tempDir(prefix = 'docdb-git-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    cleanup: () => {
      const failures: string[] = [];
      for (const repo of repositoriesBelow(dir, 3)) {
        try {
          fsckStrict(repo);
        } catch (e) {
          failures.push(`${repo}: ${(e as Error).message}`);
        }
      }
      rmSync(dir, { recursive: true, force: true });
      if (failures.length > 0) throw new Error(`git fsck --strict failed:\n${failures.join('\n')}`);
    },
  };
}

/** `git init --bare` in a new directory below `parent`. */
export function bareRepo(parent: string, name = 'repo.git'): string {
  const dir = join(parent, name);
  git(['init', '-q', '--bare', dir]);
  return dir;
}

/** `git fsck --strict` must pass (throws with git's report otherwise). */
export function fsckStrict(gitDir: string): void {
  git(['--git-dir', gitDir, 'fsck', '--strict', '--no-dangling', '--no-progress']);
}

/** A deterministic clock that still moves, so commits of identical trees stay distinct. */
export function steppingClock(start = 1_700_000_000_000): () => number {
  let t = start;
  return () => (t += 1000);
}

/**
 * A `git` wrapper (pass it as the stores' `git` option): appends every invocation's arguments to
 * `log` (a line `CALL`, then one argument per line), runs the shell snippet `before` (with the
 * arguments in "$@"), then runs the real git. Lets tests see exactly which commands a store runs and
 * with which argv, and inject events at precise points (a competing write just before a push).
 */
export function gitWrapper(dir: string, options: { log?: string; before?: string } = {}): string {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const path = join(dir, `git-wrapper-${Math.random().toString(36).slice(2)}`);
  const lines = ['#!/bin/sh'];
  if (options.log) lines.push(`{ echo CALL; for a in "$@"; do printf '%s\\n' "$a"; done; } >> '${options.log}'`);
  if (options.before) lines.push(options.before);
  lines.push(`exec '${real}' "$@"`);
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o755 });
  return path;
}

/** Invocations logged by a gitWrapper, as argument lists. */
export function loggedCalls(log: string): string[][] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('CALL\n')
    .filter(Boolean)
    .map((c) => c.replace(/\n$/, '').split('\n'));
}

/** The git subcommand of a logged invocation (skipping `--git-dir=…` and `-c name=value`). */
export function subcommand(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else if (!args[i]!.startsWith('-')) return args[i];
  }
  return undefined;
}

/**
 * A shell snippet for gitWrapper's `before`: whenever the wrapped git runs `subcommand`, another writer
 * first advances `refs/docdb/documents` in `gitDir` (an empty commit on the tip), so that command's
 * compare-and-swap always loses.
 */
export function intruderBefore(gitDir: string, subcommand: string): string {
  return [
    `case " $* " in *" ${subcommand} "*)`,
    `  T=$(git --git-dir='${gitDir}' rev-parse refs/docdb/documents)`,
    `  C=$(git --git-dir='${gitDir}' commit-tree -p "$T" -m intruder "$T^{tree}")`,
    `  git --git-dir='${gitDir}' update-ref refs/docdb/documents "$C" ;;`,
    'esac',
  ].join('\n');
}
