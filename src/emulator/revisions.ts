/**
 * Naming things in a repository the way GitHub's URLs and seeds do: branch names or full refs, and the
 * commit-ish and tree-ish values that `?sha=`, `compare/{base}...{head}` and `git/trees/{tree_sha}` accept.
 * Shared by the state, the routes and the GraphQL resolvers, so it imports only the data model.
 */
import { isSha } from '../core/git/objects.js';
import type { RepoRecord } from './model.js';

/**
 * Full ref name of a branch name or full ref.
 *
 * @example
 * fullRefName('main'); // 'refs/heads/main'
 * fullRefName('refs/docdb/documents'); // unchanged
 */
export function fullRefName(branchOrRef: string): string {
  return branchOrRef.startsWith('refs/') ? branchOrRef : `refs/heads/${branchOrRef}`;
}

/**
 * A commit SHA from a SHA, branch, tag or full ref name, like git rev-parse does for GitHub.
 *
 * @example
 * resolveCommitish(repo, 'main'); // the tip of refs/heads/main, or undefined
 */
export function resolveCommitish(repo: RepoRecord, value: string): string | undefined {
  const lower = value.toLowerCase();
  if (isSha(lower)) return repo.db.typeOf(lower) === 'commit' ? lower : undefined;
  const candidates = value.startsWith('refs/')
    ? [value]
    : [`refs/heads/${value}`, `refs/tags/${value}`, `refs/${value}`];
  for (const ref of candidates) {
    const sha = repo.db.readRef(ref);
    if (sha && repo.db.typeOf(sha) === 'commit') return sha;
  }
  return undefined;
}

/**
 * A tree SHA from a tree SHA, a commit SHA, or a branch/tag name (as `GET /git/trees/{tree_sha}` accepts).
 *
 * @example
 * resolveTreeish(repo, 'v1.0.0'); // the root tree of the tagged commit
 */
export function resolveTreeish(repo: RepoRecord, value: string): string | undefined {
  let sha: string | undefined = isSha(value.toLowerCase()) ? value.toLowerCase() : undefined;
  if (!sha) {
    sha =
      repo.db.readRef(`refs/heads/${value}`) ??
      repo.db.readRef(`refs/tags/${value}`) ??
      (value.startsWith('refs/') ? repo.db.readRef(value) : undefined);
  }
  if (!sha) return undefined;
  const type = repo.db.typeOf(sha);
  if (type === 'tree') return sha;
  if (type === 'commit') return repo.db.getCommit(sha).tree;
  return undefined;
}
