/**
 * Catching up with a tip that moved, in one compare (see stale-tip.ts): the new tip's commit, whether any
 * key of the write changed, and — when the changed files replayed on the cached old tree give the new
 * commit's tree exactly — every new tree level cached, so re-planning on the new tip costs no request.
 * Used when a cached tip proves stale before a write, and after a lost fast-forward race (ref-update.ts).
 */
import type { CachedCommit, GitCache } from '../../cache/git-cache.js';
import type { GitHubClient, OpContext } from './client.js';
import { buildTreesLocally } from './local-trees.js';
import { type ChangedFile, changedFilesAsTreeChanges, compareTips } from './stale-tip.js';

/** What one compare told about a moved tip. */
export interface Caught {
  commit: CachedCommit;
  /** A key of the write (or a directory above/below one) changed. */
  touched: boolean;
  /** Every level of the new tip's tree that differs from the old one is cached. */
  known: boolean;
}

/** Whether a list of changed files touches the write at hand (stale-tip.ts `touchesAny`/`touchesKeySet`). */
export type TouchedBy = (files: readonly ChangedFile[]) => boolean;

/**
 * @example
 * const catchUp = new CatchUp(client, cache);
 * const caught = await catchUp.from(ctx, oldTip, newTip, (files) => touchesAny(files, keys));
 * if (caught && !caught.touched) buildOn(caught.commit.tree);
 */
export class CatchUp {
  /** False once the host refused a compare against the section's ref name (then the ref is read instead). */
  compareByRef = true;

  constructor(
    private readonly client: GitHubClient,
    private readonly cache: Pick<GitCache, 'getCommit' | 'putCommit' | 'getTree' | 'putTree'>,
  ) {}

  /**
   * One compare from `oldTip` to `head` (a SHA, or the ref name to read the tip in the same request): the
   * new tip's commit, and whether the write's keys changed (`touchedBy`). The changed files are replayed on
   * the cached old tree; when that yields the new commit's tree exactly, every new level is cached
   * (`known`). Undefined when the answer is unusable.
   */
  async from(ctx: OpContext, oldTip: string, head: string, touchedBy: TouchedBy): Promise<Caught | undefined> {
    const c = await compareTips(this.client, ctx, oldTip, head);
    if (!('commit' in c)) {
      if (c.unusable === 404 || c.unusable === 422) this.compareByRef = false;
      return undefined;
    }
    // Every commit in between is cached: reads at those versions, and the proof that they are commits of
    // the section (versions.ts walks cached first parents), cost no request later.
    for (const commit of c.commits) await this.cache.putCommit(commit);
    const known = await this.replayOnOldTree(oldTip, c.commit.tree, c.files);
    return { commit: c.commit, touched: touchedBy(c.files), known };
  }

  /** Replay the changed files on the cached tree of `oldTip`; true (levels cached) when it gives `newTree`. */
  private async replayOnOldTree(oldTip: string, newTree: string, files: readonly ChangedFile[]): Promise<boolean> {
    const old = await this.cache.getCommit(oldTip);
    const replay = changedFilesAsTreeChanges(files);
    if (!old || !replay) return false;
    const built = await buildTreesLocally((sha) => this.cache.getTree(sha), old.tree, replay);
    if (built?.root !== newTree) return false;
    for (const [sha, level] of built.levels) await this.cache.putTree(sha, level);
    return true;
  }
}

/**
 * After a catch-up whose new tree is not cached but which touched none of the write's keys: plan on the
 * old tree (`viewTree`, cached) and build on the new one — the plan is the same on both.
 *
 * @example
 * const rebased = caught && rebaseView(caught, oldCommit.tree); // { viewTree, base } or undefined
 */
export function rebaseView(
  caught: Caught,
  viewTree: string | undefined,
): { viewTree: string; base: CachedCommit } | undefined {
  if (caught.known || caught.touched || viewTree === undefined) return undefined;
  return { viewTree, base: caught.commit };
}
