/**
 * The write path both git stores share: plan and build the commit with `core/git/commit-on-tree.ts`
 * (the same validation, conflict and no-op rules and byte-identical objects as every store), reading
 * only the tree levels on the changed paths from the repository, then store the new objects in one
 * git process. Publishing (the compare-and-swap) is the caller's.
 */
import { InvalidVersion } from '../../core/errors.js';
import { commitOnTree } from '../../core/git/commit-on-tree.js';
import { checkReplaceHistory, replacementObjects } from '../../core/git/replacement.js';
import type { normalizeChanges, WritePlan } from '../../core/plan.js';
import type { ReplaceHistoryOptions } from '../../core/refstore.js';
import type { GitRepository } from './repository.js';

type Normalized = ReturnType<typeof normalizeChanges>;

export interface CommitIdentity {
  author: { name: string; email: string };
  /** Clock in milliseconds. */
  now: () => number;
}

export interface BuiltCommit {
  plan: WritePlan;
  /** The new commit (already stored), or null when the changes are all no-ops. */
  commit: string | null;
}

/**
 * Plan `changes` on `tip` and, unless they are all no-ops, store the blobs, trees and commit.
 *
 * @example
 * const { plan, commit } = await buildCommit(repo, tip, normalizeChanges(changes), identity);
 */
export async function buildCommit(
  repo: GitRepository,
  tip: string | null,
  changes: Normalized,
  identity: CommitIdentity,
  message: string | undefined,
  ifMatch?: ReadonlyMap<string, string | null>,
): Promise<BuiltCommit> {
  const built = await commitOnTree({
    readTree: async (sha) => (await repo.readTree(sha)).body,
    tip,
    baseTree: tip ? (await repo.readCommit(tip)).tree : null,
    changes,
    author: identity.author,
    now: identity.now(),
    message,
    ifMatch,
  });
  if (built.commit) await repo.writeObjects(built.objects);
  return { plan: built.plan, commit: built.commit };
}

/**
 * Store the commits of a replacement history (`RefStore.replaceHistory`) in one git process, after
 * checking that `onto` is a commit and every tree is a tree of this repository (a commit on a missing tree
 * would make the section unreadable). The created commits, oldest first; the ref is the caller's.
 *
 * @example
 * const created = await storeReplacement(repo, { from: tip, onto: null, commits });
 */
export async function storeReplacement(repo: GitRepository, options: ReplaceHistoryOptions): Promise<string[]> {
  checkReplaceHistory(options);
  if (options.onto !== null) await repo.readCommit(options.onto);
  for (const tree of new Set(options.commits.map((c) => c.tree))) {
    if ((await repo.read(tree))?.type !== 'tree') {
      throw new InvalidVersion(tree, `${tree} is not a tree of ${repo.gitDir}: a replacement commit needs a kept tree`);
    }
  }
  const chain = replacementObjects(options);
  await repo.writeObjects(chain.map((o) => ({ type: o.type, body: o.body })));
  return chain.map((o) => o.sha);
}
