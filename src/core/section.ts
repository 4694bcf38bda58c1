/**
 * "Is this version a commit of the section?" — true when the commit is reachable from the section's
 * tip. A VersionId must name a commit OF THE SECTION: any other commit of the repository (a branch
 * tip, another section's commit) is `InvalidVersion`, so `get(key, { version: <main's tip> })` can
 * never read data that was never in the section.
 */

import { compactionFacts, removedByCompaction } from './compaction-removed.js';
import { compactionRoot } from './compaction-trailers.js';
import { InvalidVersion } from './errors.js';
import type { CommitFields } from './git/objects.js';
import { historyEntry } from './git/tree-walk.js';
import type { HistoryEntry } from './refstore.js';

/**
 * Breadth-first walk over parents from `tip` until `version` is found. `known` holds commits already
 * proven to be in the section (commits are immutable, so a positive answer stays true while the
 * section only moves forward); every commit visited on the way is added to it.
 *
 * @example
 * await isInSection(v, tip, async (sha) => db.getCommit(sha).parents, knownSet); // true / false
 */
export async function isInSection(
  version: string,
  tip: string | null,
  parentsOf: (sha: string) => Promise<readonly string[]> | readonly string[],
  known?: Set<string>,
): Promise<boolean> {
  if (known?.has(version)) return true;
  if (tip === null) return false;
  const seen = new Set<string>([tip]);
  let frontier = [tip];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const sha of frontier) {
      if (sha === version) {
        if (known) for (const s of seen) known.add(s);
        return true;
      }
      for (const p of await parentsOf(sha)) {
        if (!seen.has(p)) {
          seen.add(p);
          next.push(p);
        }
      }
    }
    frontier = next;
  }
  if (known) for (const s of seen) known.add(s);
  return false;
}

/**
 * The error for a version that is a commit, but not of this section.
 *
 * @example
 * throw notInSection('0123…', 'refs/docdb/documents');
 */
export function notInSection(version: string, ref: string): InvalidVersion {
  return new InvalidVersion(
    version,
    `version ${version} is not a commit of the section ${ref} (not reachable from its tip); use a version returned by this section's writes, list or history`,
  );
}

/**
 * The commits of a section, newest first as a breadth-first walk from the tip meets them (on a linear
 * section: the first-parent chain), at most `limit` — `RefStore.commits` for stores that read commits by SHA.
 *
 * @example
 * const entries = await sectionLog(tip, async (sha) => db.getCommit(sha), 1000);
 */
export async function sectionLog(
  tip: string | null,
  readCommit: (sha: string) => Promise<CommitFields> | CommitFields,
  limit: number,
): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = [];
  if (tip === null) return entries;
  const seen = new Set<string>([tip]);
  let frontier = [tip];
  while (frontier.length > 0 && entries.length < limit) {
    const next: string[] = [];
    for (const sha of frontier) {
      if (entries.length >= limit) break;
      const c = await readCommit(sha);
      entries.push({ ...historyEntry(sha, c), tree: c.tree });
      for (const p of c.parents) {
        if (!seen.has(p)) {
          seen.add(p);
          next.push(p);
        }
      }
    }
    frontier = next;
  }
  return entries;
}

/**
 * `notInSection`, told better when the section was compacted (docs/retention.md): "removed by the compaction
 * at <tip> on <date>; history kept from <root>", naming the kept commit with the same tree when one's
 * `Docdb-Compacted-From` trailer names the version (compaction-removed.ts). `commits` are ALL the section's
 * commits, newest first (read only on this error path).
 *
 * @example
 * throw compactedOrNotInSection(version, ref, await sectionLog(tip, readCommit, Infinity));
 */
export function compactedOrNotInSection(
  version: string,
  ref: string,
  commits: readonly { version: string; message: string }[],
): InvalidVersion {
  return removedByCompaction(version, ref, compactionFacts(version, commits, true)) ?? notInSection(version, ref);
}

/**
 * A history result from its entries, with `compactedAt` when the last entry is a compaction root (a commit
 * without parents whose `Docdb-Compaction-Root` trailer says older history was cut there).
 *
 * @example
 * return { ...historyOf(entries), requests: 0 };
 */
export function historyOf(entries: HistoryEntry[]): { entries: HistoryEntry[]; compactedAt?: string } {
  const last = entries[entries.length - 1];
  const root = last && last.parents.length === 0 && compactionRoot(last.message) !== undefined;
  return root ? { entries, compactedAt: last.version } : { entries };
}

/**
 * One page of a key's history from a walk that was allowed `limit + 1` entries: the first `limit`, with
 * `nextCursor` — the entry after the page, where the next page's walk starts (inclusive) — when the walk
 * found one; `compactedAt` as `historyOf` says. How local stores page (`KeyHistoryOptions.cursor`).
 *
 * @example
 * const found = await walk(start, limit + 1); // limit + 1: Infinity stays Infinity
 * return { ...historyPage(found, limit), requests: 0 };
 */
export function historyPage(
  found: HistoryEntry[],
  limit: number,
): { entries: HistoryEntry[]; compactedAt?: string; nextCursor?: string } {
  if (found.length <= limit) return historyOf(found);
  return { ...historyOf(found.slice(0, limit)), nextCursor: (found[limit] as HistoryEntry).version };
}
