/**
 * One commit whose changes arrive in parts (pages of a source, slices of a huge batch): the parts are
 * gathered and uploaded as they come (parts-gather.ts), then the commit is created and the ref moved as
 * in a single-commit write. Costs what `commit` of all the parts costs. A lost race re-plans from the
 * kept blob SHAs (every blob is on GitHub by then): no value is sent twice.
 */
import type { WriteRetry } from '../../core/backoff.js';
import { partsMessage } from '../../core/commit-parts.js';
import {
  assertCommitMessage,
  defaultCommitMessage,
  type PlannedTreeChange,
  planWrite,
  type WritePlan,
} from '../../core/plan.js';
import type { ChangeParts, CommitPartsOptions, DeriveChanges, WriteResult } from '../../core/refstore.js';
import type { OpContext } from './client.js';
import { deriveAt } from './derived-reads.js';
import { PartsGatherer, type PartsPlan } from './parts-gather.js';
import type { RefUpdateOutcome } from './ref-update.js';
import {
  afterLostRace,
  assertCanWrite,
  currentShas,
  definiteFailure,
  type Normalized,
  type WriteHost,
  writeRetryOf,
} from './write-host.js';

/** Every key of the write with its blob SHA (null: delete). */
type Desired = ReadonlyMap<string, string | null>;

export { assertPartsWrite } from './call-checks.js';

/**
 * Gather `parts` into one commit on the section's tip, retrying lost races.
 *
 * @example
 * async function* pages() { yield [{ op: 'put', key: 'a.json', value: '1' }]; yield [{ op: 'delete', key: 'b.json' }]; }
 * const result = await writeInParts(host, ctx, pages(), { message: 'backfill' });
 */
export async function writeInParts(
  h: WriteHost,
  ctx: OpContext,
  parts: ChangeParts,
  options: CommitPartsOptions,
): Promise<WriteResult> {
  return definiteFailure(() => inParts(h, ctx, parts, options));
}

async function inParts(h: WriteHost, ctx: OpContext, parts: ChangeParts, options: CommitPartsOptions) {
  const cached = await h.cachedTip(ctx);
  // As in write-loop.ts: only with `trustCachedTipMs` set is a recently seen tip (or a section just seen
  // absent) written on without the ref read.
  const confirmed = !(cached ? h.tips.recentlySeen(ctx.tokenId, cached.sha) : h.tips.recentlySeen(ctx.tokenId, null));
  const tip = confirmed ? await h.readRef(ctx, false) : (cached?.sha ?? null);
  if (confirmed && cached && tip !== null && tip !== cached.sha) {
    // Another writer moved the tip: one compare caches its commit and, when the changed files replayed on
    // the cached old tree give its tree, every new level — instead of the commit and tree reads of a cold write.
    await h.catchUp.from(ctx, cached.sha, tip, () => true);
  }
  const base = tip === null ? null : await h.getCommit(ctx, tip);
  const baseTree = base ? base.tree : null;
  const gathered = new PartsGatherer(h, ctx, baseTree);
  for await (const part of parts) await gathered.add(part);
  const custom = partsMessage(options);
  assertCommitMessage(custom);
  const retry = writeRetryOf(h, ctx);
  const s: PartsState = { tip, confirmed, baseTree, tree: null };
  return new PartsCommit(h, ctx, gathered, { custom, derive: options.derive }, retry, s).run();
}

/** Where the commit stands: the tip it goes on, that tip's tree and the new tree (null: nothing to write). */
interface PartsState {
  tip: string | null;
  /** The tip was read (or proven) during this write, not only taken from the cache. */
  confirmed: boolean;
  baseTree: string | null;
  tree: string | null;
}

/** What the commit adds once every part is in: its message (undefined: the default) and its derive hook. */
interface PartsFinish {
  custom: string | undefined;
  derive: DeriveChanges | undefined;
}

/** This attempt's derived changes, planned on its tip (`treeChanges` empty: none, or all unchanged). */
type DerivedPlan = Pick<WritePlan, 'treeChanges' | 'written' | 'deleted' | 'unchanged'>;

/** The second phase: commit the gathered tree and move the ref, re-planning by SHA after a lost race. */
class PartsCommit {
  private plan: PartsPlan;
  private readonly desired: Desired;

  constructor(
    private readonly h: WriteHost,
    private readonly ctx: OpContext,
    private readonly gathered: Pick<PartsGatherer, 'desired' | 'plan' | 'touchedBy' | 'finish'>,
    private readonly finish: PartsFinish,
    private readonly retry: WriteRetry,
    private readonly s: PartsState,
  ) {
    this.plan = gathered.plan;
    this.desired = gathered.desired;
  }

  async run(): Promise<WriteResult> {
    for (let attempt = 0; ; attempt++) {
      const derived = await this.derive();
      // The first attempt's derived changes close the gathered chain of requests (they fill its last one);
      // after a lost race the documents' tree is planned again and the derived changes go on top of it.
      const tree = attempt === 0 ? await this.gathered.finish(derived.treeChanges) : await this.withDerived(derived);
      if (tree === null) {
        if (await this.confirmNothingToDo()) return this.result(this.s.tip, this.s.tip, false, derived);
        continue;
      }
      const parent = this.s.tip;
      const commit = await this.commitOn(tree, derived);
      const outcome = await this.h.refs.update(this.ctx, parent, commit, this.retry, this.gathered.touchedBy);
      if (outcome.ok) return this.result(commit, parent, true, derived);
      await this.afterLoss(outcome);
    }
  }

  /**
   * This attempt's derived changes (`CommitPartsOptions.derive`), computed once every part is in, on the tip
   * this attempt builds on (again after every lost race: recomputed, never rebased).
   */
  private async derive(): Promise<DerivedPlan> {
    const { tip, baseTree } = this.s;
    const at = tip !== null && baseTree !== null ? { commit: tip, tree: baseTree } : null;
    const own = this.finish.derive
      ? [...this.desired].map(([key, sha]) => (sha === null ? { key } : { key, sha }))
      : [];
    const d = await deriveAt(this.h.derived, this.ctx, this.finish.derive, own, at);
    return planWrite(d.changes, (k) => d.current.get(k));
  }

  /** The gathered tree with the derived changes as one more tree on top (null: nothing to write at all). */
  private async withDerived(derived: DerivedPlan): Promise<string | null> {
    if (derived.treeChanges.length === 0) return this.s.tree;
    assertCanWrite(this.ctx, this.h.repository);
    const up = this.h.objects.treeUpload(this.ctx, this.s.tree ?? this.s.baseTree);
    await up.add(derived.treeChanges);
    return up.finish();
  }

  /** "Nothing to do" judged on a cached tip must be confirmed (a 304 when nothing moved). False: re-planned. */
  private async confirmNothingToDo(): Promise<boolean> {
    if (this.s.confirmed) return true;
    const now = await this.h.readRef(this.ctx);
    this.s.confirmed = true;
    if (now === this.s.tip) return true;
    this.s.tip = now;
    await this.replan();
    return false;
  }

  private async commitOn(tree: string, derived: DerivedPlan): Promise<string> {
    // The new levels, computed from the kept blob SHAs (and the derived changes) and checked against GitHub's root.
    const entries = [...entriesBySha(this.plan, this.desired), ...derived.treeChanges];
    await this.h.objects.rememberOwnTrees(this.s.baseTree, entries, tree);
    const all = {
      written: [...this.plan.written, ...derived.written],
      deleted: [...this.plan.deleted, ...derived.deleted],
    };
    const message = this.finish.custom ?? defaultCommitMessage({ ...all, treeChanges: [], unchanged: 0 });
    return this.h.objects.createCommit(this.ctx, tree, this.s.tip, message);
  }

  private async afterLoss(outcome: RefUpdateOutcome & { ok: false }): Promise<void> {
    await afterLostRace(this.h, this.ctx, this.retry, this.s.confirmed, outcome.tip);
    this.s.confirmed = true;
    this.s.tip = outcome.tip;
    const caught = outcome.caught;
    if (caught && !caught.known && !caught.touched) await this.rebuildOn(caught.commit.tree);
    else await this.replan();
  }

  /** None of our keys changed: the same entries (by blob SHA) go onto the new tip's tree. */
  private async rebuildOn(baseTree: string): Promise<void> {
    this.s.baseTree = baseTree;
    const up = this.h.objects.treeUpload(this.ctx, baseTree);
    await up.add(entriesBySha(this.plan, this.desired));
    this.s.tree = await up.finish();
  }

  private async replan(): Promise<void> {
    const again = await replanBySha(this.h, this.ctx, this.s.tip, this.desired);
    this.plan = again.plan;
    this.s.tree = again.tree;
    this.s.baseTree = again.baseTree;
  }

  private result(version: string | null, previous: string | null, changed: boolean, d: DerivedPlan): WriteResult {
    const plan = this.plan;
    const written = changed ? [...plan.written, ...d.written] : [];
    const deleted = changed ? [...plan.deleted, ...d.deleted] : [];
    const all = this.desired.size + d.written.length + d.deleted.length + d.unchanged;
    return {
      version,
      previousVersion: previous,
      changed,
      written,
      deleted,
      unchanged: all - written.length - deleted.length,
      ...this.h.meta(this.ctx),
    };
  }
}

/** The plan's tree entries, naming each blob by its kept SHA. */
function entriesBySha(plan: PartsPlan, desired: Desired): PlannedTreeChange[] {
  return [
    ...plan.written.map((k) => ({ path: k, mode: '100644' as const, sha: desired.get(k) as string })),
    ...plan.deleted.map((k) => ({ path: k, mode: '100644' as const, sha: null })),
  ];
}

/**
 * Plan a commit-in-parts again on the tip `tip` from the kept blob SHAs, and send its trees (entries
 * by SHA: every blob was uploaded by the first attempt or is in the old tree). `tree` null: nothing to do.
 */
async function replanBySha(
  h: WriteHost,
  ctx: OpContext,
  tip: string | null,
  desired: Desired,
): Promise<{ plan: PartsPlan; tree: string | null; baseTree: string | null }> {
  const base = tip === null ? null : await h.getCommit(ctx, tip);
  const baseTree = base ? base.tree : null;
  const keys = [...desired].map(([key, sha]) =>
    sha === null ? { op: 'delete' as const, key } : { op: 'put' as const, key },
  );
  const current = await currentShas(h.trees, ctx, baseTree, keys as Normalized);
  const plan: PartsPlan = { written: [], deleted: [] };
  const entries: { path: string; mode: '100644'; sha: string | null }[] = [];
  for (const [key, sha] of desired) {
    const now = current.get(key);
    if (sha === null ? now === undefined : now === sha) continue;
    entries.push({ path: key, mode: '100644', sha });
    (sha === null ? plan.deleted : plan.written).push(key);
  }
  if (entries.length === 0) return { plan, tree: null, baseTree };
  assertCanWrite(ctx, h.repository);
  const up = h.objects.treeUpload(ctx, baseTree);
  await up.add(entries);
  return { plan, tree: await up.finish(), baseTree };
}
