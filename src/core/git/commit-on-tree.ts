/**
 * One write on a tree held elsewhere (a repository on disk, a cache of a remote's objects): read only
 * the tree levels on the changed keys' paths, plan and build the commit in an `ObjectDb`
 * (`build-commit.ts`, so every store's commits are byte-identical for the same inputs), and return
 * the objects the store must send or store: new blobs, new trees, the commit.
 */
import type { normalizeChanges, WritePlan } from '../plan.js';
import { buildCommit } from './build-commit.js';
import { ObjectDb } from './object-db.js';
import { decodeTree, type TreeEntry } from './objects.js';
import type { RawObject } from './pack.js';

export interface CommitOnTreeInput {
  /** The raw body of a tree of the base commit (only trees on the changed paths are asked for). */
  readTree: (sha: string) => Promise<Uint8Array>;
  tip: string | null;
  /** Root tree of `tip` (null for a new section). */
  baseTree: string | null;
  changes: ReturnType<typeof normalizeChanges>;
  author: { name: string; email: string };
  /** Milliseconds since the epoch. */
  now: number;
  message?: string | undefined;
  ifMatch?: ReadonlyMap<string, string | null> | undefined;
}

export interface CommitOnTree {
  plan: WritePlan;
  /** The new commit, or null when every change is a no-op. */
  commit: string | null;
  /** Objects the base does not have, with their ids: new blobs, new trees, then the commit. */
  objects: (RawObject & { sha: string })[];
}

/**
 * The entry at each changed key and each of its ancestors in the base tree (undefined when absent),
 * reading each tree once into `db` as its raw body (ObjectDb rebuilds changed trees from those bytes).
 */
async function entriesOnPaths(
  input: CommitOnTreeInput,
  db: ObjectDb,
  root: string,
): Promise<Map<string, TreeEntry | undefined>> {
  const dirs = new Map<string, Map<string, TreeEntry>>();
  const dir = async (sha: string) => {
    let d = dirs.get(sha);
    if (!d) {
      const body = await input.readTree(sha);
      db.put('tree', body);
      d = new Map(decodeTree(body).map((e) => [e.name, e]));
      dirs.set(sha, d);
    }
    return d;
  };
  const known = new Map<string, TreeEntry | undefined>();
  for (const { key } of input.changes) {
    let sha: string | undefined = root;
    let path = '';
    for (const seg of key.split('/')) {
      path = path ? `${path}/${seg}` : seg;
      if (!known.has(path)) known.set(path, sha ? (await dir(sha)).get(seg) : undefined);
      const e = known.get(path);
      sha = e?.mode === '040000' ? e.sha : undefined;
      if (!sha) break;
    }
  }
  return known;
}

/**
 * Plan `changes` on the base tree and build the commit.
 *
 * @example
 * const { commit, objects } = await commitOnTree({ readTree, tip, baseTree, changes: normalizeChanges(c), author, now: Date.now() });
 */
export async function commitOnTree(input: CommitOnTreeInput): Promise<CommitOnTree> {
  const db = new ObjectDb();
  const known = input.baseTree ? await entriesOnPaths(input, db, input.baseTree) : new Map();
  const isTree = (e: TreeEntry | undefined) => e?.mode === '040000';
  const loaded = new Set(db.objectIds());
  const built = buildCommit(db, {
    changes: input.changes,
    tip: input.tip,
    baseTree: input.baseTree,
    base: {
      isFile: (p) => known.get(p) !== undefined && !isTree(known.get(p)),
      isDir: (p) => isTree(known.get(p)),
      blobSha: (key) => {
        const e = known.get(key);
        return e && !isTree(e) ? e.sha : undefined;
      },
    },
    author: input.author,
    now: input.now,
    ...(input.message !== undefined ? { message: input.message } : {}),
    ...(input.ifMatch ? { ifMatch: input.ifMatch } : {}),
  });
  if (!built.commit) return { plan: built.plan, commit: null, objects: [] };
  const objects: CommitOnTree['objects'] = [];
  for (const sha of db.objectIds()) if (!loaded.has(sha)) objects.push({ sha, ...(db.get(sha) as RawObject) });
  return { plan: built.plan, commit: built.commit, objects };
}
