/**
 * The single-commit write (`put`, `delete`, `commit`): plan the change against the tip's tree (blob SHAs
 * compared: an unchanged value writes nothing), create the trees and the commit on that tip, and move the
 * ref fast-forward only. A lost race rebases the SAME change onto the new tip and tries again, within the
 * write's retry count and time budget (src/core/backoff.ts).
 *
 * The cached tip is confirmed first with the conditional ref read (a 304 when unchanged); when it moved,
 * one compare tells what changed. Only with `trustCachedTipMs` set may a warm write skip that read
 * (`force: false` still guards correctness), and then a decision made on an unconfirmed tip that ends the
 * write without writing ("nothing to do", a failed precondition) is judged again on the real tip.
 */
import type { CachedCommit } from '../../cache/git-cache.js';
import type { WriteRetry } from '../../core/backoff.js';
import { PreconditionFailed } from '../../core/errors.js';
import { assertNoPathConflicts, defaultCommitMessage, planWrite, prepareCommit } from '../../core/plan.js';
import type { Change, CommitOptions, WriteResult } from '../../core/refstore.js';
import { rebaseView, type TouchedBy } from './catch-up.js';
import type { OpContext } from './client.js';
import { deriveAt } from './derived-reads.js';
import type { RefUpdateOutcome } from './ref-update.js';
import { touchesAny } from './stale-tip.js';
import {
  afterLostRace,
  assertCanWrite,
  currentShas,
  definiteFailure,
  type Normalized,
  type WriteHost,
  writeRetryOf,
} from './write-host.js';

type Plan = ReturnType<typeof planWrite>;
type IfMatch = ReadonlyMap<string, string | null>;

/** A plan made on the cached old tree, to be built on the new tip's commit (see catch-up.ts `rebaseView`). */
type Rebased = { viewTree: string; base: CachedCommit };

/**
 * The changes of one write, validated before it queues: `prepareCommit` (normalized with blob SHAs,
 * `ifMatch` and message checked), and no put key a directory of another.
 *
 * @example
 * const { changes, ifMatch } = checkedWrite([{ op: 'put', key: 'a.json', value: '1' }], {});
 */
export function checkedWrite(
  changes: readonly Change[],
  options: CommitOptions,
): { changes: Normalized; ifMatch: IfMatch | undefined } {
  const prepared = prepareCommit(changes, options);
  // Within the batch: a put key must not be a directory of another put key. Conflicts with the
  // tree at the tip are checked per attempt in `currentShas` (the tip may move between attempts).
  assertNoPathConflicts(prepared.changes, { isFile: () => false, isDir: () => false });
  return prepared;
}

/**
 * Write `changes` as one commit on the section's tip, retrying lost races.
 *
 * @example
 * const { changes, ifMatch } = checkedWrite(input, options);
 * const result = await writeOneCommit(host, ctx, changes, options, ifMatch);
 */
export async function writeOneCommit(
  h: WriteHost,
  ctx: OpContext,
  changes: Normalized,
  options: CommitOptions,
  ifMatch?: IfMatch,
): Promise<WriteResult> {
  return definiteFailure(() => oneCommit(h, ctx, changes, options, ifMatch));
}

async function oneCommit(
  h: WriteHost,
  ctx: OpContext,
  changes: Normalized,
  options: CommitOptions,
  ifMatch?: IfMatch,
): Promise<WriteResult> {
  const cached = await h.cachedTip(ctx);
  // By default every write reads the ref first (a 304 when the cached tip is current): a write on a tip
  // another writer moved then costs one compare, never an orphan commit. Only with `trustCachedTipMs`
  // set is a recently seen tip written on as is, or a section just seen absent created without a read.
  const absent = !cached && h.tips.recentlySeen(ctx.tokenId, null);
  const tip = cached ? cached.sha : absent ? null : await h.readRef(ctx, false);
  const write = new SingleCommitWrite(h, ctx, changes, options, ifMatch, tip, !cached && !absent);
  if (cached && !h.tips.recentlySeen(ctx.tokenId, cached.sha)) await write.confirmCachedTip();
  return write.run();
}

/** One write's state across its attempts. */
class SingleCommitWrite {
  // Full-jitter backoff within a time budget (src/core/backoff.ts); blobs uploaded by an earlier
  // attempt are content-addressed, so a retry names them by SHA instead of sending them again.
  private readonly retry: WriteRetry;
  private readonly uploaded = new Set<string>();
  private readonly touchedBy: TouchedBy;
  private rebased: Rebased | undefined;

  constructor(
    private readonly h: WriteHost,
    private readonly ctx: OpContext,
    private readonly changes: Normalized,
    private readonly options: CommitOptions,
    private readonly ifMatch: IfMatch | undefined,
    /** The tip the next attempt builds on. */
    private tip: string | null,
    /** The tip was read (or proven) during this write, not only taken from the cache. */
    private confirmed: boolean,
  ) {
    this.retry = writeRetryOf(h, ctx);
    const keys = changes.map((c) => c.key);
    this.touchedBy = (files) => touchesAny(files, keys);
  }

  /**
   * The cached tip is confirmed first (a 304 when unchanged): building on a stale tip would cost an
   * orphan commit, a rejected update and a rebase.
   */
  async confirmCachedTip(): Promise<void> {
    const now = await this.h.readRef(this.ctx, false);
    this.confirmed = true;
    const tip = this.tip;
    if (now !== null && tip !== null && now !== tip) {
      const caught = await this.h.catchUp.from(this.ctx, tip, now, this.touchedBy);
      this.rebased = caught && rebaseView(caught, (await this.h.cachedCommit(tip))?.tree);
    }
    this.tip = now;
  }

  async run(): Promise<WriteResult> {
    for (;;) {
      const result = await this.attempt();
      if (result) return result;
    }
  }

  /** One attempt on `this.tip`; undefined when the tip moved and the write must be planned again. */
  private async attempt(): Promise<WriteResult | undefined> {
    // After a compare proved none of our keys changed, plan on the cached old tree and build on the new one.
    const rebased = this.rebased;
    const base = rebased ? rebased.base : this.tip === null ? null : await this.h.getCommit(this.ctx, this.tip);
    const view = rebased ? rebased.viewTree : base ? base.tree : null;
    // One key planned on the tip's own tree: the derive hook runs first and its first query also fetches the
    // tree levels on the key's path, which the plan then finds cached (one request instead of two).
    const early = !rebased && this.changes.length === 1 ? await this.derive(base, this.changes) : undefined;
    const current = await currentShas(this.h.trees, this.ctx, view, this.changes);
    this.rebased = undefined;
    const own = await this.plan(current);
    if (own === undefined) return undefined;
    const plan = withDerived(this.changes, own, current, early ?? (await this.derive(base, [])));
    if (plan.treeChanges.length === 0) return (await this.confirmNothingToDo()) ? this.unchanged(plan) : undefined;
    const commit = await this.commitOn(base, plan);
    const outcome = await this.h.refs.update(this.ctx, this.tip, commit, this.retry, this.touchedBy);
    if (outcome.ok) return this.changed(commit, plan);
    await this.afterLoss(outcome, view);
    return undefined;
  }

  /**
   * This attempt's derived changes (`CommitOptions.derive`), computed on the tip the commit builds on —
   * after a rebase that is the NEW tip (`base`), never the cached old tree the write's own keys were planned
   * on: the derived keys are not known in advance, so the compare proved nothing about them. `probe`: keys
   * whose uncached path levels join the hook's first query.
   */
  private derive(base: CachedCommit | null, probe: Normalized): ReturnType<typeof deriveAt> {
    const tip = this.tip !== null && base ? { commit: this.tip, tree: base.tree } : null;
    const keys = probe.map((c) => c.key);
    return deriveAt(this.h.derived, this.ctx, this.options.derive, this.changes, tip, keys);
  }

  /** The plan on the current tree; undefined when a failed precondition must be judged again on a moved tip. */
  private async plan(current: Map<string, string>): Promise<Plan | undefined> {
    const ifMatch = this.ifMatch;
    try {
      return planWrite(this.changes, (k) => current.get(k), ifMatch ? { ifMatch, version: this.tip } : undefined);
    } catch (e) {
      // A precondition that failed on a cached tip is judged again on the real tip before it is final
      // (passing on a stale tip is safe: the fast-forward-only ref update then fails and we re-plan).
      if (!(e instanceof PreconditionFailed) || this.confirmed) throw e;
      const now = await this.h.readRef(this.ctx);
      this.confirmed = true;
      if (now === this.tip) throw e;
      this.tip = now;
      return undefined;
    }
  }

  /** "Nothing to do" judged on a cached tip must be confirmed (a 304 when nothing moved). False: it moved. */
  private async confirmNothingToDo(): Promise<boolean> {
    if (this.confirmed) return true;
    const now = await this.h.readRef(this.ctx);
    this.confirmed = true;
    if (now === this.tip) return true;
    this.tip = now;
    return false;
  }

  /** Create the trees and the commit of `plan` on `base`; the commit's SHA. */
  private async commitOn(base: CachedCommit | null, plan: Plan): Promise<string> {
    assertCanWrite(this.ctx, this.h.repository);
    const baseTree = base ? base.tree : null;
    const tree = await this.h.objects.createTrees(this.ctx, baseTree, plan.treeChanges, this.uploaded);
    await this.h.objects.rememberOwnTrees(baseTree, plan.treeChanges, tree);
    const message = this.options.message ?? defaultCommitMessage(plan);
    return this.h.objects.createCommit(this.ctx, tree, this.tip, message);
  }

  /** Lost the fast-forward race: rebase the SAME change onto the new tip's tree. */
  private async afterLoss(outcome: RefUpdateOutcome & { ok: false }, view: string | null): Promise<void> {
    const other = outcome.tip;
    await afterLostRace(this.h, this.ctx, this.retry, this.confirmed, other);
    this.rebased = outcome.caught && rebaseView(outcome.caught, view ?? undefined);
    this.confirmed = true;
    this.tip = other;
  }

  private unchanged(plan: Plan): WriteResult {
    return {
      version: this.tip,
      previousVersion: this.tip,
      changed: false,
      written: [],
      deleted: [],
      unchanged: plan.unchanged,
      ...this.h.meta(this.ctx),
    };
  }

  private changed(commit: string, plan: Plan): WriteResult {
    return {
      version: commit,
      previousVersion: this.tip,
      changed: true,
      written: plan.written,
      deleted: plan.deleted,
      unchanged: plan.unchanged,
      ...this.h.meta(this.ctx),
    };
  }
}

/** The write's own plan with the attempt's derived changes planned in (the same plan when there are none). */
function withDerived(
  changes: Normalized,
  own: Plan,
  current: ReadonlyMap<string, string>,
  derived: Awaited<ReturnType<typeof deriveAt>>,
): Plan {
  if (derived.changes.length === 0) return own;
  return planWrite([...changes, ...derived.changes], (k) => current.get(k) ?? derived.current.get(k));
}
