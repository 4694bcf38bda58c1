/**
 * Reading keys out of a git tree level by level, for stores that hold trees by SHA (a repository, a
 * cache of a remote): only the levels on a key's path, or below a prefix, are read.
 */
import type { HistoryEntry, ListEntry, Person } from '../refstore.js';
import { type CommitFields, type Signature, signatureDate, type TreeEntry } from './objects.js';

/** One tree level by SHA. */
export type ReadTree = (sha: string) => Promise<readonly TreeEntry[]>;

const byCodeUnit = (a: ListEntry, b: ListEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * The entry at `path` below the tree `root` (undefined when absent or below a value).
 *
 * @example
 * const e = await entryAtPath(commit.tree, 'notes/a.json', readTree); // { mode: '100644', name: 'a.json', sha }
 */
export async function entryAtPath(root: string, path: string, readTree: ReadTree): Promise<TreeEntry | undefined> {
  let current: TreeEntry | undefined = { mode: '040000', name: '', sha: root };
  for (const seg of path.split('/')) {
    if (current?.mode !== '040000') return undefined;
    current = (await readTree(current.sha)).find((e) => e.name === seg);
  }
  return current;
}

/**
 * Every value key under `prefix` in the tree `root`, in code-unit order. Only subtrees that can hold
 * the prefix are read.
 *
 * @example
 * await listTreeKeys(commit.tree, 'notes/', readTree); // [{ key: 'notes/a.json', blobSha }]
 */
export async function listTreeKeys(root: string, prefix: string, readTree: ReadTree): Promise<ListEntry[]> {
  const slash = prefix.lastIndexOf('/');
  const dir = slash < 0 ? '' : prefix.slice(0, slash + 1);
  const start = dir ? await entryAtPath(root, dir.slice(0, -1), readTree) : { mode: '040000', sha: root };
  const out: ListEntry[] = [];
  const walk = async (sha: string, path: string): Promise<void> => {
    for (const e of await readTree(sha)) {
      const key = path + e.name;
      if (e.mode === '040000') {
        // Skip subtrees that cannot contain a match.
        if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(e.sha, `${key}/`);
      } else if (e.mode !== '160000' && key.startsWith(prefix)) {
        out.push({ key, blobSha: e.sha });
      }
    }
  };
  if (start?.mode === '040000') await walk(start.sha, dir);
  return out.sort(byCodeUnit);
}

/** A signature as the RefStore reports it (ISO-8601 date in the signature's own timezone). */
export function personOf(s: Signature): Person {
  return { name: s.name, email: s.email, date: signatureDate(s) };
}

/**
 * The history entry of a commit.
 *
 * @example
 * historyEntry(sha, decodeCommit(body)); // { version: sha, message, author, committer, parents }
 */
export function historyEntry(version: string, c: CommitFields): HistoryEntry {
  return {
    version,
    message: c.message,
    author: personOf(c.author),
    committer: personOf(c.committer),
    parents: c.parents,
  };
}
