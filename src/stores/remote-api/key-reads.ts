/**
 * `get` and `list` on the API: the tip (or a pinned version, checked to be in the section), its commit,
 * then only the tree levels on the way to the key or prefix — a cold `get` in any section costs the ref
 * read plus one read of the path, a warm one a 304. Trees and blobs come through the cache (tree-walker.ts).
 */
import type { CachedCommit } from '../../cache/git-cache.js';
import type { ListEntry } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import type { OpContext } from './client.js';
import type { TreeWalker } from './tree-walker.js';

/** What the store lends to the key reads (all bound to one store instance). */
export interface KeyReadHost {
  readRef(ctx: OpContext): Promise<string | null>;
  getCommit(ctx: OpContext, sha: string, pinned: boolean): Promise<CachedCommit>;
  /** `InvalidVersion` unless `version` is a commit of the section (versions.ts). */
  assertInSection(ctx: OpContext, version: string): Promise<void>;
  trees: Pick<TreeWalker, 'lookup' | 'blob' | 'flatten' | 'lastRootTree'>;
}

/** A value read at a version. */
export interface KeyRead {
  value: Uint8Array;
  version: VersionId;
  blobSha: string;
}

/**
 * The value of `key` at `pinned` (or at the tip); null when the key or the section is absent.
 *
 * @example
 * const got = await readKey(host, ctx, 'github/repo/octo/hello.json', undefined); // { value, version, blobSha }
 */
export async function readKey(
  h: KeyReadHost,
  ctx: OpContext,
  key: string,
  pinned: VersionId | undefined,
): Promise<KeyRead | null> {
  const at = await versionCommit(h, ctx, pinned);
  if (at === null) return null;
  const found = await h.trees.lookup(ctx, at.commit.tree, key, 'single');
  h.trees.lastRootTree = at.commit.tree;
  if (found.kind !== 'blob') return null;
  const value = await h.trees.blob(ctx, found.sha);
  return { value: value.slice(), version: at.version, blobSha: found.sha };
}

/**
 * Every key under `prefix` at `pinned` (or at the tip), sorted; the version is null when the section
 * does not exist.
 *
 * @example
 * const { entries } = await listKeys(host, ctx, 'github/repo/', undefined);
 */
export async function listKeys(
  h: KeyReadHost,
  ctx: OpContext,
  prefix: string,
  pinned: VersionId | undefined,
): Promise<{ entries: ListEntry[]; version: VersionId | null }> {
  const at = await versionCommit(h, ctx, pinned);
  if (at === null) return { entries: [], version: null };
  const entries: ListEntry[] = [];
  // Start at the deepest directory the prefix names, so a prefix list reads only that subtree.
  const dir = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
  let start: string | undefined = at.commit.tree;
  if (dir !== '') {
    const found = await h.trees.lookup(ctx, at.commit.tree, dir, 'bulk');
    start = found.kind === 'tree' ? found.sha : undefined;
  }
  if (start !== undefined) await h.trees.flatten(ctx, start, dir === '' ? '' : `${dir}/`, entries);
  h.trees.lastRootTree = at.commit.tree;
  const out = entries
    .filter((e) => e.key.startsWith(prefix))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { entries: out, version: at.version };
}

/** The version to read (a pinned one is checked to be in the section) and its commit; null: no section. */
async function versionCommit(
  h: KeyReadHost,
  ctx: OpContext,
  pinned: VersionId | undefined,
): Promise<{ version: VersionId; commit: CachedCommit } | null> {
  const version = pinned ?? (await h.readRef(ctx));
  if (version === null) return null;
  if (pinned !== undefined) await h.assertInSection(ctx, version);
  return { version, commit: await h.getCommit(ctx, version, pinned !== undefined) };
}
