/**
 * Git Database refs (https://docs.github.com/rest/git/refs): exact reads (`GET /git/ref/{ref}`), prefix
 * listings (`matching-refs`, and the legacy `GET /git/refs[/{prefix}]`), create, update (fast-forward
 * unless `force`) and delete. Ref paths in URLs have no `refs/` prefix; bodies use full names.
 */
import { isSha } from '../../core/git/objects.js';
import { assertValidRefName } from '../../core/refname.js';
import { ApiError, notFound } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { refShape } from '../shapes/git-objects.js';
import { checkProps, objectBody, requireKeys } from '../validate.js';

const D = 'https://docs.github.com/rest/git/refs';
const DOC = {
  getRef: `${D}#get-a-reference`,
  matchingRefs: `${D}#list-matching-references`,
  createRef: `${D}#create-a-reference`,
  updateRef: `${D}#update-a-reference`,
  deleteRef: `${D}#delete-a-reference`,
};

function validRef(full: string): boolean {
  try {
    assertValidRefName(full);
    return true;
  } catch {
    return false;
  }
}

/** The full ref a `{ref+}` path parameter names; 422 when git would refuse the name. */
function refParam(ctx: RouteContext, doc: string): string {
  const full = `refs/${ctx.params.ref}`;
  if (!validRef(full)) throw new ApiError(422, `${full} is not a valid ref name.`, doc);
  return full;
}

function getRef(ctx: RouteContext) {
  const full = `refs/${ctx.params.ref}`;
  const sha = validRef(full) ? ctx.repo.db.readRef(full) : undefined;
  if (!sha) throw notFound(DOC.getRef);
  return { status: 200, body: refShape(ctx.repo, full, sha, ctx.urls) };
}

function matchingRefs(ctx: RouteContext) {
  const prefix = `refs/${ctx.params.ref ?? ''}`;
  const list = ctx.repo.db.listRefs(prefix).map((r) => refShape(ctx.repo, r.ref, r.sha, ctx.urls));
  return { status: 200, body: list };
}

/** Legacy `GET /git/refs[/{prefix}]` (still served by GitHub): one object on an exact match, else an array. */
function legacyRefs(ctx: RouteContext) {
  const rest = (ctx.params.ref ?? '').replace(/\/$/, '');
  const full = rest === '' ? 'refs/' : `refs/${rest}`;
  const exact = rest === '' ? undefined : ctx.repo.db.readRef(full);
  if (exact) return { status: 200, body: refShape(ctx.repo, full, exact, ctx.urls) };
  const list = ctx.repo.db.listRefs(rest === '' ? 'refs/' : `${full}/`);
  if (list.length === 0) throw notFound(DOC.getRef);
  return { status: 200, body: list.map((r) => refShape(ctx.repo, r.ref, r.sha, ctx.urls)) };
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
  const body201 = refShape(ctx.repo, ref, sha, ctx.urls);
  return { status: 201, body: body201, headers: { Location: body201.url as string } };
}

/** `refs/a/b/c` → `refs/a`, `refs/a/b`: the names a new ref must not collide with. */
function ancestorsOf(ref: string): string[] {
  const parts = ref.split('/');
  const out: string[] = [];
  for (let i = 2; i < parts.length; i++) out.push(parts.slice(0, i).join('/'));
  return out;
}

function updateRef(ctx: RouteContext) {
  const doc = DOC.updateRef;
  const full = refParam(ctx, doc);
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
  return { status: 200, body: refShape(ctx.repo, full, sha, ctx.urls) };
}

function deleteRef(ctx: RouteContext) {
  const doc = DOC.deleteRef;
  const full = refParam(ctx, doc);
  const current = ctx.repo.db.readRef(full);
  if (current === undefined) throw new ApiError(422, 'Reference does not exist', doc);
  ctx.repo.db.compareAndSwapRef(full, current, null);
  ctx.state.touch(ctx.repo);
  return { status: 204 };
}

const R = '/repos/{owner}/{repo}/git';
const readRoute = (path: string, operation: string, doc: string, handler: RouteDef['handler']): RouteDef => ({
  method: 'GET',
  path: `${R}/${path}`,
  operation,
  doc,
  emptyConflict: true,
  handler,
});
const writeRoute = (method: string, path: string, operation: string, doc: string, handler: RouteDef['handler']) => ({
  method,
  path: `${R}/${path}`,
  operation,
  doc,
  write: true,
  emptyConflict: true,
  handler,
});

export const gitRefRoutes: RouteDef[] = [
  readRoute('ref/{ref+}', 'git/get-ref', DOC.getRef, getRef),
  readRoute('matching-refs/{ref*}', 'git/list-matching-refs', DOC.matchingRefs, matchingRefs),
  readRoute('refs', 'git/list-refs', DOC.getRef, legacyRefs),
  readRoute('refs/{ref*}', 'git/list-refs', DOC.getRef, legacyRefs),
  writeRoute('POST', 'refs', 'git/create-ref', DOC.createRef, createRef),
  writeRoute('PATCH', 'refs/{ref+}', 'git/update-ref', DOC.updateRef, updateRef),
  writeRoute('DELETE', 'refs/{ref+}', 'git/delete-ref', DOC.deleteRef, deleteRef),
];
