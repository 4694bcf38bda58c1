/**
 * Git Database routes: blobs, trees, commits and refs (https://docs.github.com/rest/git).
 * Objects live in the repository's shared ObjectDb, so every SHA is the one real git computes.
 */
import { fromBase64, toBase64, utf8 } from '../../core/bytes.js';
import { ObjectDbError, type TreeChange, typeOfMode } from '../../core/git/object-db.js';
import { isSha, parseSignatureDate, type Signature, TREE_MODES, type TreeMode } from '../../core/git/objects.js';
import { assertValidRefName } from '../../core/refname.js';
import { ApiError, invalidRequest, notFound } from '../http.js';
import type { RepoRecord } from '../model.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { gitCommitShape, refShape, treeEntryShape } from '../shapes.js';
import { checkEnum, checkProps, checkType, objectBody, requireKeys } from '../validate.js';

const D = 'https://docs.github.com/rest/git';
const DOC = {
  createBlob: `${D}/blobs#create-a-blob`,
  getBlob: `${D}/blobs#get-a-blob`,
  createTree: `${D}/trees#create-a-tree`,
  getTree: `${D}/trees#get-a-tree`,
  createCommit: `${D}/commits#create-a-commit`,
  getCommit: `${D}/commits#get-a-commit-object`,
  getRef: `${D}/refs#get-a-reference`,
  matchingRefs: `${D}/refs#list-matching-references`,
  createRef: `${D}/refs#create-a-reference`,
  updateRef: `${D}/refs#update-a-reference`,
  deleteRef: `${D}/refs#delete-a-reference`,
};

/**
 * Message for `POST /git/trees` entries that delete a path the base tree does not have. GitHub answers
 * 422 with an internal-sounding message for this; we reproduce the status and use this text.
 */
export const DELETE_MISSING_PATH_MESSAGE = 'GitRPC::BadObjectState';

function repoUrl(ctx: RouteContext): string {
  return `${ctx.urls.api}/repos/${ctx.repo.fullName}`;
}

function validRef(full: string): boolean {
  try {
    assertValidRefName(full);
    return true;
  } catch {
    return false;
  }
}

/** `GET /git/blobs/{sha}` etc.: a malformed SHA is 422 like GitHub, an unknown one 404. */
function shaParam(value: string, doc: string): string {
  if (!/^[0-9a-fA-F]{40}$/.test(value)) {
    throw new ApiError(422, 'The sha parameter must be exactly 40 characters and contain only [0-9a-f].', doc);
  }
  return value.toLowerCase();
}

/** Wrap base64 at 60 characters per line, as GitHub's blob API does. */
export function wrapBase64(b64: string): string {
  return b64.replace(/.{1,60}/g, '$&\n');
}

/** A tree SHA from a tree SHA, a commit SHA, or a branch/tag name (as `GET /git/trees/{tree_sha}` accepts). */
function resolveTreeish(repo: RepoRecord, value: string): string | undefined {
  let sha: string | undefined = isSha(value.toLowerCase()) ? value.toLowerCase() : undefined;
  if (!sha) {
    sha =
      repo.db.readRef(`refs/heads/${value}`) ??
      repo.db.readRef(`refs/tags/${value}`) ??
      (value.startsWith('refs/') ? repo.db.readRef(value) : undefined);
  }
  if (!sha) return undefined;
  const type = repo.db.typeOf(sha);
  if (type === 'tree') return sha;
  if (type === 'commit') return repo.db.getCommit(sha).tree;
  return undefined;
}

function createBlob(ctx: RouteContext) {
  const doc = DOC.createBlob;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['content'], doc);
  checkProps(body, { content: 'string', encoding: 'string' }, doc);
  const encoding = (body.encoding as string | undefined) ?? 'utf-8';
  let bytes: Uint8Array;
  if (encoding === 'utf-8') bytes = utf8(body.content as string);
  else if (encoding === 'base64') {
    try {
      bytes = fromBase64(body.content as string);
    } catch {
      throw invalidRequest('content is not valid Base64.', doc);
    }
  } else {
    throw new ApiError(422, `encoding must be "utf-8" or "base64", got ${JSON.stringify(encoding)}`, doc);
  }
  const sha = ctx.repo.db.putBlob(bytes);
  const url = `${repoUrl(ctx)}/git/blobs/${sha}`;
  return { status: 201, body: { sha, url }, headers: { Location: url } };
}

function getBlob(ctx: RouteContext) {
  const sha = shaParam(ctx.params.file_sha as string, DOC.getBlob);
  const o = ctx.repo.db.get(sha);
  if (o?.type !== 'blob') throw notFound(DOC.getBlob);
  return {
    status: 200,
    body: {
      sha,
      node_id: toBase64(utf8(`04:Blob${ctx.repo.id}:${sha}`)),
      size: o.body.length,
      url: `${repoUrl(ctx)}/git/blobs/${sha}`,
      content: wrapBase64(toBase64(o.body)),
      encoding: 'base64',
    },
  };
}

function treeResponse(ctx: RouteContext, sha: string, recursive: boolean, status: number) {
  const db = ctx.repo.db;
  const entries = recursive
    ? db.flattenTree(sha, { includeTrees: true })
    : db.getTree(sha).map((e) => ({ path: e.name, mode: e.mode, type: typeOfMode(e.mode), sha: e.sha }));
  const limit = ctx.options.treeTruncateLimit;
  const truncated = entries.length > limit;
  const shown = truncated ? entries.slice(0, limit) : entries;
  return {
    status,
    body: {
      sha,
      url: `${repoUrl(ctx)}/git/trees/${sha}`,
      tree: shown.map((e) => treeEntryShape(ctx.repo, e, ctx.urls)),
      truncated,
    },
  };
}

function getTree(ctx: RouteContext) {
  const value = ctx.params.tree_sha as string;
  const tree = resolveTreeish(ctx.repo, value);
  if (!tree) throw notFound(DOC.getTree);
  // Any value of `recursive` (even "0" or "false") turns recursion on, as GitHub documents.
  return treeResponse(ctx, tree, ctx.query.has('recursive'), 200);
}

function createTree(ctx: RouteContext) {
  const doc = DOC.createTree;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['tree'], doc);
  checkProps(body, { tree: 'array', base_tree: 'string' }, doc);
  const db = ctx.repo.db;
  let baseTree: string | null = null;
  if (body.base_tree !== undefined) {
    const b = String(body.base_tree).toLowerCase();
    const type = isSha(b) ? db.typeOf(b) : undefined;
    if (type === 'tree') baseTree = b;
    else if (type === 'commit') baseTree = db.getCommit(b).tree;
    else throw new ApiError(422, 'base_tree is not a valid tree oid', doc);
  }
  const changes: TreeChange[] = [];
  (body.tree as unknown[]).forEach((raw, i) => {
    const where = `items/${i}`;
    checkType(raw, 'object', where, doc);
    const e = raw as Record<string, unknown>;
    checkProps(
      e,
      { path: 'string', mode: 'string', type: 'string', sha: 'string?', content: 'string' },
      doc,
      `${where}/properties`,
    );
    checkEnum(e.mode, TREE_MODES, `${where}/properties/mode`, doc);
    checkEnum(e.type, ['blob', 'tree', 'commit'], `${where}/properties/type`, doc);
    if (typeof e.path !== 'string' || e.path === '')
      throw new ApiError(422, 'tree.path is required for every entry', doc);
    if (e.mode === undefined) throw new ApiError(422, `tree.mode is required (entry ${JSON.stringify(e.path)})`, doc);
    const mode = e.mode as TreeMode;
    const expected = typeOfMode(mode);
    if (e.type !== undefined && e.type !== expected) {
      throw new ApiError(422, `tree.type ${e.type} does not match mode ${mode} (entry ${JSON.stringify(e.path)})`, doc);
    }
    const segments = e.path.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git' || s.includes('\0'))) {
      throw new ApiError(422, `tree.path ${JSON.stringify(e.path)} contains a malformed path component`, doc);
    }
    const hasSha = 'sha' in e;
    if (hasSha && e.content !== undefined) {
      throw new ApiError(
        422,
        `Only one of tree.sha and tree.content may be given (entry ${JSON.stringify(e.path)})`,
        doc,
      );
    }
    if (e.content !== undefined) {
      if (expected !== 'blob')
        throw new ApiError(422, `tree.content is only allowed for blob modes (entry ${JSON.stringify(e.path)})`, doc);
      changes.push({ path: e.path, mode, sha: db.putBlob(utf8(e.content as string)) });
      return;
    }
    if (!hasSha)
      throw new ApiError(422, `Must supply either tree.sha or tree.content (entry ${JSON.stringify(e.path)})`, doc);
    if (e.sha === null) {
      changes.push({ path: e.path, mode, sha: null });
      return;
    }
    const sha = String(e.sha).toLowerCase();
    // Submodule entries (160000) point at commits of other repositories: only the format is checked.
    if (!isSha(sha) || (expected !== 'commit' && db.typeOf(sha) !== expected)) {
      throw new ApiError(422, `tree.sha ${e.sha} is not a valid ${expected}`, doc);
    }
    changes.push({ path: e.path, mode, sha });
  });
  let sha: string;
  try {
    sha = db.applyTreeChanges(baseTree, changes);
  } catch (err) {
    if (err instanceof ObjectDbError) {
      if (err.reason === 'missing-path') throw new ApiError(422, DELETE_MISSING_PATH_MESSAGE, doc);
      throw new ApiError(422, `Invalid tree info: ${err.message}`, doc);
    }
    throw err;
  }
  const res = treeResponse(ctx, sha, false, 201);
  return { ...res, headers: { Location: `${repoUrl(ctx)}/git/trees/${sha}` } };
}

function signature(
  value: unknown,
  where: string,
  doc: string,
  fallback: { name: string; email: string },
  now: number,
): Signature {
  if (value === undefined) return { ...fallback, timestamp: Math.floor(now / 1000), timezone: '+0000' };
  checkType(value, 'object', `properties/${where}`, doc);
  const v = value as Record<string, unknown>;
  if (v.name === undefined || v.email === undefined) {
    throw invalidRequest(`"${v.name === undefined ? 'name' : 'email'}" wasn't supplied.`, doc);
  }
  checkProps(v, { name: 'string', email: 'string', date: 'string' }, doc, `properties/${where}/properties`);
  let when = { timestamp: Math.floor(now / 1000), timezone: '+0000' };
  if (v.date !== undefined) {
    try {
      when = parseSignatureDate(v.date as string);
    } catch {
      throw invalidRequest(
        `For 'properties/${where}/properties/date', ${JSON.stringify(v.date)} is not a date-time.`,
        doc,
      );
    }
  }
  if (/[<>\n\0]/.test(v.name as string) || /[<>\n\0]/.test(v.email as string)) {
    throw new ApiError(422, `${where}.name and ${where}.email must not contain "<", ">", NUL or newlines`, doc);
  }
  return { name: v.name as string, email: v.email as string, ...when };
}

function createCommit(ctx: RouteContext) {
  const doc = DOC.createCommit;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['message', 'tree'], doc);
  checkProps(
    body,
    { message: 'string', tree: 'string', parents: 'array', author: 'object', committer: 'object', signature: 'string' },
    doc,
  );
  const db = ctx.repo.db;
  const tree = (body.tree as string).toLowerCase();
  if (!isSha(tree) || db.typeOf(tree) !== 'tree') throw new ApiError(422, 'Tree SHA does not exist', doc);
  const parents = ((body.parents as unknown[] | undefined) ?? []).map((p, i) => {
    checkType(p, 'string', `properties/parents/items/${i}`, doc);
    const sha = (p as string).toLowerCase();
    if (!isSha(sha) || db.typeOf(sha) !== 'commit')
      throw new ApiError(422, 'Parent SHA does not exist or is not a commit object', doc);
    return sha;
  });
  const user = ctx.token?.user;
  const fallback = {
    name: user?.name ?? user?.login ?? 'ghost',
    email: `${user?.id ?? 0}+${user?.login ?? 'ghost'}@users.noreply.github.com`,
  };
  const now = ctx.state.now();
  const author = signature(body.author, 'author', doc, fallback, now);
  const committer = body.committer === undefined ? author : signature(body.committer, 'committer', doc, fallback, now);
  const sha = db.putCommit({ tree, parents, author, committer, message: body.message as string });
  // GitHub signs API commits of installation tokens when it chooses the identity itself (no author,
  // committer or signature sent): https://docs.github.com/authentication/managing-commit-signature-verification/about-commit-signature-verification
  if (ctx.token?.bot && body.author === undefined && body.committer === undefined && body.signature === undefined) {
    ctx.repo.signedCommits ??= new Set();
    ctx.repo.signedCommits.add(sha);
  }
  return {
    status: 201,
    body: gitCommitShape(ctx.repo, sha, ctx.urls),
    headers: { Location: `${repoUrl(ctx)}/git/commits/${sha}` },
  };
}

function getCommit(ctx: RouteContext) {
  const sha = shaParam(ctx.params.commit_sha as string, DOC.getCommit);
  if (ctx.repo.db.typeOf(sha) !== 'commit') throw notFound(DOC.getCommit);
  return { status: 200, body: gitCommitShape(ctx.repo, sha, ctx.urls) };
}

function getRef(ctx: RouteContext) {
  const full = `refs/${ctx.params.ref}`;
  const sha = validRef(full) ? ctx.repo.db.readRef(full) : undefined;
  if (!sha) throw notFound(DOC.getRef);
  return { status: 200, body: refShape(ctx.repo, full, sha, ctx.repo.db, ctx.urls) };
}

function matchingRefs(ctx: RouteContext) {
  const prefix = `refs/${ctx.params.ref ?? ''}`;
  const list = ctx.repo.db.listRefs(prefix).map((r) => refShape(ctx.repo, r.ref, r.sha, ctx.repo.db, ctx.urls));
  return { status: 200, body: list };
}

/** Legacy `GET /git/refs[/{prefix}]` (still served by GitHub): one object on an exact match, else an array. */
function legacyRefs(ctx: RouteContext) {
  const rest = (ctx.params.ref ?? '').replace(/\/$/, '');
  const full = rest === '' ? 'refs/' : `refs/${rest}`;
  const exact = rest === '' ? undefined : ctx.repo.db.readRef(full);
  if (exact) return { status: 200, body: refShape(ctx.repo, full, exact, ctx.repo.db, ctx.urls) };
  const list = ctx.repo.db.listRefs(rest === '' ? 'refs/' : `${full}/`);
  if (list.length === 0) throw notFound(DOC.getRef);
  return { status: 200, body: list.map((r) => refShape(ctx.repo, r.ref, r.sha, ctx.repo.db, ctx.urls)) };
}

function createRef(ctx: RouteContext) {
  const doc = DOC.createRef;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['ref', 'sha'], doc);
  checkProps(body, { ref: 'string', sha: 'string', key: 'string' }, doc);
  const ref = body.ref as string;
  if (!ref.startsWith('refs/') || ref.split('/').length < 3) {
    throw new ApiError(422, 'Reference name must contain at least three slash-separated components.', doc);
  }
  if (!validRef(ref)) throw new ApiError(422, `${ref} is not a valid ref name.`, doc);
  const sha = (body.sha as string).toLowerCase();
  const db = ctx.repo.db;
  if (!isSha(sha) || !db.has(sha)) throw new ApiError(422, 'Object does not exist', doc);
  if (db.readRef(ref) !== undefined) throw new ApiError(422, 'Reference already exists', doc);
  // git cannot store refs/a and refs/a/b side by side (directory/file conflict).
  if (db.listRefs(`${ref}/`).length > 0 || ancestorsOf(ref).some((a) => db.readRef(a) !== undefined)) {
    throw new ApiError(422, 'Reference update failed', doc);
  }
  db.compareAndSwapRef(ref, null, sha);
  ctx.state.touch(ctx.repo);
  const body201 = refShape(ctx.repo, ref, sha, db, ctx.urls);
  return { status: 201, body: body201, headers: { Location: body201.url as string } };
}

function ancestorsOf(ref: string): string[] {
  const parts = ref.split('/');
  const out: string[] = [];
  for (let i = 2; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

function updateRef(ctx: RouteContext) {
  const doc = DOC.updateRef;
  const full = `refs/${ctx.params.ref}`;
  if (!validRef(full)) throw new ApiError(422, `${full} is not a valid ref name.`, doc);
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['sha'], doc);
  checkProps(body, { sha: 'string', force: 'boolean' }, doc);
  const db = ctx.repo.db;
  const current = db.readRef(full);
  if (current === undefined) throw new ApiError(422, 'Reference does not exist', doc);
  const sha = (body.sha as string).toLowerCase();
  if (!isSha(sha) || !db.has(sha)) throw new ApiError(422, 'Object does not exist', doc);
  if (body.force !== true && !(db.typeOf(sha) === 'commit' && db.isAncestor(current, sha))) {
    throw new ApiError(422, 'Update is not a fast forward', doc);
  }
  // Handlers run to completion on one thread, so this compare-and-swap cannot interleave with another.
  if (!db.compareAndSwapRef(full, current, sha)) throw new ApiError(422, 'Update is not a fast forward', doc);
  ctx.state.touch(ctx.repo);
  return { status: 200, body: refShape(ctx.repo, full, sha, db, ctx.urls) };
}

function deleteRef(ctx: RouteContext) {
  const doc = DOC.deleteRef;
  const full = `refs/${ctx.params.ref}`;
  if (!validRef(full)) throw new ApiError(422, `${full} is not a valid ref name.`, doc);
  const current = ctx.repo.db.readRef(full);
  if (current === undefined) throw new ApiError(422, 'Reference does not exist', doc);
  ctx.repo.db.compareAndSwapRef(full, current, null);
  ctx.state.touch(ctx.repo);
  return { status: 204 };
}

const R = '/repos/{owner}/{repo}/git';

export const gitRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: `${R}/blobs`,
    operation: 'git/create-blob',
    doc: DOC.createBlob,
    write: true,
    emptyConflict: true,
    handler: createBlob,
  },
  {
    method: 'GET',
    path: `${R}/blobs/{file_sha}`,
    operation: 'git/get-blob',
    doc: DOC.getBlob,
    emptyConflict: true,
    handler: getBlob,
  },
  {
    method: 'POST',
    path: `${R}/trees`,
    operation: 'git/create-tree',
    doc: DOC.createTree,
    write: true,
    emptyConflict: true,
    handler: createTree,
  },
  {
    method: 'GET',
    path: `${R}/trees/{tree_sha}`,
    operation: 'git/get-tree',
    doc: DOC.getTree,
    emptyConflict: true,
    handler: getTree,
  },
  {
    method: 'POST',
    path: `${R}/commits`,
    operation: 'git/create-commit',
    doc: DOC.createCommit,
    write: true,
    emptyConflict: true,
    handler: createCommit,
  },
  {
    method: 'GET',
    path: `${R}/commits/{commit_sha}`,
    operation: 'git/get-commit',
    doc: DOC.getCommit,
    emptyConflict: true,
    handler: getCommit,
  },
  {
    method: 'GET',
    path: `${R}/ref/{ref+}`,
    operation: 'git/get-ref',
    doc: DOC.getRef,
    emptyConflict: true,
    handler: getRef,
  },
  {
    method: 'GET',
    path: `${R}/matching-refs/{ref*}`,
    operation: 'git/list-matching-refs',
    doc: DOC.matchingRefs,
    emptyConflict: true,
    handler: matchingRefs,
  },
  {
    method: 'GET',
    path: `${R}/refs`,
    operation: 'git/list-refs',
    doc: DOC.getRef,
    emptyConflict: true,
    handler: legacyRefs,
  },
  {
    method: 'GET',
    path: `${R}/refs/{ref*}`,
    operation: 'git/list-refs',
    doc: DOC.getRef,
    emptyConflict: true,
    handler: legacyRefs,
  },
  {
    method: 'POST',
    path: `${R}/refs`,
    operation: 'git/create-ref',
    doc: DOC.createRef,
    write: true,
    emptyConflict: true,
    handler: createRef,
  },
  {
    method: 'PATCH',
    path: `${R}/refs/{ref+}`,
    operation: 'git/update-ref',
    doc: DOC.updateRef,
    write: true,
    emptyConflict: true,
    handler: updateRef,
  },
  {
    method: 'DELETE',
    path: `${R}/refs/{ref+}`,
    operation: 'git/delete-ref',
    doc: DOC.deleteRef,
    write: true,
    emptyConflict: true,
    handler: deleteRef,
  },
];
