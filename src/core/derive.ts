/**
 * Derived changes (`CommitOptions.derive`): changes computed from the tip a write lands on — a section's
 * index files — joined to each attempt's commit. The stores call {@link derivedChanges} once per attempt,
 * on the tip that attempt builds on, so a lost race recomputes them on the new tip instead of rebasing
 * changes made for an old one (ARCHITECTURE.md, "Wave 4 seams").
 */
import { InvalidConfig } from './errors.js';
import { normalizeChanges } from './plan.js';
import type { DeriveChanges, DerivedRead, RefStore } from './refstore.js';
import type { VersionId } from './version.js';

type Normalized = ReturnType<typeof normalizeChanges>;

/** Reads at one version for a derive hook: key → value and blob SHA, or null when absent. */
export type ReadAt = (keys: readonly string[]) => Promise<Map<string, DerivedRead | null>>;

/**
 * The derived changes of one attempt, normalized (validated, blob SHAs computed); none without a hook.
 * A derived key that is also a key of the write itself is `InvalidConfig`: a derived change must not
 * overwrite what the caller asked for.
 *
 * @example
 * const extra = await derivedChanges(options.derive, normalized, tip, readAt(store, tip));
 * const all = [...normalized, ...extra];
 */
export async function derivedChanges(
  derive: DeriveChanges | undefined,
  own: readonly { key: string; sha?: string }[],
  version: VersionId | null,
  read: ReadAt,
): Promise<Normalized> {
  if (derive === undefined) return [];
  let shas: Map<string, string> | undefined;
  const written = (key: string) => {
    shas ??= new Map(own.flatMap((c) => (c.sha === undefined ? [] : [[c.key, c.sha] as [string, string]])));
    return shas.get(key);
  };
  const extra = normalizeChanges(await derive({ version, read, written }));
  if (extra.length === 0) return extra;
  const keys = new Set(own.map((c) => c.key));
  for (const c of extra) {
    if (keys.has(c.key)) {
      throw new InvalidConfig(
        'derive',
        `a derived change names ${JSON.stringify(c.key)}, a key the write changes itself`,
        {
          key: c.key,
          allowed: 'keys the write does not change',
        },
      );
    }
  }
  return extra;
}

/**
 * A derive hook's reader on any RefStore: one `get` per key at `version` (local stores read their own
 * objects; the GitHub API store has its own batched reader).
 *
 * @example
 * const read = readAt(store, tip);
 * const found = await read(['_docdb/indexes.json']); // Map { '_docdb/indexes.json' => null }
 */
export function readAt(store: Pick<RefStore, 'get'>, version: VersionId | null): ReadAt {
  return async (keys) => {
    const out = new Map<string, DerivedRead | null>();
    for (const key of new Set(keys)) {
      const got = version === null ? null : await store.get(key, { version });
      out.set(key, got && { value: got.value, blobSha: got.blobSha });
    }
    return out;
  };
}
