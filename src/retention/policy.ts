/**
 * Retention policies (docs/retention.md): which commits of a section a compaction keeps. A commit is kept
 * when it is one of the newest `keepCommits`, OR was committed within the last `keepDays` (either or both;
 * the tip is always kept); with `thin`, the older history keeps its newest commit of each UTC day or ISO week
 * instead of disappearing. Everything else is replaced by the oldest kept commit, re-created as a root.
 */
import { InvalidConfig } from '../core/errors.js';
import type { HistoryEntry } from '../core/refstore.js';

export interface RetentionPolicy {
  /** Keep the newest N commits (an integer ≥ 1). */
  keepCommits?: number;
  /** Keep the commits of the last D days (a number > 0), by committer date. */
  keepDays?: number;
  /** Thin the older history to one commit per UTC day or ISO week instead of removing it. */
  thin?: 'day' | 'week';
}

const DAY_MS = 86_400_000;
const ALLOWED = '{ keepCommits: integer >= 1 and/or keepDays: number > 0, thin?: "day" | "week" }';

/**
 * The policy, checked before any I/O: `InvalidConfig` naming the field for a policy that keeps nothing or
 * a value out of range.
 *
 * @example
 * checkPolicy({ keepCommits: 720 }); // ok
 * checkPolicy({}); // throws InvalidConfig: a policy must keep something
 */
export function checkPolicy(p: RetentionPolicy): RetentionPolicy {
  if (!p || typeof p !== 'object') throw new InvalidConfig('retention', `a retention policy is ${ALLOWED}`);
  const { keepCommits, keepDays, thin } = p;
  if (keepCommits !== undefined && (!Number.isInteger(keepCommits) || keepCommits < 1)) {
    throw new InvalidConfig('keepCommits', `keepCommits must be an integer >= 1 (got ${String(keepCommits)})`, {
      allowed: 'integer >= 1',
    });
  }
  if (keepDays !== undefined && (typeof keepDays !== 'number' || !Number.isFinite(keepDays) || keepDays <= 0)) {
    throw new InvalidConfig('keepDays', `keepDays must be a number of days > 0 (got ${String(keepDays)})`, {
      allowed: 'number > 0',
    });
  }
  if (keepCommits === undefined && keepDays === undefined) {
    throw new InvalidConfig(
      'retention',
      'this retention policy keeps nothing: give keepCommits (>= 1) and/or keepDays (> 0); thin alone only thins what they do not keep',
      { allowed: ALLOWED },
    );
  }
  if (thin !== undefined && thin !== 'day' && thin !== 'week') {
    throw new InvalidConfig('thin', `thin must be "day" or "week" (got ${String(thin)})`, { allowed: 'day | week' });
  }
  return p;
}

/** How many of the newest commits the listing must hold to decide (Infinity: all of them). */
export function listingNeeded(p: RetentionPolicy): number {
  return p.keepDays === undefined && p.thin === undefined ? (p.keepCommits as number) + 1 : Number.POSITIVE_INFINITY;
}

/** The UTC day, or the Monday of the ISO week, a date falls in (as a day number). */
function bucketOf(ms: number, thin: 'day' | 'week'): number {
  const day = Math.floor(ms / DAY_MS);
  if (thin === 'day') return day;
  // 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays.
  return day - ((day + 3) % 7);
}

/**
 * The commits to keep, newest first (a subsequence of `entries`, which are the section's commits newest
 * first along its first-parent chain).
 *
 * @example
 * const kept = selectKept(entries, { keepCommits: 2 }, Date.now()); // the two newest
 */
export function selectKept(entries: readonly HistoryEntry[], p: RetentionPolicy, now: number): HistoryEntry[] {
  const cutoff = p.keepDays === undefined ? undefined : now - p.keepDays * DAY_MS;
  const seenBuckets = new Set<number>();
  return entries.filter((e, i) => {
    if (i === 0 || (p.keepCommits !== undefined && i < p.keepCommits)) return true;
    const at = Date.parse(e.committer.date);
    if (cutoff !== undefined && at >= cutoff) return true;
    if (p.thin === undefined) return false;
    const bucket = bucketOf(at, p.thin);
    if (seenBuckets.has(bucket)) return false;
    seenBuckets.add(bucket);
    return true;
  });
}
