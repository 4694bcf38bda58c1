/**
 * `compactSection`: replace a section's older history by ONE root commit holding the tree of the oldest
 * kept state, with the kept commits re-created on it (same trees, authors, committers and messages plus a
 * `Docdb-Compacted-From` trailer), and move the ref in one compare-and-swap that allows the non-fast-forward
 * (`RefStore.replaceHistory`). A writer that lands meanwhile is never lost: its new commits are re-created
 * on the new history too and the move is tried again; after `maxAttempts` the compaction gives up with the
 * section as the writers left it (the commits it created are unreferenced; git's GC removes them). A rate
 * limit the pacing could not foresee (the token created other content within the hour; an earlier run was
 * cut off) is sat out as the host says, up to 3 times, and the compaction goes on after the commits that
 * exist (`ReplaceHistoryOptions.onCreated`): none is created twice.
 * Budget on GitHub, keeping k commits: ⌈(k+1)/100⌉ listing pages + k commits + 1 id query + 1 mutation.
 * See docs/retention.md.
 */

import { compactedMessage } from '../core/compaction-trailers.js';
import { ConcurrentUpdate, InvalidConfig, NotFound, RateLimited } from '../core/errors.js';
import type { HistoryEntry, RefStore, ReplacementCommit, VersionId } from '../core/refstore.js';
import { GITHUB_CONTENT_LIMITS, type PacingLimits, pacer } from './pacer.js';
import { checkPolicy, listingNeeded, type RetentionPolicy, selectKept } from './policy.js';

export interface CompactOptions {
  /** Clock in ms (default `Date.now`): "now" for `keepDays`, and the pacer's. */
  now?: () => number;
  /** Wait used by the pacer and for a rate limit's `retryAt` (default a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Content-creating requests per minute and hour (default GitHub's 80 and 500); false: no pacing. */
  pacing?: PacingLimits | false;
  /** Moves tried while other writers keep landing (default 5). */
  maxAttempts?: number;
}

export interface CompactResult {
  /** False when the history already fits the policy (nothing was written). */
  compacted: boolean;
  /** The tip before. */
  previousVersion: VersionId;
  /** The tip after (the re-created tip when compacted). */
  version: VersionId | null;
  /** Commits re-created (the kept ones, and writers' commits that landed meanwhile). */
  kept: number;
  /** Commits removed; null when not counted (a `keepCommits`-only listing stops below the oldest kept one). */
  removed: number | null;
  /** Moves tried (1 unless writers landed meanwhile). */
  attempts: number;
  /** Original commit → the commit that replaces it. */
  replaced: Record<VersionId, VersionId>;
  /** Upstream requests of the whole compaction (0 for local stores). */
  requests: number;
}

type Rewriter = NonNullable<RefStore['replaceHistory']>;

/**
 * Compact `store`'s section to what `policy` keeps.
 *
 * @example
 * import { compactSection } from 'docdb';
 * const r = await compactSection(store, { keepCommits: 720, thin: 'week' });
 * console.log(`${r.kept} commits kept; tip ${r.version}`);
 */
export async function compactSection(
  store: RefStore,
  policy: RetentionPolicy,
  options: CompactOptions = {},
): Promise<CompactResult> {
  checkPolicy(policy);
  const rewrite = capability(store);
  const now = options.now ?? Date.now;
  const maxAttempts = checkAttempts(options.maxAttempts ?? 5);
  const sleep = options.sleep ?? wait;
  const pace = options.pacing === false ? undefined : pacer(options.pacing ?? GITHUB_CONTENT_LIMITS, now, sleep);
  const listed = await store.commits!({ limit: listingNeeded(policy) });
  let requests = listed.requests ?? 0;
  const entries = listed.entries;
  if (entries.length === 0) {
    throw new NotFound(`${store.ref} does not exist: there is no section to compact`, { ref: store.ref });
  }
  const from = entries[0]!.version;
  const kept = selectKept(entries, policy, now());
  const counted = listingNeeded(policy) === Number.POSITIVE_INFINITY;
  const result = {
    previousVersion: from,
    removed: counted ? entries.length - kept.length : null,
    replaced: {} as Record<VersionId, VersionId>,
  };
  if (kept.length === entries.length) {
    return { ...result, compacted: false, version: from, kept: 0, removed: 0, attempts: 0, requests };
  }
  let batch = [...kept].reverse(); // oldest first
  let expected = from;
  let onto: VersionId | null = null;
  let rateWaits = 0;
  for (let attempt = 1; ; ) {
    const commits = batch.map((e, i) => replacement(e, onto === null && i === 0 ? from : undefined));
    const made: VersionId[] = [];
    const keep = (created: readonly VersionId[]) => {
      created.forEach((sha, i) => {
        result.replaced[(batch[i] as HistoryEntry).version] = sha;
      });
      onto = created[created.length - 1] ?? onto;
      batch = batch.slice(created.length);
    };
    let r: Awaited<ReturnType<Rewriter>>;
    try {
      r = await rewrite({
        from: expected,
        onto,
        commits,
        onCreated: (sha) => made.push(sha),
        ...(pace ? { pace } : {}),
      });
    } catch (e) {
      // A rate limit the pacer could not foresee (the token created other content within the hour, or an
      // earlier run was cut off): wait as the host said, then go on after the commits that exist.
      const ms = rateLimitWait(e, now(), ++rateWaits);
      requests += requestsOf(e);
      keep(made);
      await sleep(ms);
      continue;
    }
    requests += r.requests ?? 0;
    keep(r.created);
    if (r.moved) {
      const keptNow = Object.keys(result.replaced).length;
      return { ...result, compacted: true, version: r.tip, kept: keptNow, attempts: attempt, requests };
    }
    if (r.tip === null || attempt >= maxAttempts) throw gaveUp(store.ref, r.tip, attempt);
    // Another writer landed: its commits are re-created on the new history too, then the move is tried again.
    const landed = await landedSince(store, expected);
    requests += landed.requests;
    if (!landed.tip) throw gaveUp(store.ref, r.tip, attempt);
    batch = landed.entries;
    expected = landed.tip;
    attempt++;
  }
}

/** Rate-limit waits a compaction sits out (each up to an hour: GitHub's longest window) before it gives up. */
const RATE_WAITS = 3;
const HOUR_MS = 3_600_000;

/**
 * How long to wait after `e` before going on: a `RateLimited` with a known end within the hour, at most
 * RATE_WAITS times; anything else is thrown as it is (the section untouched: the ref had not moved).
 */
function rateLimitWait(e: unknown, now: number, waits: number): number {
  if (!(e instanceof RateLimited) || waits > RATE_WAITS) throw e;
  const at = typeof e.data.retryAt === 'string' ? Date.parse(e.data.retryAt) : Number.NaN;
  const ms = Number.isFinite(at) ? at - now : (e.retryAfter ?? Number.NaN) * 1000;
  if (!Number.isFinite(ms) || ms > HOUR_MS) throw e;
  return Math.max(0, ms);
}

/** Requests an operation made before it failed (the remote-api stores put them in the error's data). */
function requestsOf(e: unknown): number {
  const n = (e as { data?: { requests?: unknown } }).data?.requests;
  return typeof n === 'number' ? n : 0;
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function checkAttempts(n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidConfig('maxAttempts', `maxAttempts must be an integer >= 1 (got ${String(n)})`, {
      allowed: 'integer >= 1',
    });
  }
  return n;
}

/** The store's `replaceHistory`, or `InvalidConfig` for a store that cannot replace history with a compare. */
function capability(store: RefStore): Rewriter {
  if (typeof store.replaceHistory !== 'function' || typeof store.commits !== 'function') {
    throw new InvalidConfig(
      'store',
      `this store cannot compact ${store.ref}: it has no replaceHistory (a compare-and-swap ref move) or no commits()`,
      { allowed: 'a RefStore with replaceHistory and commits' },
    );
  }
  return (o) => store.replaceHistory!(o);
}

/** The re-creation of one kept commit (the new root also names the tip whose history it cuts). */
function replacement(e: HistoryEntry, rootOf: VersionId | undefined): ReplacementCommit {
  if (!e.tree) throw new InvalidConfig('store', `commits() gave no tree for ${e.version}: cannot re-create it`);
  return {
    tree: e.tree,
    message: compactedMessage(e.message, e.version, rootOf),
    author: e.author,
    committer: e.committer,
  };
}

/**
 * The section's tip now and the commits that landed on it after `expected`, oldest first — no tip when
 * `expected` is no longer below it (someone rewrote the section: stop rather than guess).
 */
async function landedSince(
  store: RefStore,
  expected: VersionId,
): Promise<{ tip: VersionId | undefined; entries: HistoryEntry[]; requests: number }> {
  let requests = 0;
  for (let limit = 100; ; limit *= 10) {
    const listed = await store.commits!({ limit });
    requests += listed.requests ?? 0;
    const at = listed.entries.findIndex((e) => e.version === expected);
    if (at >= 0) return { tip: listed.entries[0]!.version, entries: listed.entries.slice(0, at).reverse(), requests };
    if (listed.entries.length < limit) return { tip: undefined, entries: [], requests };
  }
}

function gaveUp(ref: string, tip: VersionId | null, attempts: number): ConcurrentUpdate {
  const e = new ConcurrentUpdate(ref, tip ?? 'nothing (the section was deleted)', attempts);
  e.message = `compaction of ${ref} gave up: other writers kept moving it (now ${tip ?? 'deleted'}) after ${attempts} attempt(s); the section is as those writers left it, nothing of theirs was lost. Re-run the compaction.`;
  return e;
}
