/**
 * What a compaction keeps and removes, and what it takes: the answer of a dry run
 * (`compactSection(store, policy, { dryRun: true })`, `docdb section compact --dry-run`) and part of every
 * compaction's result. Made from the section's listing alone: no write, no request beyond the listing.
 */
import type { HistoryEntry, VersionId } from '../core/refstore.js';
import { type PacingLimits, pacer } from './pacer.js';

export interface CompactPlan {
  /** Commits of the section listed (every commit when `removed` is a count). */
  listed: number;
  /** Commits kept (re-created on the new root). */
  kept: number;
  /** Commits removed; null when not counted (a `keepCommits`-only listing stops below the oldest kept one). */
  removed: number | null;
  /** The oldest kept commit (the new root will hold its tree) and its committer date. */
  oldestKept: { version: VersionId; date: string };
  /**
   * Requests the compaction takes on GitHub's API when no writer lands meanwhile: the listing pages (100
   * commits each), one `POST /git/commits` per kept commit, the repository-id query and the `updateRefs`
   * move (docs/retention.md "Cost on GitHub"). Local stores make none; a git remote takes one push.
   */
  githubRequests: number;
  /** Of `githubRequests`, the content-creating ones (the kept commits and the move). */
  contentCreating: number;
  /**
   * At least how long the pacing makes the compaction take (ms): the pacer's own arithmetic over
   * `contentCreating` requests taking no time (add the host's latency); 0 without pacing.
   */
  pacedMs: number;
}

/** How the section was listed and how the compaction lists it and paces itself. */
export interface PlanBasis {
  /** `entries` hold the whole history (so removed commits can be counted). */
  whole: boolean;
  /** How many commits the compaction lists (Infinity: all): its listing pages. */
  listing: number;
  /** The limits it paces within (false: none). */
  pacing: PacingLimits | false;
}

/**
 * The plan for keeping `kept` of `entries` (both newest first, `kept` a subsequence).
 *
 * @example
 * const kept = selectKept(entries, { keepCommits: 720 }, Date.now());
 * const plan = await planOf(entries, kept, { whole: true, listing: 721, pacing: GITHUB_CONTENT_LIMITS });
 * plan.githubRequests; // listing pages + kept commits + 2
 */
export async function planOf(
  entries: readonly HistoryEntry[],
  kept: readonly HistoryEntry[],
  { whole, listing, pacing }: PlanBasis,
): Promise<CompactPlan> {
  const oldest = kept[kept.length - 1] as HistoryEntry;
  const nothing = kept.length === entries.length;
  const pages = Math.max(1, Math.ceil(Math.min(listing, entries.length) / 100));
  const contentCreating = nothing ? 0 : kept.length + 1;
  return {
    listed: entries.length,
    kept: kept.length,
    removed: whole || nothing ? entries.length - kept.length : null,
    oldestKept: { version: oldest.version, date: oldest.committer.date },
    githubRequests: nothing ? pages : pages + kept.length + 2,
    contentCreating,
    pacedMs: pacing === false ? 0 : await pacedDuration(contentCreating, pacing),
  };
}

/** How long `n` paced requests take at `limits` on a virtual clock (the requests themselves take no time). */
async function pacedDuration(n: number, limits: PacingLimits): Promise<number> {
  let t = 0;
  const pace = pacer(
    limits,
    () => t,
    async (ms) => {
      t += ms;
    },
  );
  for (let i = 0; i < n; i++) await pace();
  return t;
}
