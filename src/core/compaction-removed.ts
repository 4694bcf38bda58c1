/**
 * What a section's compaction trailers (compaction-trailers.ts) say about a version it no longer holds, and
 * the `InvalidVersion` that says it: "removed by the compaction at <tip> on <date>; history kept from
 * <root>". Shared by every store's pinned read of a full SHA (section.ts `compactedOrNotInSection`) and by
 * `resolveVersion` for an abbreviation, so both say the same sentence on every backend.
 *
 * What the trailers prove: a version a kept commit's `Docdb-Compacted-From` names WAS removed (re-created
 * as that commit, same tree). The last such line of a commit comes from the newest compaction (it
 * re-created every commit it kept), earlier lines from earlier ones. Any other version missing from a
 * section whose oldest commit is a compaction root was removed by that compaction IF it was a version of
 * the section at all — nothing kept names it, so the sentence says "if".
 */
import { compactedFrom, compactionDate, compactionRoot, FROM_TRAILER } from './compaction-trailers.js';
import { InvalidVersion } from './errors.js';

/** A commit of the section as the error paths list them (newest first). */
export interface SectionCommit {
  version: string;
  message: string;
}

/** A removed version a kept commit names. */
export interface NamedRemoval {
  /** The removed commit (full SHA). */
  removed: string;
  /** The newest kept commit whose `Docdb-Compacted-From` names it: the same tree. */
  keptAs: string;
  /** Removed by the newest compaction (the root's); false: by an earlier one. */
  latest: boolean;
}

export interface CompactionFacts {
  /** Distinct removed versions starting with the prefix asked, as kept commits name them. */
  named: NamedRemoval[];
  /** The section's oldest commit, when the commits reach it and it is a compaction root. */
  root?: { version: string; tip: string; date?: string };
}

/**
 * The facts for `prefix` (a full SHA or an abbreviation, lowercase) in `commits` (newest first);
 * `complete`: the commits reach the section's oldest one (else no root is claimed).
 *
 * @example
 * const facts = compactionFacts('2ce87ab', (await store.commits()).entries, true);
 * facts.named[0]?.keptAs; // the kept commit with the removed version's tree
 */
export function compactionFacts(prefix: string, commits: readonly SectionCommit[], complete: boolean): CompactionFacts {
  const named = new Map<string, NamedRemoval>();
  for (const c of commits) {
    const lines = compactedFrom(c.message);
    lines.forEach((removed, i) => {
      if (removed.startsWith(prefix) && !named.has(removed)) {
        named.set(removed, { removed, keptAs: c.version, latest: i === lines.length - 1 });
      }
    });
  }
  const oldest = commits[commits.length - 1];
  const tip = complete && oldest ? compactionRoot(oldest.message) : undefined;
  if (!oldest || tip === undefined) return { named: [...named.values()] };
  const date = compactionDate(oldest.message);
  return { named: [...named.values()], root: { version: oldest.version, tip, ...(date ? { date } : {}) } };
}

/**
 * The `InvalidVersion` (`data.reason` `compacted`) for `asked` when `facts` say a compaction removed it (or
 * may have: see the module header); undefined when they say nothing about it. `data`: `removed` (the full
 * SHA, when named), `keptAs`, `compactionRoot` (history kept from), `compactedTip` (the tip the compaction
 * started from), `compactedOn` (its date).
 *
 * @example
 * throw removedByCompaction(version, ref, compactionFacts(version, log, true)) ?? notInSection(version, ref);
 */
export function removedByCompaction(asked: string, ref: string, facts: CompactionFacts): InvalidVersion | undefined {
  const { root } = facts;
  const by = root ? `the compaction at ${root.tip}${root.date ? ` on ${root.date}` : ''}` : 'a compaction';
  const keptFrom = root ? `; history kept from ${root.version}` : '';
  const data = {
    reason: 'compacted',
    ...(root ? { compactionRoot: root.version, compactedTip: root.tip } : {}),
    ...(root?.date ? { compactedOn: root.date } : {}),
  };
  const named = facts.named[0];
  if (named) {
    const which = named.latest ? by : `an earlier compaction than ${by}`;
    const label = named.removed === asked ? asked : `${JSON.stringify(asked)} (${named.removed})`;
    return new InvalidVersion(
      asked,
      `version ${label} was removed from ${ref} by ${which}${keptFrom}; commit ${named.keptAs} holds the same tree (its ${FROM_TRAILER} trailer names ${named.removed}): read that version instead`,
      { ...data, removed: named.removed, keptAs: named.keptAs },
    );
  }
  if (!root) return undefined;
  const label = /^[0-9a-f]{40}$/.test(asked) ? asked : JSON.stringify(asked);
  return new InvalidVersion(
    asked,
    `version ${label} is not a commit of ${ref} (no kept commit names it): if it was one, it was removed by ${by}${keptFrom}`,
    data,
  );
}
