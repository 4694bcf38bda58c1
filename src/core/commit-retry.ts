/**
 * The one rebase-and-retry loop of the stores that publish with a compare-and-swap (local git, the
 * subprocess remote, IndexedDB): read the tip, build the change on it, publish; after a lost race
 * rebase the same change onto the new tip and try again with the full-jitter backoff and time budget
 * of `backoff.ts`, then `ConcurrentUpdate`. (The GitHub API store has its own loop: a lost race there
 * costs requests, and it replays the other writer's changes from one compare instead of re-reading.)
 */
import { WriteRetry, type WriteRetryPolicy } from './backoff.js';
import { derivedChanges, type ReadAt } from './derive.js';
import { ConcurrentUpdate } from './errors.js';
import type { normalizeChanges, WritePlan } from './plan.js';
import type { DeriveChanges, WriteResult } from './refstore.js';

/** The all-zero SHA: what a compare-and-swap reports for a ref that does not exist. */
export const ZERO_SHA = '0'.repeat(40);

export interface RetryingWrite {
  ref: string;
  /** Backoff and budget for retries after a lost compare-and-swap (src/core/backoff.ts). */
  retry: WriteRetryPolicy;
  /** Current tip (for the remote store: fetched, so its objects are local). */
  readTip: () => Promise<string | null>;
  /**
   * Plan the change on `tip` and store its objects; `commit` is null when every change is a no-op.
   * `derived`: this attempt's derived changes (`CommitOptions.derive`), to commit with the write's own.
   */
  build: (
    tip: string | null,
    derived: ReturnType<typeof normalizeChanges>,
  ) => Promise<{ plan: Pick<WritePlan, 'written' | 'deleted' | 'unchanged'>; commit: string | null }>;
  /** The write's derive hook and its own keys (derived keys must differ); `read` gives values at a tip. */
  derive?: {
    hook: DeriveChanges | undefined;
    own: readonly { key: string; sha?: string }[];
    read: (tip: string | null) => ReadAt;
  };
  /** Compare-and-swap the ref from `tip` to `commit`; false when another writer moved it first. */
  publish: (tip: string | null, commit: string) => Promise<boolean>;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/**
 * Write with rebase-and-retry on a lost compare-and-swap.
 *
 * @example
 * const result = await commitWithRetry({ ref, retry: resolveWriteRetry({}), readTip, build, publish });
 */
export async function commitWithRetry(w: RetryingWrite): Promise<WriteResult> {
  const sleep = w.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const retry = new WriteRetry(w.retry, w.random);
  for (let attempt = 1; ; attempt++) {
    const tip = await w.readTip();
    const d = w.derive;
    const derived = d ? await derivedChanges(d.hook, d.own, tip, d.read(tip)) : [];
    const { plan, commit } = await w.build(tip, derived);
    const base = { previousVersion: tip, written: plan.written, deleted: plan.deleted, unchanged: plan.unchanged };
    if (!commit) return { ...base, version: tip, changed: false, requests: 0 };
    if (await w.publish(tip, commit)) return { ...base, version: commit, changed: true, requests: 0 };
    // Full-jitter backoff keeps many losing writers from colliding again in lockstep.
    const wait = retry.next();
    if (wait === null) throw new ConcurrentUpdate(w.ref, (await w.readTip()) ?? ZERO_SHA, attempt);
    await sleep(wait);
  }
}
