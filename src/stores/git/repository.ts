/**
 * A local git repository as the git stores use it: found once (`rev-parse`), read through one
 * `cat-file --batch`, written with one pack per write and `update-ref <ref> <new> <old>`. Every
 * command names the repository with `--git-dir`, so the working tree, the checkout's index and
 * `HEAD` are never read or written.
 */

import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ZERO_SHA } from '../../core/commit-retry.js';
import { GitError, InvalidConfig, InvalidVersion } from '../../core/errors.js';
import { type CommitFields, decodeCommit, decodeTree, type TreeEntry } from '../../core/git/objects.js';
import { assertValidVersion } from '../../core/version.js';
import { CatFileReader, type GitObject } from './cat-file.js';
import { concealCredentials, type GitCommandOptions, gitEnvironment, runGit } from './git-command.js';
import { type RawObject, writeObjects } from './pack.js';

/** The all-zero object id: `update-ref`'s "must not exist yet". */
export { ZERO_SHA };

export interface GitRepositoryOptions {
  /** A bare repository or a working clone (its `.git` is used). */
  dir: string;
  /** git executable (default `git`). */
  git?: string;
  /** Environment git runs with (default `process.env`, minus repository-locating variables). */
  env?: NodeJS.ProcessEnv;
  /** Extra `-c name=value` settings for every command. */
  config?: Record<string, string>;
  /** Strings never to show in errors (tokens handed to git through its environment). */
  secrets?: readonly string[];
  /** Extra environment variables (e.g. `GIT_ASKPASS`). */
  extraEnv?: Record<string, string>;
}

/** A tree read from the repository: its raw body (to rebuild it byte for byte) and its entries. */
export interface CachedTree {
  body: Buffer;
  entries: TreeEntry[];
}

/** Immutable trees by SHA, bounded by body bytes, least recently used out first. */
class TreeCache {
  private readonly map = new Map<string, CachedTree>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}
  get(sha: string): CachedTree | undefined {
    const hit = this.map.get(sha);
    if (hit) {
      this.map.delete(sha);
      this.map.set(sha, hit);
    }
    return hit;
  }
  set(sha: string, tree: CachedTree): void {
    if (this.map.has(sha)) return;
    this.map.set(sha, tree);
    this.bytes += tree.body.length + 64;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.body.length + 64;
    }
  }
}

export class GitRepository {
  readonly reader: CatFileReader;
  private readonly trees = new TreeCache(64 * 1024 * 1024);

  private constructor(
    readonly gitDir: string,
    readonly command: GitCommandOptions,
  ) {
    this.reader = new CatFileReader(command);
  }

  /**
   * Find the repository at `dir` (never a repository above it) and check it uses SHA-1.
   *
   * @example
   * const repo = await GitRepository.open({ dir: '/srv/data.git' });
   */
  static async open(options: GitRepositoryOptions): Promise<GitRepository> {
    const dir = resolve(options.dir);
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      throw new GitError(`${dir} does not exist; create the repository first (git init --bare ${dir})`, {
        reason: 'not-a-repository',
        dir,
      });
    }
    const config = Object.entries(options.config ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
    const base: GitCommandOptions = {
      git: options.git ?? 'git',
      globalArgs: config,
      // The ceiling stops git from walking up to an enclosing repository when dir is not one itself.
      env: gitEnvironment(options.env ?? process.env, { ...options.extraEnv, GIT_CEILING_DIRECTORIES: dirname(real) }),
      secrets: options.secrets ?? [],
    };
    const probe = await runGit(base, ['rev-parse', '--absolute-git-dir', '--show-object-format'], {
      cwd: real,
      okCodes: [128],
    });
    if (probe.code !== 0) {
      throw new GitError(
        `${dir} is not a git repository (create one with "git init --bare ${dir}" or clone one there)`,
        { reason: 'not-a-repository', dir, stderr: probe.stderr.trim() },
      );
    }
    const [gitDir, format] = probe.stdout.toString('utf8').trim().split('\n');
    if (format !== 'sha1') {
      throw new InvalidConfig('dir', `${dir} uses object format ${format}; docdb supports SHA-1 repositories`, {
        allowed: 'a SHA-1 repository (git init --object-format=sha1)',
      });
    }
    return new GitRepository(gitDir!, concealCredentials({ ...base, globalArgs: [`--git-dir=${gitDir}`, ...config] }));
  }

  /** Run a git command on this repository. */
  run(args: readonly string[], options: { input?: Uint8Array | string; okCodes?: readonly number[] } = {}) {
    return runGit(this.command, args, options);
  }

  read(name: string): Promise<GitObject | null> {
    return this.reader.read(name);
  }

  /** Commit a full ref points to, or null when the ref does not exist. */
  async resolveRef(ref: string): Promise<string | null> {
    const o = await this.reader.read(ref);
    if (!o) return null;
    if (o.type !== 'commit') {
      throw new GitError(`${ref} points to a ${o.type} (${o.sha}), not a commit`, { reason: 'not-a-commit', ref });
    }
    return o.sha;
  }

  /** True when the repository has this commit. */
  async hasCommit(sha: string): Promise<boolean> {
    return (await this.reader.read(sha))?.type === 'commit';
  }

  /** A commit by id; `InvalidVersion` when the repository has no such commit. */
  async readCommit(sha: string): Promise<CommitFields> {
    assertValidVersion(sha);
    const o = await this.reader.read(sha);
    if (o?.type !== 'commit') {
      throw new InvalidVersion(sha, `version ${sha} is not a commit in ${this.gitDir}`);
    }
    return decodeCommit(o.body);
  }

  /** A tree's body and entries (cached: trees are immutable). */
  async readTree(sha: string): Promise<CachedTree> {
    const hit = this.trees.get(sha);
    if (hit) return hit;
    const o = await this.reader.read(sha);
    if (o?.type !== 'tree') throw new GitError(`tree ${sha} is missing from ${this.gitDir}`, { reason: 'corrupt' });
    const tree = { body: o.body, entries: decodeTree(o.body) };
    this.trees.set(sha, tree);
    return tree;
  }

  /** Store objects (one git process). */
  writeObjects(objects: readonly RawObject[]): Promise<void> {
    return writeObjects(this.command, objects);
  }

  /**
   * Compare-and-swap `ref` from `expected` (null: must not exist) to `next`. Returns false when the
   * ref was not at `expected` (or its lock was held); other failures throw.
   */
  async updateRef(ref: string, next: string, expected: string | null): Promise<boolean> {
    const r = await this.run(['update-ref', ref, next, expected ?? ZERO_SHA], { okCodes: [1, 128] });
    if (r.code === 0) return true;
    if (/cannot lock ref|reference already exists|File exists|is at [0-9a-f]+ but expected/i.test(r.stderr)) {
      return false;
    }
    throw new GitError(`git update-ref ${ref} failed: ${r.stderr.trim()}`, {
      reason: 'exit',
      command: ['update-ref', ref, next, expected ?? ZERO_SHA],
      exitCode: r.code,
      stderr: r.stderr.trim(),
    });
  }

  close(): Promise<void> {
    return this.reader.close();
  }
}
