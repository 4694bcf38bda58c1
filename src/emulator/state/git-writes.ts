/**
 * Writing git data without HTTP, as seeds and tests do: a commit of whole files onto a branch or ref,
 * and moving refs without a fast-forward check. Dates default to one minute after the parent commit,
 * so seeded SHAs are deterministic.
 */
import { utf8 } from '../../core/bytes.js';
import { isSha, parseSignatureDate, type Signature } from '../../core/git/objects.js';
import { isoSeconds } from '../dates.js';
import type { RepoRecord } from '../model.js';
import { fullRefName } from '../revisions.js';

export interface CommitFilesOptions {
  /**
   * Branch name (`main`) or full ref (`refs/docdb/documents`); default the repository's default branch.
   * A missing ref is created, starting from the default branch's tip unless `orphan`.
   */
  branch?: string;
  /** Start a missing ref with a root commit instead of the default branch's tip. */
  orphan?: boolean;
  /** Path → UTF-8 text or bytes; `null` deletes the path. */
  files: Record<string, string | Uint8Array | null>;
  message?: string;
  /** ISO date for author and committer (default: one minute after the previous commit on the ref). */
  date?: string;
  author?: { name: string; email: string };
}

const SEED_AUTHOR = { name: 'Octo Cat', email: 'octocat@users.noreply.github.com' };

/**
 * Store the commit `opts` describes on top of its ref's tip; the caller points the ref at it.
 *
 * @example
 * const { ref, sha } = buildFilesCommit(repo, { files: { 'a.txt': 'hello\n' } });
 */
export function buildFilesCommit(repo: RepoRecord, opts: CommitFilesOptions): { ref: string; sha: string } {
  const ref = fullRefName(opts.branch ?? repo.defaultBranch);
  const parent = repo.db.readRef(ref) ?? (opts.orphan ? undefined : defaultTip(repo, ref));
  const baseTree = parent ? repo.db.getCommit(parent).tree : null;
  const changes = Object.entries(opts.files).map(([path, value]) => ({
    path,
    mode: '100644' as const,
    sha: value === null ? null : repo.db.putBlob(typeof value === 'string' ? utf8(value) : value),
  }));
  const tree = repo.db.applyTreeChanges(baseTree, changes);
  const sig: Signature = { ...(opts.author ?? SEED_AUTHOR), ...commitDate(repo, opts.date, parent) };
  const sha = repo.db.putCommit({
    tree,
    parents: parent ? [parent] : [],
    author: sig,
    committer: sig,
    message: opts.message ?? `Update ${Object.keys(opts.files).join(', ')}`,
  });
  return { ref, sha };
}

/** The given date, else a minute after the parent's, else the repository's creation date. */
function commitDate(repo: RepoRecord, date: string | undefined, parent: string | undefined) {
  if (date) return parseSignatureDate(date);
  if (parent) return { timestamp: repo.db.getCommit(parent).committer.timestamp + 60, timezone: '+0000' };
  return parseSignatureDate(repo.createdAt);
}

/** When creating a new branch from a seed, start it at the default branch's tip. */
function defaultTip(repo: RepoRecord, ref: string): string | undefined {
  if (ref === fullRefName(repo.defaultBranch)) return undefined;
  return repo.db.readRef(fullRefName(repo.defaultBranch));
}

/**
 * Point a ref (branch name or full ref) at a commit, creating or moving it (no fast-forward check).
 * `fullName` is the repository name as the caller wrote it, for the error message.
 *
 * @example
 * moveRef(repo, 'octo/data', 'refs/docdb/documents', sha);
 */
export function moveRef(repo: RepoRecord, fullName: string, branchOrRef: string, sha: string): void {
  if (!isSha(sha) || repo.db.typeOf(sha) !== 'commit') throw new Error(`setRef: ${sha} is not a commit in ${fullName}`);
  const ref = fullRefName(branchOrRef);
  repo.db.compareAndSwapRef(ref, repo.db.readRef(ref) ?? null, sha);
}

/**
 * Where a new branch starts: `fromSha`, else the default branch's tip (throws when there is none).
 *
 * @example
 * branchStart(repo, 'octo/data'); // the default branch's tip
 */
export function branchStart(repo: RepoRecord, fullName: string, fromSha?: string): string {
  const sha = fromSha ?? repo.db.readRef(fullRefName(repo.defaultBranch));
  if (!sha) throw new Error(`addBranch: ${fullName} has no default branch tip to branch from`);
  return sha;
}

/**
 * Record a push: `pushed_at` and `updated_at` become now (never earlier than the last push).
 *
 * @example
 * markPushed(repo, Date.now());
 */
export function markPushed(repo: RepoRecord, nowMs: number): void {
  const iso = isoSeconds(Math.max(nowMs, Date.parse(repo.pushedAt)));
  repo.pushedAt = iso;
  repo.updatedAt = iso;
}
