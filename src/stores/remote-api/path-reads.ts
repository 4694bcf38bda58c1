/**
 * Reading one path of a commit without the section's listing: GitHub's contents endpoint with
 * `ref=<commit SHA>` (https://docs.github.com/rest/repos/contents#get-repository-content) answers one file
 * in one request — base64 inline up to 1 MB; from 1 to 100 MB the answer carries the blob SHA but no content
 * (`encoding: "none"`), and the bytes come from `GET /git/blobs/{sha}` (blobs up to 100 MB). What the
 * answer says is untrusted: the path must be the one asked for and the bytes must hash to the SHA.
 * Anything else — a symlink GitHub resolved to its target, a submodule — is left to the tree walk
 * (`undefined`), which reads git's own view of the tree. The result is cached per (commit, path).
 */
import type { CachedPath, GitCache } from '../../cache/git-cache.js';
import { fromBase64 } from '../../core/bytes.js';
import { blobShaAsync, isSha } from '../../core/git/objects.js';
import type { GitHubClient, OpContext } from './client.js';
import { badResponse, isObject } from './shapes.js';
import type { TreeWalker } from './tree-walker.js';

/** What the path reader borrows from the store. */
export interface PathReadDeps {
  client: Pick<GitHubClient, 'send'>;
  cache: Pick<GitCache, 'getPath' | 'putPath' | 'getBlob' | 'putBlob'>;
  trees: Pick<TreeWalker, 'blob'>;
}

/** A value found at a path, or none. */
export type PathValue = { sha: string; value: Uint8Array } | null;

const STEP = 'read path';

/** The key as a URL path: each segment percent-encoded, slashes kept. */
function contentsPath(key: string): string {
  return `/contents/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * The value at `key` in `commit`: from the path cache, else one contents request. `undefined` when the
 * contents endpoint cannot say (then walk the tree).
 *
 * @example
 * const found = await readPathAt(deps, ctx, tipSha, 'github/repo/octo/hello.json'); // { sha, value } | null | undefined
 */
export async function readPathAt(
  d: PathReadDeps,
  ctx: OpContext,
  commit: string,
  key: string,
): Promise<PathValue | undefined> {
  const known = await d.cache.getPath(commit, key);
  if (known) return 'absent' in known ? null : { sha: known.sha, value: await d.trees.blob(ctx, known.sha) };
  const res = await d.client.send(ctx, {
    step: STEP,
    method: 'GET',
    path: contentsPath(key),
    query: { ref: commit },
    retry: true,
    accept: [404],
  });
  if (res.status === 404) return remember(d, commit, key, { absent: true }, null);
  const j = res.json();
  // A directory (an array): no value at this key.
  if (Array.isArray(j)) return remember(d, commit, key, { absent: true }, null);
  if (!isObject(j) || typeof j.type !== 'string') throw badResponse(ctx, STEP, 'expected a content object or array');
  // A symlink GitHub followed (another path), an unresolved link, a submodule: git's tree decides.
  if (j.type !== 'file' || j.path !== key) return undefined;
  if (!isSha(j.sha)) throw badResponse(ctx, STEP, 'file without a blob sha');
  const value = await fileBytes(d, ctx, j.sha, j);
  return remember(d, commit, key, { sha: j.sha }, { sha: j.sha, value });
}

/** The file's bytes: inline (checked against the SHA), or by SHA from the cache or the blobs endpoint. */
async function fileBytes(
  d: PathReadDeps,
  ctx: OpContext,
  sha: string,
  j: Record<string, unknown>,
): Promise<Uint8Array> {
  const cached = await d.cache.getBlob(sha);
  if (cached) return cached;
  if (j.encoding !== 'base64' || typeof j.content !== 'string') return d.trees.blob(ctx, sha); // 1–100 MB
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(j.content.replace(/\s/g, ''));
  } catch (e) {
    throw badResponse(ctx, STEP, 'content is not valid base64', e);
  }
  if ((await blobShaAsync(bytes)) !== sha) throw badResponse(ctx, STEP, `content does not hash to ${sha}`);
  await d.cache.putBlob(sha, bytes);
  return bytes;
}

async function remember(
  d: PathReadDeps,
  commit: string,
  key: string,
  entry: CachedPath,
  result: PathValue,
): Promise<PathValue> {
  await d.cache.putPath(commit, key, entry);
  return result;
}
