/** Git Database resources other than commits: git-ref, git-tree entries and blob. */
import { toBase64 } from '../../core/bytes.js';
import type { RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';

/**
 * git-ref: the ref, its node id, its URL (without `refs/` in the path) and the object it points at.
 *
 * @example
 * refShape(repo, 'refs/heads/main', sha, urls).object; // { sha, type: 'commit', url }
 */
export function refShape(r: RepoRecord, ref: string, sha: string, urls: Urls): Record<string, unknown> {
  const repoUrl = repoApiUrl(r, urls);
  const type = r.db.typeOf(sha) ?? 'commit';
  return {
    ref,
    node_id: nodeId('Ref', `${r.id}:${ref}`),
    url: `${repoUrl}/git/refs/${ref.replace(/^refs\//, '')}`,
    object: { sha, type, url: `${repoUrl}/git/${type}s/${sha}` },
  };
}

/**
 * One entry of git-tree: blobs carry `size` and a blob URL, trees a tree URL, submodules neither.
 *
 * @example
 * treeEntryShape(repo, { path: 'a.txt', mode: '100644', type: 'blob', sha }, urls).size;
 */
export function treeEntryShape(
  r: RepoRecord,
  e: { path: string; mode: string; type: string; sha: string },
  urls: Urls,
): Record<string, unknown> {
  const repoUrl = repoApiUrl(r, urls);
  if (e.type === 'blob') {
    const size = r.db.get(e.sha)?.body.length ?? 0;
    return { path: e.path, mode: e.mode, type: e.type, sha: e.sha, size, url: `${repoUrl}/git/blobs/${e.sha}` };
  }
  if (e.type === 'tree')
    return { path: e.path, mode: e.mode, type: e.type, sha: e.sha, url: `${repoUrl}/git/trees/${e.sha}` };
  return { path: e.path, mode: e.mode, type: e.type, sha: e.sha };
}

/**
 * File bytes as the blob and contents APIs send them: base64 wrapped at 60 characters per line.
 *
 * @example
 * base64Content(utf8('hello\n')); // 'aGVsbG8K\n'
 */
export function base64Content(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/.{1,60}/g, '$&\n');
}

/**
 * blob (`GET /git/blobs/{sha}`).
 *
 * @example
 * blobShape(repo, sha, bytes, urls).encoding; // 'base64'
 */
export function blobShape(r: RepoRecord, sha: string, bytes: Uint8Array, urls: Urls): Record<string, unknown> {
  return {
    sha,
    node_id: nodeId('Blob', `${r.id}:${sha}`),
    size: bytes.length,
    url: `${repoApiUrl(r, urls)}/git/blobs/${sha}`,
    content: base64Content(bytes),
    encoding: 'base64',
  };
}
