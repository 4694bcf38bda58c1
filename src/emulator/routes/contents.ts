/**
 * The repository contents API, for files only: `GET` and `PUT /repos/{owner}/{repo}/contents/{path}`.
 * One commit per `PUT`, as GitHub does; updating an existing file requires its blob `sha` (409 when it is
 * not the current one, 422 when missing). It exists so the peers benchmark can measure the "one
 * `PUT /contents` per file" strategy honestly. https://docs.github.com/rest/repos/contents
 */
import { fromBase64, toBase64 } from '../../core/bytes.js';
import { isSha } from '../../core/git/objects.js';
import { ApiError, invalidRequest, notFound } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { nodeId } from '../shapes.js';
import { wrapBase64 } from './git.js';

const DOC = {
  get: 'https://docs.github.com/rest/repos/contents#get-repository-content',
  put: 'https://docs.github.com/rest/repos/contents#create-or-update-file-contents',
};

function refOf(ctx: RouteContext, branch: unknown): string {
  const b = typeof branch === 'string' && branch !== '' ? branch : ctx.repo.defaultBranch;
  return b.startsWith('refs/') ? b : `refs/heads/${b}`;
}

function fileUrls(ctx: RouteContext, path: string, sha: string, ref: string) {
  const repoUrl = `${ctx.urls.api}/repos/${ctx.repo.fullName}`;
  const short = ref.replace(/^refs\/heads\//, '');
  const self = `${repoUrl}/contents/${encodeURI(path)}?ref=${encodeURIComponent(short)}`;
  const html = `${ctx.urls.html}/${ctx.repo.fullName}/blob/${short}/${encodeURI(path)}`;
  const git = `${repoUrl}/git/blobs/${sha}`;
  return {
    url: self,
    html_url: html,
    git_url: git,
    download_url: `${ctx.urls.html}/${ctx.repo.fullName}/raw/${short}/${encodeURI(path)}`,
    _links: { self, git, html },
  };
}

function getContent(ctx: RouteContext) {
  const path = ctx.params.path as string;
  const ref = refOf(ctx, ctx.query.get('ref') ?? undefined);
  const tip = ctx.repo.db.readRef(ref);
  if (!tip) throw notFound(DOC.get);
  const e = ctx.repo.db.lookupPath(ctx.repo.db.getCommit(tip).tree, path);
  // Directories, symlinks and submodules are not served: docdb's benchmark reads files only.
  if (!e || e.mode === '040000' || e.mode === '160000' || e.mode === '120000') throw notFound(DOC.get);
  const body = ctx.repo.db.getBlob(e.sha);
  return {
    status: 200,
    body: {
      type: 'file',
      encoding: 'base64',
      size: body.length,
      name: path.slice(path.lastIndexOf('/') + 1),
      path,
      content: wrapBase64(toBase64(body)),
      sha: e.sha,
      ...fileUrls(ctx, path, e.sha, ref),
    },
  };
}

function putContent(ctx: RouteContext) {
  const path = ctx.params.path as string;
  const body = ctx.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null) throw invalidRequest('Invalid request.', DOC.put);
  if (typeof body.message !== 'string') throw invalidRequest('"message" wasn\'t supplied.', DOC.put);
  if (typeof body.content !== 'string') throw invalidRequest('"content" wasn\'t supplied.', DOC.put);
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(body.content);
  } catch {
    throw invalidRequest('content is not valid Base64', DOC.put);
  }
  const db = ctx.repo.db;
  const ref = refOf(ctx, body.branch);
  const tip = db.readRef(ref);
  if (!tip) throw notFound(DOC.put);
  const tree = db.getCommit(tip).tree;
  const existing = db.lookupPath(tree, path);
  if (existing && existing.mode === '040000') throw invalidRequest(`path ${path} is a directory`, DOC.put);
  if (existing) {
    if (body.sha === undefined) throw invalidRequest('"sha" wasn\'t supplied.', DOC.put);
    if (!isSha(body.sha) || body.sha !== existing.sha) {
      throw new ApiError(409, `${path} does not match ${String(body.sha)}`, DOC.put);
    }
  }
  const blob = db.putBlob(bytes);
  const newTree = db.applyTreeChanges(tree, [{ path, mode: '100644', sha: blob }]);
  const user = ctx.token?.user;
  const now = Math.floor(ctx.state.now() / 1000);
  const sig = {
    name: user?.name ?? user?.login ?? 'ghost',
    email: `${user?.id ?? 0}+${user?.login ?? 'ghost'}@users.noreply.github.com`,
    timestamp: now,
    timezone: '+0000',
  };
  const message = body.message.endsWith('\n') ? body.message : `${body.message}\n`;
  const commit = db.putCommit({ tree: newTree, parents: [tip], author: sig, committer: sig, message });
  // Handlers run to completion on one thread: nothing moved the ref since it was read above.
  db.compareAndSwapRef(ref, tip, commit);
  const repoUrl = `${ctx.urls.api}/repos/${ctx.repo.fullName}`;
  const date = new Date(now * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    status: existing ? 200 : 201,
    body: {
      content: {
        name: path.slice(path.lastIndexOf('/') + 1),
        path,
        sha: blob,
        size: bytes.length,
        type: 'file',
        ...fileUrls(ctx, path, blob, ref),
      },
      commit: {
        sha: commit,
        node_id: nodeId('Commit', `${ctx.repo.id}:${commit}`),
        url: `${repoUrl}/git/commits/${commit}`,
        html_url: `${ctx.urls.html}/${ctx.repo.fullName}/commit/${commit}`,
        author: { date, name: sig.name, email: sig.email },
        committer: { date, name: sig.name, email: sig.email },
        message: body.message,
        tree: { url: `${repoUrl}/git/trees/${newTree}`, sha: newTree },
        parents: [
          {
            url: `${repoUrl}/git/commits/${tip}`,
            html_url: `${ctx.urls.html}/${ctx.repo.fullName}/commit/${tip}`,
            sha: tip,
          },
        ],
        verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
      },
    },
  };
}

export const contentsRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/contents/{path+}',
    operation: 'repos/get-content',
    doc: DOC.get,
    emptyConflict: false,
    handler: getContent,
  },
  {
    method: 'PUT',
    path: '/repos/{owner}/{repo}/contents/{path+}',
    operation: 'repos/create-or-update-file-contents',
    doc: DOC.put,
    write: true,
    handler: putContent,
  },
];
