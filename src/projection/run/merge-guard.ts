/**
 * The shard merge as a compare-and-set per key: a key a shard changed is written to the section only
 * while the section still holds, for that key, what it held at the commit the shard started from (or
 * holds the shard's value already). A write another writer made in between (a direct run, a library
 * `put`) is never overwritten: the merge fails naming the keys, nothing written, the shard refs kept
 * (docs/action.md, "A write that races the merge").
 *
 * Checked on the tip each attempt of the merge commit builds on, through the commit's guard
 * (WriteGuardOptions: again after every lost race, so a write that lands during the merge is seen too):
 * nothing to read while the section is still at the shards' base; otherwise one `changes` per base (one
 * compare on GitHub), whose blob SHAs say what the section holds now.
 */
import { PreconditionFailed } from '../../core/errors.js';
import type { RefStore } from '../../core/refstore.js';

/** A key one shard changed: what the section held at the shard's base, and what the shard wrote (null: removed). */
export interface Claim {
  shard: number;
  base: string | null;
  previous: string | null;
  blob: string | null;
}

/** A claimed key the section changed since the shard's base, to something else than the shard's value. */
export interface Conflict extends Claim {
  key: string;
  /** The key's blob at the tip the merge would land on (null: absent). */
  actual: string | null;
}

/** Keys shown in the message; `data.keys` holds up to 100. */
const SHOWN = 10;

/**
 * The merge found keys written by someone else since the shards started: `data.keys` (up to 100),
 * `data.conflicts` (how many), `data.version` (the section tip checked). Nothing was written.
 */
export class MergeConflict extends PreconditionFailed {
  constructor(ref: string, conflicts: readonly Conflict[], version: string | null) {
    const first = conflicts[0] as Conflict;
    super(first.key, first.previous, first.actual, version);
    const shown = conflicts
      .slice(0, SHOWN)
      .map((c) => `${JSON.stringify(c.key)} (shard ${c.shard})`)
      .join(', ');
    const more = conflicts.length > SHOWN ? ` and ${conflicts.length - SHOWN} more` : '';
    this.message = `cannot merge into ${ref}: ${conflicts.length} key(s) the shards changed were also changed in the section by another writer after the shards started (the section is now at ${version ?? '(deleted)'}): ${shown}${more}. Merging would overwrite those writes, so nothing was written and the shard refs are kept. Re-run all jobs of this workflow run: the shards then start from the section's current tip, and their merge lands`;
    Object.assign(this.data, {
      reason: 'conflict',
      keys: conflicts.slice(0, 100).map((c) => c.key),
      conflicts: conflicts.length,
    });
  }
}

/**
 * The keys the shards changed, grouped by the base each shard started from, and the guard that checks
 * them on a tip.
 *
 * @example
 * const claims = new MergeClaims();
 * claims.add('n/t/a.json', { shard: 1, base, previous: 'ab…', blob: 'cd…' });
 * await new DocumentStore(section).commit(ops, { guard: claims.guard(section) });
 */
export class MergeClaims {
  private readonly byBase = new Map<string | null, Map<string, Claim>>();

  add(key: string, claim: Claim): void {
    let keys = this.byBase.get(claim.base);
    if (!keys) {
      keys = new Map();
      this.byBase.set(claim.base, keys);
    }
    keys.set(key, claim);
  }

  /** The commit guard: throws MergeConflict when the tip `version` holds a write the shards did not see. */
  guard(section: RefStore): (at: { version: string | null }) => Promise<void> {
    return async ({ version }) => {
      const conflicts: Conflict[] = [];
      for (const [base, keys] of this.byBase) {
        if (base === version) continue;
        const now = await sectionChanges(section, base, version, keys);
        for (const [key, claim] of keys) {
          if (!now.has(key)) continue;
          const actual = now.get(key) ?? null;
          if (actual !== claim.blob) conflicts.push({ key, ...claim, actual });
        }
      }
      if (conflicts.length > 0) {
        conflicts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        throw new MergeConflict(section.ref, conflicts, version);
      }
    };
  }
}

/** Every key that differs between `base` and `version` of the section, with its blob at `version` (null: absent). */
async function sectionChanges(
  section: RefStore,
  base: string | null,
  version: string | null,
  claimed: ReadonlyMap<string, Claim>,
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (version === null) {
    // The section was deleted after the shards started: every key it held is gone.
    for (const [key, claim] of claimed) if (claim.previous !== null) out.set(key, null);
    return out;
  }
  if (base === null) {
    // Created by someone else after the shards started: everything in it is new.
    for (const e of (await section.list({ version })).entries) out.set(e.key, e.blobSha);
    return out;
  }
  const diff = await section.changes({ from: base, to: version });
  for (const c of [...diff.added, ...diff.modified]) out.set(c.key, c.blobSha ?? null);
  for (const c of diff.removed) out.set(c.key, null);
  return out;
}
