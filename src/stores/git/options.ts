/** Options both git stores share, validated up front (`InvalidConfig` naming the field). */
import {
  DEFAULT_RETRY_CONCURRENT_WRITES,
  resolveWriteRetry,
  type WriteRetryOptions,
  type WriteRetryPolicy,
} from '../../core/backoff.js';
import { InvalidConfig } from '../../core/errors.js';
import { assertValidRefName } from '../../core/refname.js';
import { DEFAULT_AUTHOR } from '../memory/memory-refstore.js';
import type { CommitIdentity } from './write.js';

/** Default most retries after losing a compare-and-swap (as RemoteApiRefStore; src/core/backoff.ts). */
export const DEFAULT_GIT_RETRIES = DEFAULT_RETRY_CONCURRENT_WRITES;
export const DEFAULT_GIT_REF = 'refs/docdb/documents';

export interface GitStoreCommonOptions extends WriteRetryOptions {
  /** Section ref (default `refs/docdb/documents`). */
  ref?: string;
  /** Commit author and committer (default `docdb <docdb@users.noreply.github.com>`). */
  author?: { name: string; email: string };
  /** Clock in milliseconds for commit dates (inject for reproducible SHAs). */
  now?: () => number;
  /**
   * Most retries after losing a compare-and-swap before `ConcurrentUpdate` (default 100); retrying
   * also stops after `writeRetryBudgetMs` (default 60 s). Full-jitter backoff, as RemoteApiRefStore.
   */
  retryConcurrentWrites?: number;
  /** git executable (default `git` on PATH). */
  git?: string;
  /** Environment for git (default `process.env`; repository-locating `GIT_*` variables are removed). */
  env?: NodeJS.ProcessEnv;
}

export interface ResolvedCommon {
  ref: string;
  identity: CommitIdentity;
  retries: number;
  /** Backoff and budget for retries after lost compare-and-swaps. */
  retry: WriteRetryPolicy;
  git: string;
  env: NodeJS.ProcessEnv | undefined;
}

function fail(field: string, message: string, allowed: string): never {
  throw new InvalidConfig(field, message, { allowed });
}

/** Validate the shared options. */
export function resolveCommon(o: GitStoreCommonOptions): ResolvedCommon {
  const ref = o.ref ?? DEFAULT_GIT_REF;
  assertValidRefName(ref, 'ref');
  const author = o.author ?? DEFAULT_AUTHOR;
  // git's ident rules: no angle brackets or newlines (they would corrupt the commit header).
  if (typeof author?.name !== 'string' || !author.name.trim() || /[<>\n\0]/.test(author.name)) {
    fail('author.name', 'author.name must be a non-empty string without <, >, NUL or newlines', 'a name');
  }
  if (typeof author.email !== 'string' || /[<>\n\0]/.test(author.email)) {
    fail('author.email', 'author.email must be a string without <, >, NUL or newlines', 'name@example.com');
  }
  const retry = resolveWriteRetry(o);
  const retries = retry.maxRetries;
  if (o.now !== undefined && typeof o.now !== 'function') fail('now', 'now must be a function', 'function');
  const git = o.git ?? 'git';
  if (typeof git !== 'string' || git === '') fail('git', 'git must be the name or path of the git executable', 'git');
  return {
    ref,
    identity: { author: { name: author.name, email: author.email }, now: o.now ?? Date.now },
    retries,
    retry,
    git,
    env: o.env,
  };
}
