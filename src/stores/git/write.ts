/**
 * The write path both git stores share: plan the change on a tip with `core/plan.ts` (the same
 * validation, conflict and no-op rules as every store), build the new trees with `ObjectDb` and the
 * commit with `encodeCommit` (so the objects are byte-identical to what `src/core/git` computes),
 * store them, then publish with a compare-and-swap and rebase-and-retry on a lost race.
 */
import { ObjectDb } from '../../core/git/object-db.js';
import { encodeCommit, hashObject, type Signature, type TreeEntry } from '../../core/git/objects.js';
import {
  assertNoPathConflicts,
  defaultCommitMessage,
  type normalizeChanges,
  planWrite,
  type WritePlan,
} from '../../core/plan.js';
import type { RawObject } from './pack.js';
import type { GitRepository } from './repository.js';

type Normalized = ReturnType<typeof normalizeChanges>;

export interface CommitIdentity {
  author: { name: string; email: string };
  /** Clock in milliseconds. */
  now: () => number;
}

export interface BuiltCommit {
  plan: WritePlan;
  /** The new commit (already stored), or null when the changes are all no-ops. */
  commit: string | null;
}

/**
 * Entries along the paths of the changed keys, read once per tree. `known` maps each key and each of
 * its ancestors to the entry there in the base tree (undefined when absent), which is all the
 * conflict check and the plan look at.
 */
async function entriesOnPaths(
  repo: GitRepository,
  db: ObjectDb,
  root: string,
  keys: readonly string[],
): Promise<Map<string, TreeEntry | undefined>> {
  const dirs = new Map<string, Map<string, TreeEntry>>();
  const dir = async (sha: string) => {
    let d = dirs.get(sha);
    if (!d) {
      const tree = await repo.readTree(sha);
      db.put('tree', tree.body); // the raw body: ObjectDb rebuilds changed trees from exactly these bytes
      d = new Map(tree.entries.map((e) => [e.name, e]));
      dirs.set(sha, d);
    }
    return d;
  };
  const known = new Map<string, TreeEntry | undefined>();
  for (const key of keys) {
    const segments = key.split('/');
    let sha: string | undefined = root;
    let path = '';
    for (const seg of segments) {
      path = path ? `${path}/${seg}` : seg;
      if (known.has(path)) {
        const e = known.get(path);
        sha = e?.mode === '040000' ? e.sha : undefined;
      } else {
        const e: TreeEntry | undefined = sha ? (await dir(sha)).get(seg) : undefined;
        known.set(path, e);
        sha = e?.mode === '040000' ? e.sha : undefined;
      }
      if (!sha) break;
    }
  }
  return known;
}

/**
 * Plan `changes` on `tip` and, unless they are all no-ops, store the blobs, trees and commit.
 *
 * @example
 * const { plan, commit } = await buildCommit(repo, tip, normalizeChanges(changes), identity);
 */
export async function buildCommit(
  repo: GitRepository,
  tip: string | null,
  changes: Normalized,
  identity: CommitIdentity,
  message: string | undefined,
  ifMatch?: ReadonlyMap<string, string | null>,
): Promise<BuiltCommit> {
  const db = new ObjectDb();
  const baseTree = tip ? (await repo.readCommit(tip)).tree : null;
  const known = baseTree
    ? await entriesOnPaths(
        repo,
        db,
        baseTree,
        changes.map((c) => c.key),
      )
    : new Map<string, TreeEntry | undefined>();
  const isTree = (e: TreeEntry | undefined) => e?.mode === '040000';
  assertNoPathConflicts(changes, {
    isFile: (p) => known.get(p) !== undefined && !isTree(known.get(p)),
    isDir: (p) => isTree(known.get(p)),
  });
  const plan = planWrite(
    changes,
    (key) => {
      const e = known.get(key);
      return e && !isTree(e) ? e.sha : undefined;
    },
    ifMatch ? { ifMatch, version: tip } : undefined,
  );
  if (plan.treeChanges.length === 0) return { plan, commit: null };

  const loaded = new Set(db.objectIds());
  const tree = db.applyTreeChanges(baseTree, plan.treeChanges);
  const objects: RawObject[] = [];
  const blobs = new Set<string>();
  for (const c of plan.treeChanges) {
    if (c.content && c.sha && !blobs.has(c.sha)) {
      blobs.add(c.sha);
      objects.push({ type: 'blob', body: c.content });
    }
  }
  for (const sha of db.objectIds()) {
    if (!loaded.has(sha)) objects.push(db.get(sha) as RawObject);
  }
  const sig: Signature = { ...identity.author, timestamp: Math.floor(identity.now() / 1000), timezone: '+0000' };
  const body = encodeCommit({
    tree,
    parents: tip ? [tip] : [],
    author: sig,
    committer: sig,
    message: message ?? defaultCommitMessage(plan),
  });
  objects.push({ type: 'commit', body });
  await repo.writeObjects(objects);
  return { plan, commit: hashObject('commit', body) };
}
