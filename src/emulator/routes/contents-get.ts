/**
 * `GET /repos/{owner}/{repo}/contents/{path}`: one file, directory, symlink or submodule at a ref (a
 * branch, tag, full ref name or commit SHA), as GitHub documents it
 * (https://docs.github.com/rest/repos/contents#get-repository-content):
 * - a file up to 1 MB comes inline as base64; from 1 to 100 MB only the raw media type
 *   (`application/vnd.github.raw+json`) sends the bytes, the JSON answer has `content: ""` and
 *   `encoding: "none"`; above 100 MB (the `contentsMaxBytes` option) the endpoint refuses (403 `too_large`);
 * - a directory is an array of at most 1,000 entries (submodules listed with `type: "file"`, as GitHub
 *   keeps for backwards compatibility);
 * - a symlink whose target is a file in the repository answers with that file; otherwise with the link;
 * - an unknown ref is 404 "No commit found for the ref …".
 */
import type { TreeEntry } from '../../core/git/objects.js';
import { ApiError, notFound } from '../http.js';
import type { RepoRecord } from '../model.js';
import { fullRefName, resolveCommitish } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { contentEntryShape, contentFileShape, type FileAt, largeFileShape } from '../shapes/contents.js';

const DOC = 'https://docs.github.com/rest/repos/contents#get-repository-content';

/** GitHub's size limits of this endpoint (the 100 MB one is the emulator's `contentsMaxBytes`, default 100 MB). */
export const CONTENTS_INLINE_LIMIT = 1024 * 1024;
/** Entries a directory answer lists at most. */
export const CONTENTS_DIRECTORY_LIMIT = 1000;

/** `Accept` asks for the raw media type (`application/vnd.github.raw`, `.raw+json`, `.v3.raw`). */
function wantsRaw(headers: Headers): boolean {
  return /application\/vnd\.github(\.v3)?\.raw/.test(headers.get('accept') ?? '');
}

/** The commit a `ref` query names (default: the default branch), and how URLs in the answer spell it. */
function commitOf(ctx: RouteContext): { commit: string; ref: string } {
  const asked = ctx.query.get('ref');
  const ref = asked && asked !== '' ? asked : ctx.repo.defaultBranch;
  const commit = resolveCommitish(ctx.repo, ref);
  if (!commit) throw new ApiError(404, `No commit found for the ref ${ref}`, DOC);
  return { commit, ref: /^[0-9a-f]{40}$/.test(ref) ? ref : fullRefName(ref) };
}

function getContent(ctx: RouteContext) {
  const path = (ctx.params.path as string).replace(/\/+$/, '');
  const { commit, ref } = commitOf(ctx);
  const db = ctx.repo.db;
  const root = db.getCommit(commit).tree;
  if (path === '') return { status: 200, body: directory(ctx, db.getTree(root), '', ref) };
  const e = db.lookupPath(root, path);
  if (!e) throw notFound(DOC);
  const at: FileAt = { path, ref, sha: e.sha };
  if (e.mode === '040000') return { status: 200, body: directory(ctx, db.getTree(e.sha), path, ref) };
  if (e.mode === '160000') {
    const shape = contentEntryShape(
      ctx.repo,
      ctx.urls,
      { ...at, type: 'submodule', size: 0 },
      {
        submodule_git_url: `https://github.com/${ctx.repo.fullName}.git`,
      },
    );
    return { status: 200, body: shape };
  }
  if (e.mode === '120000') return symlink(ctx, root, at);
  return file(ctx, at, db.getBlob(e.sha));
}

/** A file answer in the media type asked for, within GitHub's size limits. */
function file(ctx: RouteContext, at: FileAt, bytes: Uint8Array) {
  if (bytes.length > ctx.options.contentsMaxBytes) {
    throw new ApiError(403, 'This API returns blobs up to 100 MB in size.', DOC, [
      { resource: 'Blob', field: 'data', code: 'too_large' },
    ]);
  }
  if (wantsRaw(ctx.headers)) {
    const contentType = 'application/vnd.github.raw; charset=utf-8';
    return { status: 200, raw: { bytes, contentType }, blobs: [at.sha] };
  }
  if (bytes.length > CONTENTS_INLINE_LIMIT) {
    return { status: 200, body: largeFileShape(ctx.repo, ctx.urls, at, bytes.length) };
  }
  return { status: 200, body: contentFileShape(ctx.repo, ctx.urls, at, bytes), blobs: [at.sha] };
}

/** A symlink to a file of the repository answers with that file; any other link with the link itself. */
function symlink(ctx: RouteContext, root: string, at: FileAt) {
  const db = ctx.repo.db;
  const target = new TextDecoder().decode(db.getBlob(at.sha));
  const resolved = resolveLink(at.path, target);
  const hit = resolved === undefined ? undefined : db.lookupPath(root, resolved);
  if (resolved !== undefined && hit && (hit.mode === '100644' || hit.mode === '100755')) {
    return file(ctx, { path: resolved, ref: at.ref, sha: hit.sha }, db.getBlob(hit.sha));
  }
  const size = db.getBlob(at.sha).length;
  return { status: 200, body: contentEntryShape(ctx.repo, ctx.urls, { ...at, type: 'symlink', size }, { target }) };
}

/** The repository path a relative link target names, or undefined when it leaves the repository. */
function resolveLink(linkPath: string, target: string): string | undefined {
  if (target.startsWith('/')) return undefined;
  const parts = linkPath.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}

function directory(ctx: RouteContext, entries: readonly TreeEntry[], dir: string, ref: string) {
  const r: RepoRecord = ctx.repo;
  return entries.slice(0, CONTENTS_DIRECTORY_LIMIT).map((e) => {
    const path = dir === '' ? e.name : `${dir}/${e.name}`;
    const type = e.mode === '040000' ? 'dir' : e.mode === '120000' ? 'symlink' : 'file';
    const size = type === 'dir' || e.mode === '160000' ? 0 : r.db.getBlob(e.sha).length;
    return contentEntryShape(r, ctx.urls, { path, ref, sha: e.sha, type, size });
  });
}

export const contentsGetRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/contents/{path*}',
    operation: 'repos/get-content',
    doc: DOC,
    emptyConflict: false,
    handler: getContent,
  },
];
