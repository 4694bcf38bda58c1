/**
 * `get` and `list` on the API. A `get` reads the tip (or checks a pinned version is in the section), then
 * the cheapest way to the key that works: the path cache (commit, key) → blob SHA; the tree levels already
 * cached (a read right after this store's own write); else ONE contents request at the commit SHA
 * (path-reads.ts) — never the section's listing, so a cold get costs 2 requests at any section size. Only
 * when the contents endpoint cannot answer (a symlink, a submodule) is the tree walked. `list` walks the
 * tree levels under its prefix. Trees and blobs come through the cache (tree-walker.ts).
 */
import type { CachedCommit } from '../../cache/git-cache.js';
import type { ListEntry } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';
import type { OpContext } from './client.js';
import { type PathReadDeps, type PathValue, readPathAt } from './path-reads.js';
import type { SectionArchives } from './section-archives.js';
import type { TreeWalker } from './tree-walker.js';

/** What the store lends to the key reads (all bound to one store instance). */
export interface KeyReadHost {
  readRef(ctx: OpContext): Promise<string | null>;
  getCommit(ctx: OpContext, sha: string, pinned: boolean): Promise<CachedCommit>;
  /** `InvalidVersion` unless `version` is a commit of the section (versions.ts). */
  assertInSection(ctx: OpContext, version: string): Promise<void>;
  trees: Pick<TreeWalker, 'lookup' | 'lookupCached' | 'cachedLevel' | 'blob' | 'flatten' | 'lastRootTree'>;
  cachedCommit(sha: string): Promise<CachedCommit | undefined>;
  /** Single-path reads (contents endpoint) and their cache. */
  paths: PathReadDeps;
  /** The commit's archive, read ahead of a bulk read by a `list` told the values follow (section-archives.ts). */
  archives: Pick<SectionArchives, 'readAhead'>;
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
  const version = pinned ?? (await h.readRef(ctx));
  if (version === null) return null;
  if (pinned !== undefined) await h.assertInSection(ctx, version);
  // A key the cached levels show absent (null) is answered too: only a level not cached (undefined) costs a read.
  const cached = await fromCachedLevels(h, ctx, version, key);
  const found = cached !== undefined ? cached : await readPathAt(h.paths, ctx, version, key);
  const value = found === undefined ? await walkToKey(h, ctx, version, key, pinned !== undefined) : found;
  return value && { value: value.value.slice(), version, blobSha: value.sha };
}

/** The key through tree levels already cached (no tree request); undefined when one is missing. */
async function fromCachedLevels(
  h: KeyReadHost,
  ctx: OpContext,
  version: VersionId,
  key: string,
): Promise<PathValue | undefined> {
  const commit = await h.cachedCommit(version);
  if (!commit) return undefined;
  const at = await h.trees.lookupCached(commit.tree, key);
  if (at === undefined) return undefined;
  return at.kind === 'blob' ? { sha: at.sha, value: await h.trees.blob(ctx, at.sha) } : null;
}

/** The fallback: the commit, then the tree levels on the key's path (symlinks and submodules end here). */
async function walkToKey(
  h: KeyReadHost,
  ctx: OpContext,
  version: VersionId,
  key: string,
  pinned: boolean,
): Promise<PathValue> {
  const commit = await h.getCommit(ctx, version, pinned);
  const found = await h.trees.lookup(ctx, commit.tree, key, 'single');
  h.trees.lastRootTree = commit.tree;
  return found.kind === 'blob' ? { sha: found.sha, value: await h.trees.blob(ctx, found.sha) } : null;
}

/**
 * Every key under `prefix` at `pinned` (or at the tip), sorted; the version is null when the section
 * does not exist. `withValues` (the caller reads the values next): when the listing is not cached and an archive
 * reader is configured, the commit's archive is read first — its verified tree is the listing (its levels are
 * cached, so the walk below costs nothing), and its values wait for the bulk read (section-archives.ts). A large
 * type's listing then costs no request of its own: GitHub truncates a recursive listing past 100,000 entries or
 * 7 MB, after which the type's level would be read on its own. An archive that does not verify (or is over its
 * limits) leaves the walk to the tree API, as without the hint.
 *
 * @example
 * const { entries } = await listKeys(host, ctx, 'github/repo/', undefined);
 */
export async function listKeys(
  h: KeyReadHost,
  ctx: OpContext,
  prefix: string,
  pinned: VersionId | undefined,
  withValues = false,
): Promise<{ entries: ListEntry[]; version: VersionId | null }> {
  const at = await versionCommit(h, ctx, pinned);
  if (at === null) return { entries: [], version: null };
  const entries: ListEntry[] = [];
  // Start at the deepest directory the prefix names, so a prefix list reads only that subtree.
  const dir = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
  if (withValues && !(await startLevelCached(h, at.commit.tree, dir))) {
    await h.archives.readAhead(ctx, at.version, pinned !== undefined);
  }
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

/** Whether the level a listing of `dir` starts at is cached (a warm walk: no archive needed to list it). */
async function startLevelCached(h: KeyReadHost, root: string, dir: string): Promise<boolean> {
  const at = dir === '' ? { kind: 'tree', sha: root } : await h.trees.lookupCached(root, dir);
  return at !== undefined && (at.kind !== 'tree' || (await h.trees.cachedLevel(at.sha)) !== undefined);
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
