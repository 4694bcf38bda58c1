/**
 * Abbreviated versions typed back: docdb (like git) prints 7-character commit SHAs, and a user pastes
 * them into `--version`/`--since` or the Action's `since`. This is the ONE place an abbreviation becomes
 * a full VersionId, by searching the section's own commits (`RefStore.commits`) — never the repository's,
 * so a prefix can only name a commit of the section. The search is bounded (`depth`); a full SHA never
 * needs it. See docs/documents.md "Versions".
 */
import { compactionFacts, removedByCompaction } from './compaction-removed.js';
import { InvalidVersion } from './errors.js';
import type { HistoryEntry, RefStore } from './refstore.js';
import type { VersionId } from './version.js';

/** Shortest abbreviation accepted: git's own minimum (`core.abbrev` cannot go below 4). */
export const MIN_VERSION_PREFIX = 4;

/** How many of the section's newest commits an abbreviation is searched in (10 history pages on GitHub). */
export const RESOLVE_VERSION_DEPTH = 1000;

const FULL_RE = /^[0-9a-f]{40}$/;
const PREFIX_RE = /^[0-9a-f]{4,40}$/;

export interface ResolveVersionOptions {
  /** Search at most this many of the section's newest commits (default {@link RESOLVE_VERSION_DEPTH}). */
  depth?: number;
}

/** One line per candidate: `2ce87ab 2026-11-27T10:00:00Z docdb: put …`. */
function describe(e: HistoryEntry): string {
  return `${e.version.slice(0, 12)} ${e.committer.date} ${e.message.split('\n')[0]}`;
}

/**
 * The full version (commit SHA of the section) that `version` names: a 40-character SHA is returned as is,
 * without any I/O (reading at it still checks that it is a commit of the section); an abbreviation of at
 * least 4 hex characters is looked up among the section's newest `depth` commits. Throws `InvalidVersion`
 * (`data.reason`): `malformed` (not hex, or shorter than 4), `ambiguous` (`data.candidates` lists the
 * commits it could be), `not-in-section` (no commit of the section starts with it, as far as the search
 * looked), `compacted` (a compaction removed it, as the section's compaction trailers say: the message names
 * the compaction, its date and where history is kept from, `data.keptAs` the kept commit with its tree),
 * `unsupported` (the store cannot list its commits: give the full SHA).
 *
 * @example
 * const v = await resolveVersion(store, '2ce87ab'); // '2ce87ab…' (40 characters)
 * await store.get('github/repo/o/r.json', { version: v });
 */
export async function resolveVersion(
  store: Pick<RefStore, 'ref' | 'commits'>,
  version: string,
  options: ResolveVersionOptions = {},
): Promise<VersionId> {
  const depth = options.depth ?? RESOLVE_VERSION_DEPTH;
  if (!Number.isInteger(depth) || depth < 1) {
    throw new InvalidVersion(version, `resolveVersion: depth must be a positive integer, got ${String(depth)}`, {
      reason: 'malformed',
    });
  }
  const v = typeof version === 'string' ? version.toLowerCase() : version;
  if (typeof v !== 'string' || !PREFIX_RE.test(v)) {
    throw new InvalidVersion(
      version,
      `version ${JSON.stringify(version)} is not a commit SHA: give the 40 hex characters, or at least the first ${MIN_VERSION_PREFIX} (as docdb prints them, e.g. 2ce87ab)`,
      { reason: 'malformed' },
    );
  }
  if (FULL_RE.test(v)) return v;
  if (!store.commits) {
    throw new InvalidVersion(
      version,
      `version ${JSON.stringify(version)} is abbreviated, and this store cannot search the commits of ${store.ref} for it: give the full 40-character SHA`,
      { reason: 'unsupported' },
    );
  }
  const { entries } = await store.commits({ limit: depth });
  const matches = entries.filter((e) => e.version.startsWith(v));
  if (matches.length === 1) return (matches[0] as HistoryEntry).version;
  if (matches.length > 1) {
    throw new InvalidVersion(
      version,
      `version ${JSON.stringify(version)} is ambiguous: ${matches.length} commits of ${store.ref} start with it (${matches.map(describe).join('; ')}); give more characters`,
      { reason: 'ambiguous', candidates: matches.map((e) => e.version) },
    );
  }
  throw notFound(store.ref, version, v, entries, depth);
}

/**
 * No commit of the section starts with `v`: said as a removal when the compaction trailers say a compaction
 * removed it (or, in a compacted section searched to its root, may have), else as "not in the section",
 * with how far the search looked. Several removed versions starting with `v` are `ambiguous`.
 */
function notFound(
  ref: string,
  version: string,
  v: string,
  entries: readonly HistoryEntry[],
  depth: number,
): InvalidVersion {
  const facts = compactionFacts(v, entries, entries.length < depth);
  if (facts.named.length > 1) {
    const removed = facts.named.map((n) => n.removed);
    return new InvalidVersion(
      version,
      `version ${JSON.stringify(version)} is ambiguous: ${removed.length} versions that compactions removed from ${ref} start with it (${removed.join(', ')}); give more characters`,
      { reason: 'ambiguous', candidates: removed },
    );
  }
  const compacted = removedByCompaction(version, ref, facts);
  if (compacted) return compacted;
  const looked =
    entries.length === 0
      ? 'the section has no commits yet'
      : entries.length < depth
        ? `searched all ${entries.length} commits of the section`
        : `searched its newest ${depth} commits; a full 40-character SHA always works`;
  return new InvalidVersion(
    version,
    `version ${JSON.stringify(version)} is not a commit of the section ${ref} (${looked}); use a version printed by this section's writes, list or history`,
    { reason: 'not-in-section', searched: entries.length },
  );
}
