/**
 * Writing through the repository contents API: `PUT /repos/{owner}/{repo}/contents/{path}` (reads are in
 * ./contents-get.ts).
 * One commit per `PUT`, as GitHub does; updating an existing file requires its blob `sha` (409 when it is
 * not the current one, 422 when missing). It exists so the peers benchmark can measure the "one
 * `PUT /contents` per file" strategy honestly. https://docs.github.com/rest/repos/contents
 */
import { fromBase64 } from '../../core/bytes.js';
import { isSha, type Signature } from '../../core/git/objects.js';
import { apiCommitIdentity } from '../commit-identity.js';
import { ApiError, invalidRequest, notFound } from '../http.js';
import { fullRefName } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { fileCommitShape } from '../shapes/contents.js';

const DOC = {
  put: 'https://docs.github.com/rest/repos/contents#create-or-update-file-contents',
};

/** The ref a `ref` query or `branch` body member names (a branch name or full ref), default the default branch. */
function refOf(ctx: RouteContext, branch: unknown): string {
  return fullRefName(typeof branch === 'string' && branch !== '' ? branch : ctx.repo.defaultBranch);
}

/** The body's `message` and base64 `content`, checked in GitHub's order. */
function putBody(body: unknown): { message: string; bytes: Uint8Array; sha: unknown; branch: unknown } {
  const b = body as Record<string, unknown> | undefined;
  if (typeof b !== 'object' || b === null) throw invalidRequest('Invalid request.', DOC.put);
  if (typeof b.message !== 'string') throw invalidRequest('"message" wasn\'t supplied.', DOC.put);
  if (typeof b.content !== 'string') throw invalidRequest('"content" wasn\'t supplied.', DOC.put);
  try {
    return { message: b.message, bytes: fromBase64(b.content), sha: b.sha, branch: b.branch };
  } catch {
    throw invalidRequest('content is not valid Base64', DOC.put);
  }
}

function putContent(ctx: RouteContext) {
  const path = ctx.params.path as string;
  const body = putBody(ctx.body);
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
  const blob = db.putBlob(body.bytes);
  const newTree = db.applyTreeChanges(tree, [{ path, mode: '100644', sha: blob }]);
  const signature: Signature = {
    ...apiCommitIdentity(ctx.token?.user),
    timestamp: Math.floor(ctx.state.now() / 1000),
    timezone: '+0000',
  };
  const message = body.message.endsWith('\n') ? body.message : `${body.message}\n`;
  const commit = db.putCommit({ tree: newTree, parents: [tip], author: signature, committer: signature, message });
  // Handlers run to completion on one thread: nothing moved the ref since it was read above.
  db.compareAndSwapRef(ref, tip, commit);
  const written = { sha: commit, tree: newTree, parent: tip, signature, message: body.message };
  return {
    status: existing ? 200 : 201,
    body: fileCommitShape(ctx.repo, ctx.urls, { path, ref, sha: blob }, body.bytes.length, written),
  };
}

export const contentsRoutes: RouteDef[] = [
  {
    method: 'PUT',
    path: '/repos/{owner}/{repo}/contents/{path+}',
    operation: 'repos/create-or-update-file-contents',
    doc: DOC.put,
    write: true,
    handler: putContent,
  },
];
