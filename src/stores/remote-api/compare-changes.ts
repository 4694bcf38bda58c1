/**
 * `changes()` from GitHub's compare endpoint instead of two tree listings: `GET /compare/{from}...{to}`
 * (https://docs.github.com/rest/commits/commits#compare-two-commits) names every file changed between the two
 * commits with its new blob SHA — up to 300 files, on the first page only, so `per_page=1` keeps the commit
 * list to one. Its answer has no old blob SHAs: those of changed and removed keys come from one GraphQL query
 * (`object(expression: "<from>:<key>") { oid }`, 100 per query) with a token; without one (GitHub has no
 * anonymous GraphQL) from the tree of `from` (named by the compare's `base_commit`): one recursive listing,
 * through the store's tree cache, which walks level by level when GitHub cuts the listing — 1 request at any
 * number of changed keys, where diffing the two trees costs 4 and more. `status: "ahead"` also proves `from` is
 * an ancestor of `to`, i.e. a commit of the section. Anything it cannot settle — 300 files or more, a status
 * other than ahead/identical, an answer without `files`, a changed key `from`'s tree does not hold — returns
 * undefined, and the caller diffs the trees as before.
 */

import type { CachedCommit, CachedTreeEntry } from '../../cache/git-cache.js';
import { isSha } from '../../core/git/objects.js';
import type { ChangedKey } from '../../core/refstore.js';
import type { OpContext, SendOptions, SendResult } from './client.js';
import type { GraphqlDeps } from './graphql.js';
import { oidsAt } from './graphql-blobs.js';
import { isObject } from './shapes.js';

/** GitHub lists at most this many files in a compare. */
export const COMPARE_FILE_LIMIT = 300;

/** What the compare path borrows from the store. */
export interface CompareChangesHost {
  send(ctx: OpContext, opts: SendOptions): Promise<SendResult>;
  graphql: GraphqlDeps;
  /** A commit (cached by SHA); the old blob SHAs of an anonymous compare start at `from`'s tree. */
  getCommit(ctx: OpContext, sha: string, pinned: boolean): Promise<CachedCommit>;
  /** One tree level; a recursive fetch fills the levels below it too (the store's tree cache). */
  treeLevel(ctx: OpContext, sha: string): Promise<CachedTreeEntry[]>;
  /** Commits proven to be in the section. */
  known: Set<string>;
}

export interface KeyChanges {
  added: ChangedKey[];
  changed: ChangedKey[];
  removed: ChangedKey[];
}

interface FileChange {
  key: string;
  status: 'added' | 'changed' | 'removed';
  sha?: string;
  /** GitHub's unified diff of the file (kept only when asked for, and never for a rename's halves). */
  patch?: string;
}

/**
 * The keys under `prefix` that differ between `from` and `to`, or undefined when the compare cannot say.
 *
 * @example
 * const d = await changesByCompare(host, ctx, v1, tip, 'github/'); // { added, changed, removed } | undefined
 */
export async function changesByCompare(
  h: CompareChangesHost,
  ctx: OpContext,
  from: string,
  to: string,
  prefix: string,
  withPatches = false,
): Promise<KeyChanges | undefined> {
  const res = await h.send(ctx, {
    step: 'compare versions',
    method: 'GET',
    path: `/compare/${from}...${to}`,
    query: { per_page: '1' },
    retry: true,
    accept: [404, 422],
  });
  if (res.status !== 200) return undefined;
  const j = res.json();
  if (!isObject(j) || (j.status !== 'ahead' && j.status !== 'identical') || !Array.isArray(j.files)) return undefined;
  if (j.files.length >= COMPARE_FILE_LIMIT) return undefined;
  const files = fileChanges(j.files, prefix, withPatches);
  if (!files) return undefined;
  const before = await previousShas(h, ctx, { commit: from, tree: baseTree(j.base_commit, from) }, files);
  if (!before) return undefined;
  h.known.add(from);
  return sorted(files, before);
}

/**
 * The compare's files as key changes under `prefix` (a rename is a removal and an addition). With `withPatches`,
 * an added or modified file keeps its `patch` — not a copy's or a rename's, whose patch starts from another file.
 */
function fileChanges(list: unknown[], prefix: string, withPatches: boolean): FileChange[] | undefined {
  const out: FileChange[] = [];
  const add = (c: FileChange) => {
    if (c.key.startsWith(prefix)) out.push(c);
  };
  for (const f of list) {
    if (!isObject(f) || typeof f.filename !== 'string' || !isSha(f.sha)) return undefined;
    const patch = withPatches && f.status !== 'copied' && typeof f.patch === 'string' ? { patch: f.patch } : {};
    if (f.status === 'added' || f.status === 'copied') add({ key: f.filename, status: 'added', sha: f.sha, ...patch });
    else if (f.status === 'removed') add({ key: f.filename, status: 'removed' });
    else if (f.status === 'modified' || f.status === 'changed')
      add({ key: f.filename, status: 'changed', sha: f.sha, ...patch });
    else if (f.status === 'renamed' && typeof f.previous_filename === 'string') {
      add({ key: f.previous_filename, status: 'removed' });
      add({ key: f.filename, status: 'added', sha: f.sha });
    } else if (f.status !== 'unchanged') return undefined;
  }
  return out;
}

/**
 * Blob SHAs at `from` of the changed and removed keys (none needed: no request): by GraphQL with a token, else
 * from `from`'s tree. A key the compare calls changed or removed that `from` does not hold as a blob: undefined.
 */
async function previousShas(
  h: CompareChangesHost,
  ctx: OpContext,
  from: { commit: string; tree: string | undefined },
  files: FileChange[],
): Promise<Map<string, string | null> | undefined> {
  const keys = files.filter((f) => f.status !== 'added').map((f) => f.key);
  if (keys.length === 0) return new Map();
  if (ctx.token !== undefined) return oidsAt(h.graphql, ctx, from.commit, keys).then((s) => complete(s, keys));
  const tree = from.tree ?? (await h.getCommit(ctx, from.commit, true)).tree;
  return complete(await blobShasInTree(h, ctx, tree, keys), keys);
}

/** The map when every key has a SHA in it, else undefined (the compare and the tree disagree: diff the trees). */
function complete(shas: Map<string, string | null> | undefined, keys: readonly string[]) {
  return shas && keys.every((k) => shas.get(k)) ? shas : undefined;
}

/**
 * The root tree of `from` as the compare's `base_commit` names it (`commit.tree.sha`), which saves reading the
 * commit; undefined when the answer does not say it for this very commit.
 */
function baseTree(base: unknown, from: string): string | undefined {
  if (!isObject(base) || base.sha !== from || !isObject(base.commit) || !isObject(base.commit.tree)) return undefined;
  const tree = base.commit.tree.sha;
  return isSha(tree) ? tree : undefined;
}

/**
 * Each key's blob SHA in the tree `tree` (null when it holds no blob there), through the store's tree cache:
 * cold, one recursive listing; the levels under the root come from it (GitHub cuts a listing past 100,000
 * entries or 7 MB: the cache then walks the levels the keys need, one request each).
 *
 * @example
 * const before = await blobShasInTree(host, ctx, rootTreeSha, ['github/repo/o/r.json']); // Map { key → sha | null }
 */
export async function blobShasInTree(
  h: Pick<CompareChangesHost, 'treeLevel'>,
  ctx: OpContext,
  tree: string,
  keys: readonly string[],
): Promise<Map<string, string | null>> {
  // Each level's entries by name, built once: 300 keys share a few directories.
  const levels = new Map<string, Map<string, CachedTreeEntry>>();
  const level = async (sha: string) => {
    let byName = levels.get(sha);
    if (!byName) {
      byName = new Map((await h.treeLevel(ctx, sha)).map((e) => [e.name, e]));
      levels.set(sha, byName);
    }
    return byName;
  };
  const out = new Map<string, string | null>();
  for (const key of keys) {
    let entry: CachedTreeEntry | undefined = { name: '', mode: '040000', type: 'tree', sha: tree };
    for (const name of key.split('/')) entry = entry?.type === 'tree' ? (await level(entry.sha)).get(name) : undefined;
    out.set(key, entry?.type === 'blob' && isSha(entry.sha) ? entry.sha : null);
  }
  return out;
}

function sorted(files: FileChange[], before: Map<string, string | null>): KeyChanges {
  const out: KeyChanges = { added: [], changed: [], removed: [] };
  for (const f of files) {
    const previousBlobSha = before.get(f.key) ?? undefined;
    const patch = f.patch !== undefined ? { patch: f.patch } : {};
    if (f.status === 'added') out.added.push({ key: f.key, blobSha: f.sha as string, ...patch });
    else if (f.status === 'removed') out.removed.push({ key: f.key, previousBlobSha: previousBlobSha as string });
    else
      out.changed.push({ key: f.key, blobSha: f.sha as string, previousBlobSha: previousBlobSha as string, ...patch });
  }
  const byKey = (a: ChangedKey, b: ChangedKey) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  out.added.sort(byKey);
  out.changed.sort(byKey);
  out.removed.sort(byKey);
  return out;
}
