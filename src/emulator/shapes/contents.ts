/** The contents API's file resources: content-file (`GET /contents/{path}`) and file-commit (`PUT`). */
import type { Signature } from '../../core/git/objects.js';
import { isoSeconds } from '../dates.js';
import type { RepoRecord, Urls } from '../model.js';
import { UNSIGNED_VERIFICATION } from './commits.js';
import { nodeId, repoApiUrl } from './common.js';
import { base64Content } from './git-objects.js';

/** A file at a ref: where it is in the repository. */
export interface FileAt {
  path: string;
  /** Full ref name, e.g. `refs/heads/main`. */
  ref: string;
  /** Blob SHA. */
  sha: string;
}

function fileLinks(r: RepoRecord, urls: Urls, f: FileAt): Record<string, unknown> {
  const short = f.ref.replace(/^refs\/heads\//, '');
  const self = `${repoApiUrl(r, urls)}/contents/${encodeURI(f.path)}?ref=${encodeURIComponent(short)}`;
  const html = `${urls.html}/${r.fullName}/blob/${short}/${encodeURI(f.path)}`;
  const git = `${repoApiUrl(r, urls)}/git/blobs/${f.sha}`;
  return {
    url: self,
    html_url: html,
    git_url: git,
    download_url: `${urls.html}/${r.fullName}/raw/${short}/${encodeURI(f.path)}`,
    _links: { self, git, html },
  };
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * content-file with its bytes as wrapped base64.
 *
 * @example
 * contentFileShape(repo, urls, { path: 'a.txt', ref: 'refs/heads/main', sha }, bytes).content;
 */
export function contentFileShape(r: RepoRecord, urls: Urls, f: FileAt, bytes: Uint8Array): Record<string, unknown> {
  return {
    type: 'file',
    encoding: 'base64',
    size: bytes.length,
    name: baseName(f.path),
    path: f.path,
    content: base64Content(bytes),
    sha: f.sha,
    ...fileLinks(r, urls, f),
  };
}

/** The commit a `PUT /contents` made: one parent, one identity for author and committer. */
export interface FileCommit {
  sha: string;
  tree: string;
  parent: string;
  signature: Signature;
  /** The message as the client sent it (the stored one ends with a newline). */
  message: string;
}

/**
 * file-commit: the written file (without content) and the commit.
 *
 * @example
 * fileCommitShape(repo, urls, { path, ref, sha: blob }, bytes.length, commit);
 */
export function fileCommitShape(
  r: RepoRecord,
  urls: Urls,
  f: FileAt,
  size: number,
  c: FileCommit,
): Record<string, unknown> {
  const repoUrl = repoApiUrl(r, urls);
  const date = isoSeconds(c.signature.timestamp * 1000);
  const who = { date, name: c.signature.name, email: c.signature.email };
  return {
    content: { name: baseName(f.path), path: f.path, sha: f.sha, size, type: 'file', ...fileLinks(r, urls, f) },
    commit: {
      sha: c.sha,
      node_id: nodeId('Commit', `${r.id}:${c.sha}`),
      url: `${repoUrl}/git/commits/${c.sha}`,
      html_url: `${urls.html}/${r.fullName}/commit/${c.sha}`,
      author: who,
      committer: who,
      message: c.message,
      tree: { url: `${repoUrl}/git/trees/${c.tree}`, sha: c.tree },
      parents: [
        {
          url: `${repoUrl}/git/commits/${c.parent}`,
          html_url: `${urls.html}/${r.fullName}/commit/${c.parent}`,
          sha: c.parent,
        },
      ],
      verification: UNSIGNED_VERIFICATION,
    },
  };
}

/** What a directory listing, a symlink or a submodule answer says about one entry. */
export interface EntryAt extends FileAt {
  type: 'dir' | 'file' | 'symlink' | 'submodule';
  size: number;
}

/**
 * One item of a content-directory listing (no `content`), or a content-symlink / content-submodule answer
 * with `extra` (`target`, `submodule_git_url`).
 *
 * @example
 * contentEntryShape(repo, urls, { path: 'docs', ref: 'refs/heads/main', sha, type: 'dir', size: 0 });
 */
export function contentEntryShape(
  r: RepoRecord,
  urls: Urls,
  e: EntryAt,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const links = fileLinks(r, urls, e);
  // GitHub links directories and submodules to trees, and gives them no download URL.
  const git =
    e.type === 'dir' ? `${repoApiUrl(r, urls)}/git/trees/${e.sha}` : e.type === 'submodule' ? null : links.git_url;
  const download = e.type === 'file' || e.type === 'symlink' ? links.download_url : null;
  const self = (links._links as { self: string }).self;
  const html =
    e.type === 'submodule'
      ? null
      : (links.html_url as string).replace('/blob/', e.type === 'dir' ? '/tree/' : '/blob/');
  return {
    type: e.type,
    size: e.size,
    name: baseName(e.path),
    path: e.path,
    sha: e.sha,
    url: links.url,
    git_url: git,
    html_url: html,
    download_url: download,
    _links: { self, git, html },
    ...extra,
  };
}

/**
 * content-file of a file between 1 and 100 MB: GitHub sends no content (`encoding: "none"`) except with the
 * raw media type.
 *
 * @example
 * largeFileShape(repo, urls, { path: 'big.bin', ref, sha }, size).encoding; // 'none'
 */
export function largeFileShape(r: RepoRecord, urls: Urls, f: FileAt, size: number): Record<string, unknown> {
  return {
    type: 'file',
    encoding: 'none',
    size,
    name: baseName(f.path),
    path: f.path,
    content: '',
    sha: f.sha,
    ...fileLinks(r, urls, f),
  };
}
