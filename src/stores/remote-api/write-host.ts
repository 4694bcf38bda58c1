/**
 * What the store lends its two write loops — the single commit (write-loop.ts) and the commit in parts
 * (parts-loop.ts) — and the steps both take: refuse an anonymous write before sending anything, read the
 * write's keys at a tree, and wait (or give up) after a lost fast-forward race.
 */
import type { CachedCommit, GitCache } from '../../cache/git-cache.js';
import { WriteRetry } from '../../core/backoff.js';
import { AuthMissing, ConcurrentUpdate, InvalidKey, RateLimited } from '../../core/errors.js';
import type { normalizeChanges } from '../../core/plan.js';
import type { OperationMeta } from '../../core/refstore.js';
import type { CatchUp } from './catch-up.js';
import type { OpContext } from './client.js';
import type { ResolvedConfig } from './config.js';
import type { DerivedReadHost } from './derived-reads.js';
import type { ObjectWriter } from './object-writer.js';
import type { RefUpdater } from './ref-update.js';
import type { TipMemory } from './tip-memory.js';
import type { TreeWalker, WalkMode } from './tree-walker.js';

/** Changes after `normalizeChanges` (each put with its blob SHA and bytes). */
export type Normalized = ReturnType<typeof normalizeChanges>;

/** What the store lends to a write loop (all bound to one store instance). */
export interface WriteHost {
  ref: string;
  /** `owner/repo`, for messages. */
  repository: string;
  cfg: Pick<ResolvedConfig, 'writeRetry' | 'random' | 'now' | 'logger' | 'sleep'>;
  tips: Pick<TipMemory, 'recentlySeen'>;
  trees: Pick<TreeWalker, 'lookup' | 'lastRootTree' | 'cachedLevel'>;
  objects: Pick<ObjectWriter, 'treeUpload' | 'createTrees' | 'rememberOwnTrees' | 'createCommit'>;
  refs: Pick<RefUpdater, 'update'>;
  catchUp: Pick<CatchUp, 'from'>;
  /** Reads for derive hooks at an attempt's tip (derived-reads.ts). */
  derived: DerivedReadHost;
  /** The tip cached for the operation's token (no request). */
  cachedTip(ctx: OpContext): ReturnType<GitCache['getRefTip']>;
  cachedCommit(sha: string): Promise<CachedCommit | undefined>;
  readRef(ctx: OpContext, checkRepo?: boolean): Promise<string | null>;
  getCommit(ctx: OpContext, sha: string): Promise<CachedCommit>;
  meta(ctx: OpContext): OperationMeta;
}

/**
 * GitHub never accepts anonymous writes: fail before sending any (a no-op write still succeeds).
 *
 * @example
 * if (plan.treeChanges.length > 0) assertCanWrite(ctx, 'octo/data');
 */
export function assertCanWrite(ctx: OpContext, repository: string): void {
  if (ctx.token !== undefined) return;
  throw new AuthMissing(
    `${ctx.operation}: writing to ${repository} needs a token with contents: write; configure token or credentials`,
    { operation: ctx.operation },
  );
}

/**
 * The blob SHA of each changed key at `rootTree` (absent keys are left out). A put where a directory is,
 * or below another key, is an `InvalidKey` conflict: the tip may move between attempts, so the conflict
 * is judged on each attempt's tree.
 *
 * @example
 * const current = await currentShas(host.trees, ctx, base.tree, changes);
 * const plan = planWrite(changes, (k) => current.get(k));
 */
export async function currentShas(
  trees: WriteHost['trees'],
  ctx: OpContext,
  rootTree: string | null,
  changes: Normalized,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (rootTree === null) return out;
  const mode: WalkMode = changes.length > 1 ? 'bulk' : 'single';
  for (const c of changes) {
    const at = await trees.lookup(ctx, rootTree, c.key, mode);
    // A delete of a directory or of a path below a value deletes nothing: an absent key.
    if (c.op === 'put' && (at.kind === 'conflict' || at.kind === 'tree')) {
      throw new InvalidKey(
        c.key,
        'conflict',
        at.kind === 'tree'
          ? `cannot write ${JSON.stringify(c.key)}: it is a directory of other keys`
          : `cannot write ${JSON.stringify(c.key)}: ${JSON.stringify(at.at)} is a key, not a directory`,
      );
    }
    if (at.kind === 'blob') out.set(c.key, at.sha);
  }
  trees.lastRootTree = rootTree;
  return out;
}

/**
 * Between attempts after a lost fast-forward: back off (or give up with `ConcurrentUpdate` when the
 * retry count or time budget is spent). A loss on an unconfirmed cached tip is not a race (the tip was
 * just stale): retried at once, free of the budget.
 *
 * @example
 * await afterLostRace(host, ctx, retry, confirmed, outcome.tip);
 */
export async function afterLostRace(
  h: Pick<WriteHost, 'ref' | 'cfg'>,
  ctx: OpContext,
  retry: WriteRetry,
  confirmed: boolean,
  other: string | null,
): Promise<void> {
  if (!confirmed) {
    h.cfg.logger?.({
      level: 'debug',
      message: `${ctx.operation}: the cached tip of ${h.ref} was stale (now ${other ?? '(deleted)'}); rebuilding on it`,
      data: { other },
    });
    return;
  }
  const wait = retry.next();
  if (wait === null) throw new ConcurrentUpdate(h.ref, other ?? '', retry.retries + 1);
  h.cfg.logger?.({
    level: 'info',
    message: `${ctx.operation}: ${h.ref} moved to ${other ?? '(deleted)'}; retrying on the new tip in ${wait} ms`,
    data: { attempt: retry.retries, other, wait },
  });
  await h.cfg.sleep(wait);
}

/**
 * The write's retry state (src/core/backoff.ts), on a clock that stops while the operation waits for a
 * rate limit: time GitHub asked us to wait is not time spent losing races.
 *
 * @example
 * const retry = writeRetryOf(host, ctx);
 */
export function writeRetryOf(h: Pick<WriteHost, 'cfg'>, ctx: OpContext): WriteRetry {
  return new WriteRetry(h.cfg.writeRetry, h.cfg.random, () => h.cfg.now() - (ctx.rateWaitMs ?? 0));
}

/**
 * Run a write whose ref moves once, at its very end: a rate limit or a lost race that ends it leaves the
 * section untouched, which its error says (`data.outcome: "not-applied"`, as commit-create.ts does), so a
 * caller knows retrying the write is safe.
 *
 * @example
 * return definiteFailure(() => new SingleCommitWrite(…).run());
 */
export async function definiteFailure<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if ((e instanceof RateLimited || e instanceof ConcurrentUpdate) && e.data.outcome === undefined) {
      (e.data as Record<string, unknown>).outcome = 'not-applied';
    }
    throw e;
  }
}
