/**
 * Real git as a test oracle: a throwaway repository with a fixed, isolated environment (no user or
 * system config, fixed identities and dates) so object ids are reproducible.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitRepo {
  dir: string;
  /** Run git in the repository; returns stdout bytes. Throws with stderr on a non-zero exit. */
  git(args: string[], options?: { input?: string | Uint8Array; env?: Record<string, string> }): Buffer;
  /** stdout as trimmed text. */
  text(args: string[], options?: { input?: string | Uint8Array; env?: Record<string, string> }): string;
  cleanup(): void;
}

export const BASE_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada Lovelace',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_NAME: 'Charles Babbage',
  GIT_COMMITTER_EMAIL: 'charles@example.com',
  GIT_COMMITTER_DATE: '1700000000 +0000',
  LANG: 'C.UTF-8',
};

export function makeRepo(): GitRepo {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-git-oracle-'));
  const run = (args: string[], options: { input?: string | Uint8Array; env?: Record<string, string> } = {}) =>
    execFileSync('git', args, {
      cwd: dir,
      input: options.input,
      env: { ...BASE_ENV, HOME: dir, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  run(['init', '-q', '--bare', '.']);
  return {
    dir,
    git: run,
    text: (args, options) => run(args, options).toString('utf8').trim(),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
