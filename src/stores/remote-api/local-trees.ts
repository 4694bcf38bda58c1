/**
 * The git object model applied to the remote-api store's tree cache, so the store knows every tree it
 * builds or is shown without asking GitHub again:
 * - {@link buildTreesLocally}: the trees a write creates, computed from the cached base levels exactly as
 *   `POST /git/trees` with `base_tree` computes them. The store checks the root SHA against GitHub's reply
 *   and then caches every new level, so a read or a no-op write right after its own write costs only the
 *   ref read.
 * - {@link verifiedLevels}: the complete levels inside a TRUNCATED recursive listing. A level is kept only
 *   when its entries hash to its tree SHA, so a partial listing is never acted on as a whole, yet nothing
 *   it proves is downloaded twice. https://docs.github.com/en/rest/git/trees#get-a-tree
 */
import type { CachedTreeEntry } from '../../cache/git-cache.js';
import { encodeTree, hashObject, type TreeMode } from '../../core/git/objects.js';

/** Object id of a tree level given as cached entries. */
export function levelSha(entries: readonly CachedTreeEntry[]): string {
  return hashObject('tree', encodeTree(entries.map((e) => ({ mode: e.mode as TreeMode, name: e.name, sha: e.sha }))));
}

/** One change as `POST /git/trees` takes it (`sha: null` deletes). */
export interface LocalTreeChange {
  path: string;
  mode: string;
  sha: string | null;
}

/**
 * Apply `changes` to the tree `baseRoot` (null: empty) using only cached levels. Returns the new root SHA
 * and every level created (SHA → entries), or undefined when a needed level is not cached or the change
 * is one GitHub would reject (deleting a missing path, writing below a file) — the caller then just
 * trusts GitHub's reply and caches less.
 *
 * @example
 * const built = await buildTreesLocally((sha) => cache.getTree(sha), baseTree, [
 *   { path: 'a/b.json', mode: '100644', sha: blobSha(bytes) },
 * ]);
 * if (built?.root === replySha) for (const [sha, level] of built.levels) await cache.putTree(sha, level);
 */
export async function buildTreesLocally(
  getLevel: (sha: string) => Promise<CachedTreeEntry[] | undefined>,
  baseRoot: string | null,
  changes: readonly LocalTreeChange[],
): Promise<{ root: string; levels: Map<string, CachedTreeEntry[]> } | undefined> {
  const levels = new Map<string, CachedTreeEntry[]>();
  const unknown = Symbol('unknown');
  // Where each change's next path segment starts. A change descends one path, so one offset per change
  // is enough, and a level's changes are passed down as indices: a 100,000-key write allocates no
  // per-change objects or segment arrays (this runs at the end of every write, at its memory peak).
  const offset = new Int32Array(changes.length);
  const apply = async (treeSha: string | null, list: readonly number[]): Promise<string | null | typeof unknown> => {
    const entries = new Map<string, CachedTreeEntry>();
    if (treeSha !== null) {
      const level = await getLevel(treeSha);
      if (!level) return unknown;
      for (const e of level) entries.set(e.name, e);
    }
    const nested = new Map<string, number[]>();
    for (const i of list) {
      const c = changes[i] as LocalTreeChange;
      const from = offset[i] as number;
      const slash = c.path.indexOf('/', from);
      if (slash < 0) {
        const name = c.path.slice(from);
        if (c.sha === null) {
          if (!entries.has(name)) return unknown;
          entries.delete(name);
        } else {
          if (entries.get(name)?.type === 'tree') return unknown;
          entries.set(name, { name, mode: c.mode, type: 'blob', sha: c.sha });
        }
      } else {
        const name = c.path.slice(from, slash);
        offset[i] = slash + 1;
        const sub = nested.get(name);
        if (sub) sub.push(i);
        else nested.set(name, [i]);
      }
    }
    for (const [name, sub] of nested) {
      const existing = entries.get(name);
      if (existing && existing.type !== 'tree') return unknown;
      const child = await apply(existing?.sha ?? null, sub);
      if (child === unknown) return unknown;
      if (child === null) entries.delete(name);
      else entries.set(name, { name, mode: '040000', type: 'tree', sha: child });
    }
    if (entries.size === 0) return null;
    const level = [...entries.values()];
    const sha = levelSha(level);
    levels.set(sha, level);
    return sha;
  };
  const root = await apply(
    baseRoot,
    changes.map((_, i) => i),
  );
  if (root === unknown) return undefined;
  if (root === null) {
    // Every path deleted: GitHub answers with the empty tree.
    const sha = levelSha([]);
    levels.set(sha, []);
    return { root: sha, levels };
  }
  return { root, levels };
}

/** What a truncated recursive listing proves. */
export interface VerifiedListing {
  /** Levels whose entries hash to their SHA (complete), SHA → entries. */
  levels: Map<string, CachedTreeEntry[]>;
  /**
   * Incomplete subtrees a recursive request would not pay for: the listing already showed at least half
   * the limit of their entries, so re-listing them recursively would re-download more than it can add.
   * Walk them one level at a time instead.
   */
  tooBig: Set<string>;
}

/**
 * Split a (possibly truncated) recursive listing of tree `rootSha` into levels and keep the complete ones.
 * `limit` is the number of entries a recursive listing shows at most (the listing's length when truncated).
 *
 * @example
 * const { levels, tooBig } = verifiedLevels(sha, reply.tree, reply.tree.length);
 */
export function verifiedLevels(rootSha: string, list: readonly unknown[], limit: number): VerifiedListing {
  const dirs = new Map<string, { sha: string; entries: CachedTreeEntry[]; firstIndex: number }>([
    ['', { sha: rootSha, entries: [], firstIndex: 0 }],
  ]);
  list.forEach((raw, index) => {
    const e = raw as { path?: unknown; mode?: unknown; type?: unknown; sha?: unknown };
    if (typeof e?.path !== 'string' || typeof e.mode !== 'string' || typeof e.sha !== 'string') return;
    const type = e.type === 'tree' || e.type === 'commit' ? e.type : 'blob';
    const slash = e.path.lastIndexOf('/');
    const parent = dirs.get(slash < 0 ? '' : e.path.slice(0, slash));
    if (!parent) return; // its directory's entry was not shown: nothing about it can be verified
    parent.entries.push({ name: e.path.slice(slash + 1), mode: e.mode, type, sha: e.sha });
    if (type === 'tree') dirs.set(e.path, { sha: e.sha, entries: [], firstIndex: index });
  });
  const levels = new Map<string, CachedTreeEntry[]>();
  const tooBig = new Set<string>();
  for (const d of dirs.values()) {
    let ok = false;
    try {
      ok = levelSha(d.entries) === d.sha;
    } catch {
      ok = false; // duplicate names or malformed entries: not a level we can vouch for
    }
    if (ok) levels.set(d.sha, d.entries);
    else if (list.length - d.firstIndex >= limit / 2) tooBig.add(d.sha);
  }
  return { levels, tooBig };
}
