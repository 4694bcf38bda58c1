/**
 * One recursive listing of a section's tree with the blobs' sizes, for pages that SHOW a listing (the
 * viewer's file list): ONE `GET /git/trees/<tree>?recursive=1` once the commit is known. GitHub cuts
 * that answer past 100,000 entries or 7 MB (`truncated: true`); `list()` then walks the tree a level at a
 * time so no key is ever missed, which a page cannot afford anonymously (60 requests an hour). Here the
 * cut is reported instead (`truncated`), and the caller says so. A complete listing fills the tree cache
 * as any whole listing does (a later `list()` or tree walk at this commit reads nothing again).
 */
import { isSha } from '../../core/git/objects.js';
import type { VersionId } from '../../core/version.js';
import type { GitHubClient, OpContext } from './client.js';
import type { KeyReadHost } from './key-reads.js';
import { badResponse, isObject } from './shapes.js';

/** A file (blob) of a tree listing. */
export interface TreeFile {
  path: string;
  blobSha: string;
  /** Bytes, as GitHub's listing says (absent when it does not). */
  size?: number;
}

export interface TreeListing {
  /** Files in ascending path order (submodules and directories left out). */
  files: TreeFile[];
  /** True when GitHub cut the listing: `files` is then only part of the tree. */
  truncated: boolean;
  /** The commit listed, or null when the ref does not exist. */
  version: VersionId | null;
}

const STEP = 'read tree (recursive)';

/**
 * The files of the tree at `pinned` (or at the tip) in one listing request.
 *
 * @example
 * const { files, truncated } = await listTreeOnce(host, client, ctx, version);
 */
export async function listTreeOnce(
  h: Pick<KeyReadHost, 'readRef' | 'getCommit' | 'assertInSection' | 'trees'>,
  client: Pick<GitHubClient, 'send'>,
  ctx: OpContext,
  pinned: VersionId | undefined,
): Promise<TreeListing> {
  const version = pinned ?? (await h.readRef(ctx));
  if (version === null) return { files: [], truncated: false, version: null };
  if (pinned !== undefined) await h.assertInSection(ctx, version);
  const { tree } = await h.getCommit(ctx, version, pinned !== undefined);
  const res = await client.send(ctx, {
    step: STEP,
    method: 'GET',
    path: `/git/trees/${tree}`,
    query: { recursive: '1' },
    retry: true,
  });
  const j = res.json();
  if (!isObject(j) || !Array.isArray(j.tree)) throw badResponse(ctx, STEP, 'expected { sha, tree: [...] }');
  const truncated = j.truncated === true;
  // Only a whole listing proves a tree's levels (a cut one may end inside a directory).
  if (!truncated) await h.trees.cacheListing(tree, j.tree, true);
  const files: TreeFile[] = [];
  for (const e of j.tree as unknown[]) {
    if (!isObject(e) || typeof e.path !== 'string' || !isSha(e.sha)) {
      throw badResponse(ctx, STEP, 'tree entries need path and sha');
    }
    if (e.type !== 'blob') continue;
    const size = typeof e.size === 'number' && Number.isSafeInteger(e.size) && e.size >= 0 ? e.size : undefined;
    files.push({ path: e.path, blobSha: e.sha, ...(size === undefined ? {} : { size }) });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, truncated, version };
}
