/**
 * Differences between two git trees, walking only the subtrees whose SHAs differ. Content addressing
 * makes equal subtrees free: two versions of a 100,000-key section that differ in one key cost the
 * tree levels on that key's path (twice: old and new), whatever the size of the rest.
 * Shared by every store's `changes()`; each supplies how to read one tree level.
 */
import type { ChangedKey } from '../refstore.js';

/** One entry of a tree level as a store reads it (git mode `040000` = tree, `160000` = submodule). */
export interface DiffTreeEntry {
  name: string;
  mode: string;
  sha: string;
}

/** Keys added, changed and removed, each in ascending code-unit order. */
export interface TreeDiff {
  added: ChangedKey[];
  changed: ChangedKey[];
  removed: ChangedKey[];
}

const isTree = (e: DiffTreeEntry) => e.mode === '040000' || e.mode === '40000';
const isBlob = (e: DiffTreeEntry) => !isTree(e) && e.mode !== '160000';
const byKey = (a: ChangedKey, b: ChangedKey) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Diff the trees `from` and `to` (null = the empty tree), keeping keys that start with `prefix`.
 * `readTree(sha)` returns one level; it is called only for trees that differ (and, for a directory
 * added or removed as a whole, for the levels below it, whose keys must be listed).
 *
 * @example
 * const d = await diffTrees(oldRoot, newRoot, (sha) => db.getTree(sha));
 * d.changed; // [{ key: 'a/b.json', blobSha: '…', previousBlobSha: '…' }]
 */
export async function diffTrees(
  from: string | null,
  to: string | null,
  readTree: (sha: string) => Promise<readonly DiffTreeEntry[]> | readonly DiffTreeEntry[],
  prefix = '',
): Promise<TreeDiff> {
  const out: TreeDiff = { added: [], changed: [], removed: [] };
  const wanted = (dir: string) => dir.startsWith(prefix) || prefix.startsWith(dir);

  /** Every key below a tree that exists on one side only. */
  const all = async (sha: string, base: string, side: 'added' | 'removed'): Promise<void> => {
    for (const e of await readTree(sha)) {
      const path = base + e.name;
      if (isTree(e)) {
        if (wanted(`${path}/`)) await all(e.sha, `${path}/`, side);
      } else if (isBlob(e) && path.startsWith(prefix)) {
        out[side].push(side === 'added' ? { key: path, blobSha: e.sha } : { key: path, previousBlobSha: e.sha });
      }
    }
  };

  const walk = async (a: string | null, b: string | null, base: string): Promise<void> => {
    if (a === b) return;
    if (a === null) return all(b as string, base, 'added');
    if (b === null) return all(a, base, 'removed');
    const left = new Map((await readTree(a)).map((e) => [e.name, e]));
    const right = new Map((await readTree(b)).map((e) => [e.name, e]));
    const names = new Set([...left.keys(), ...right.keys()]);
    for (const name of names) {
      const ea = left.get(name);
      const eb = right.get(name);
      const path = base + name;
      const dir = `${path}/`;
      if (ea && eb && ea.sha === eb.sha && ea.mode === eb.mode) continue;
      const aTree = ea !== undefined && isTree(ea);
      const bTree = eb !== undefined && isTree(eb);
      const aBlob = ea !== undefined && isBlob(ea) && path.startsWith(prefix);
      const bBlob = eb !== undefined && isBlob(eb) && path.startsWith(prefix);
      if (aBlob && bBlob) {
        if (ea.sha !== eb.sha) out.changed.push({ key: path, blobSha: eb.sha, previousBlobSha: ea.sha });
      } else if (aBlob) out.removed.push({ key: path, previousBlobSha: ea.sha });
      else if (bBlob) out.added.push({ key: path, blobSha: eb.sha });
      if ((aTree || bTree) && wanted(dir)) {
        await walk(aTree ? ea.sha : null, bTree ? eb.sha : null, dir);
      }
    }
  };

  await walk(from, to, '');
  out.added.sort(byKey);
  out.changed.sort(byKey);
  out.removed.sort(byKey);
  return out;
}
