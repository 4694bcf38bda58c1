/**
 * One recursive listing of a section's tree with the blobs' sizes, for pages that SHOW a listing (the
 * viewer's file list): ONE `GET /git/trees/<tree>?recursive=1` once the commit is known. GitHub cuts
 * that answer past 100,000 entries or 7 MB (`truncated: true`); `list()` then walks the tree a level at a
 * time so no key is ever missed, which a page cannot afford anonymously (60 requests an hour). Here the
 * cut is reported instead (`truncated`), and the caller says so. Nothing here is cached or decided
 * from: `list()` and the reads keep their own proofs (a cut listing proves nothing).
 */
import type { VersionId } from '../../core/version.js';
import type { GitHubClient, OpContext } from './client.js';
import type { KeyReadHost } from './key-reads.js';
import { badResponse } from './shapes.js';

/** A file (blob) of a tree listing. */
export interface TreeFile {
  path: string;
  /** Bytes, as GitHub's listing says (absent when it does not). */
  size?: number;
}

export interface TreeListing {
  /** Files in the listing's order (submodules and directories left out). */
  files: TreeFile[];
  /** True when GitHub cut the listing: `files` is then only part of the tree. */
  truncated: boolean;
}

const STEP = 'read tree (recursive)';

/**
 * The files of the tree at `version` (a commit of the ref) in one listing request.
 *
 * @example
 * const { files, truncated } = await listTreeOnce(host, client, ctx, version);
 */
export async function listTreeOnce(
  h: Pick<KeyReadHost, 'getCommit' | 'assertInSection'>,
  client: Pick<GitHubClient, 'send'>,
  ctx: OpContext,
  version: VersionId,
): Promise<TreeListing> {
  await h.assertInSection(ctx, version);
  const { tree } = await h.getCommit(ctx, version, true);
  const res = await client.send(ctx, {
    step: STEP,
    method: 'GET',
    path: `/git/trees/${tree}`,
    query: { recursive: '1' },
    retry: true,
  });
  const j = res.json() as { tree?: unknown; truncated?: unknown } | null;
  if (!Array.isArray(j?.tree)) throw badResponse(ctx, STEP, 'expected { sha, tree: [...] }');
  // Display only: directories and submodules are left out; a path is shown as text, whatever it holds.
  const files: TreeFile[] = (j.tree as Record<string, unknown>[])
    .filter((e) => e?.type === 'blob')
    .map((e) => ({ path: String(e.path), ...(typeof e.size === 'number' && { size: e.size }) }));
  return { files, truncated: j.truncated === true };
}
