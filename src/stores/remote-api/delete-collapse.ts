/**
 * The deletes of a write as few tree entries as they can be: when a write deletes EVERY key below a
 * directory of its base tree (and puts none there), the directory goes as one `sha: null` entry instead of
 * one entry per key. `POST /git/trees` deletes a whole subtree so ("set both sha and content to null; this
 * works for both files and entire directories" — verified against GitHub in google/go-github#3877; the REST
 * reference: "If the value is null then the file will be deleted",
 * https://docs.github.com/rest/git/trees#create-a-tree). A migration that moves a 50,000-document type
 * then sends one entry for the old type instead of ~6 create-tree requests of deletes.
 *
 * Decided from cached tree levels only (the write's planning just read them): a level that is not cached
 * proves nothing, and its keys are deleted one by one, as before. The new tree is the same either way.
 */
import type { CachedTreeEntry } from '../../cache/git-cache.js';
import type { UploadChange } from './tree-upload.js';

/** A tree level from the cache, or undefined (never a request). */
export type CachedLevel = (sha: string) => Promise<CachedTreeEntry[] | undefined>;

/** A visited directory: wholly deleted, or the entries its deletes take. */
type Visit = { whole: true } | { whole: false; entries: UploadChange[] };

/**
 * The tree entries deleting `deleted` (keys that exist at `baseRoot`), whole directories folded into one.
 * `keepDir(dir)` says a directory the same write puts keys in (never deleted whole: the put would go too).
 *
 * @example
 * await collapseDeletes((sha) => cache.getTree(sha), base, ['gh/repo/a.json', 'gh/repo/b.json'], (d) => d === 'gh');
 * // [{ path: 'gh/repo', mode: '040000', sha: null }] when gh/repo held exactly those two keys
 */
export async function collapseDeletes(
  level: CachedLevel,
  baseRoot: string | null,
  deleted: readonly string[],
  keepDir: (dir: string) => boolean,
): Promise<UploadChange[]> {
  if (baseRoot === null || deleted.length === 0) return deleted.map(deleteKey);
  // Where each key's next path segment starts (one offset per key, as buildTreesLocally walks).
  const offset = new Int32Array(deleted.length);
  const visit = async (treeSha: string, dir: string, list: readonly number[]): Promise<Visit> => {
    const entries = await level(treeSha);
    if (!entries) return { whole: false, entries: list.map((i) => deleteKey(deleted[i] as string)) };
    const byName = new Map(entries.map((e) => [e.name, e]));
    const { direct, nested } = splitLevel(deleted, list, offset);
    const out: UploadChange[] = [];
    const wholeDirs = new Set<string>();
    for (const i of direct) out.push(deleteKey(deleted[i] as string));
    for (const [name, sub] of nested) {
      const path = dir === '' ? name : `${dir}/${name}`;
      const e = byName.get(name);
      const child: Visit =
        e?.type === 'tree'
          ? await visit(e.sha, path, sub)
          : { whole: false, entries: sub.map((i) => deleteKey(deleted[i] as string)) };
      if (child.whole) {
        wholeDirs.add(name);
        out.push({ path, mode: '040000', sha: null });
      } else for (const entry of child.entries) out.push(entry);
    }
    const directNames = new Set(direct.map((i) => (deleted[i] as string).slice(offset[i])));
    const allGone = entries.every((e) =>
      e.type === 'tree' ? wholeDirs.has(e.name) : e.type === 'blob' && directNames.has(e.name),
    );
    // The root is never deleted whole (a commit needs a tree); a directory the write puts into stays.
    return dir !== '' && allGone && !keepDir(dir) ? { whole: true } : { whole: false, entries: out };
  };
  const root = await visit(
    baseRoot,
    '',
    deleted.map((_, i) => i),
  );
  return root.whole ? deleted.map(deleteKey) : root.entries;
}

function deleteKey(key: string): UploadChange {
  return { path: key, mode: '100644', sha: null };
}

/** A level's keys: those named in it (`direct`) and those below, by subdirectory; advances `offset`. */
function splitLevel(
  keys: readonly string[],
  list: readonly number[],
  offset: Int32Array,
): { direct: number[]; nested: Map<string, number[]> } {
  const direct: number[] = [];
  const nested = new Map<string, number[]>();
  for (const i of list) {
    const key = keys[i] as string;
    const from = offset[i] as number;
    const slash = key.indexOf('/', from);
    if (slash < 0) {
      direct.push(i);
      continue;
    }
    const name = key.slice(from, slash);
    offset[i] = slash + 1;
    const sub = nested.get(name);
    if (sub) sub.push(i);
    else nested.set(name, [i]);
  }
  return { direct, nested };
}
