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

import { type CompactionRun, compactedMessage } from '../core/compaction-trailers.js';
import { ConcurrentUpdate, InvalidConfig, NotFound, RateLimited } from '../core/errors.js';
import type { HistoryEntry, RefStore, ReplacementCommit, VersionId } from '../core/refstore.js';
import { GITHUB_CONTENT_LIMITS, type PacingLimits, pacer } from './pacer.js';
import { type CompactPlan, planOf } from './plan.js';
import { checkPolicy, listingNeeded, type RetentionPolicy, selectKept } from './policy.js';

export interface CompactOptions {
  /** Clock in ms (default `Date.now`): "now" for `keepDays`, the pacer's, and the new root's `Docdb-Compaction-Date`. */
  now?: () => number;
  /** Wait used by the pacer and for a rate limit's `retryAt` (default a timer). */
  sleep?: (ms: number) => Promise<void>;
  /** Content-creating requests per minute and hour (default GitHub's 80 and 500); false: no pacing. */
  pacing?: PacingLimits | false;
  /** Moves tried while other writers keep landing (default 5). */
  maxAttempts?: number;
  /**
   * Only say what the compaction would do (`plan`: counts, the oldest kept commit, the requests and time it
   * would take) and write nothing: the section is listed (all of it, to count), nothing is created or moved.
   */
  dryRun?: boolean;
  /**
   * List the whole history so `removed` is a count even with `keepCommits` alone (which otherwise lists only
   * the newest N+1): on GitHub 1 more read request per 100 commits beyond them; free on local stores.
   */
  count?: boolean;
}

export interface CompactResult {
  /** False when the history already fits the policy, or on a dry run (nothing was written). */
  compacted: boolean;
  /** True when `dryRun` was asked: `plan` says what a compaction would do; nothing was written. */
  dryRun: boolean;
  /** The tip before. */
  previousVersion: VersionId;
  /** The tip after (the re-created tip when compacted). */
  version: VersionId | null;
  /** Commits re-created (the kept ones, and writers' commits that landed meanwhile); on a dry run, would be. */
  kept: number;
  /** Commits removed; null when not counted (a `keepCommits`-only listing stops below the oldest kept one). */
  removed: number | null;
  /** Moves tried (1 unless writers landed meanwhile). */
  attempts: number;
  /** Original commit → the commit that replaces it. */
  replaced: Record<VersionId, VersionId>;
  /** Upstream requests of the whole compaction (0 for local stores). */
  requests: number;
  /** What the policy keeps and removes in the section as listed, and what the compaction takes (plan.ts). */
  plan: CompactPlan;
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
  const limits = options.pacing === false ? false : (options.pacing ?? GITHUB_CONTENT_LIMITS);
  const pace = limits === false ? undefined : pacer(limits, now, sleep);
  const { entries, kept, plan, requests: listedWith } = await survey(store, policy, options, limits, now());
  let requests = listedWith;
  const from = (entries[0] as HistoryEntry).version;
  const result = {
    previousVersion: from,
    removed: plan.removed,
    replaced: {} as Record<VersionId, VersionId>,
    plan,
    dryRun: options.dryRun === true,
  };
  if (options.dryRun || kept.length === entries.length) {
    const wouldKeep = options.dryRun ? plan.kept : 0;
    return { ...result, compacted: false, version: from, kept: wouldKeep, attempts: 0, requests };
  }
  const root = { tip: from, date: isoSeconds(now()) };
  let batch = [...kept].reverse(); // oldest first
  let expected = from;
  let onto: VersionId | null = null;
  let rateWaits = 0;
  for (let attempt = 1; ; ) {
    const commits = batch.map((e, i) => replacement(e, onto === null && i === 0 ? root : undefined));
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

/** The re-creation of one kept commit (the new root also names the tip whose history it cuts, and when). */
function replacement(e: HistoryEntry, root: CompactionRun | undefined): ReplacementCommit {
  if (!e.tree) throw new InvalidConfig('store', `commits() gave no tree for ${e.version}: cannot re-create it`);
  return {
    tree: e.tree,
    message: compactedMessage(e.message, e.version, root),
    author: e.author,
    committer: e.committer,
  };
}

/** An ISO-8601 time to the second (as git prints dates): the new root's `Docdb-Compaction-Date`. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The section's commits as far as the policy needs (all of them for a dry run or `count`), what the policy
 * keeps of them, and the plan; `NotFound` for a section that does not exist.
 */
async function survey(
  store: RefStore,
  policy: RetentionPolicy,
  options: CompactOptions,
  limits: PacingLimits | false,
  now: number,
): Promise<{ entries: HistoryEntry[]; kept: HistoryEntry[]; plan: CompactPlan; requests: number }> {
  const listing = options.count ? Number.POSITIVE_INFINITY : listingNeeded(policy);
  // A dry run lists everything, to count; the plan's cost is the compaction's own (which lists `listing`).
  const whole = options.dryRun === true || listing === Number.POSITIVE_INFINITY;
  const listed = await store.commits!({ limit: whole ? Number.POSITIVE_INFINITY : listing });
  const entries = listed.entries;
  if (entries.length === 0) {
    throw new NotFound(`${store.ref} does not exist: there is no section to compact`, { ref: store.ref });
  }
  const kept = selectKept(entries, policy, now);
  const plan = await planOf(entries, kept, { whole, listing, pacing: limits });
  return { entries, kept, plan, requests: listed.requests ?? 0 };
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
