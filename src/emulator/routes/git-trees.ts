/**
 * Git Database trees: `POST /git/trees` (entries by `sha` or inline `content`, `sha: null` deletes,
 * `base_tree` may be a tree or a commit) and `GET /git/trees/{tree_sha}` (`recursive` lists the whole
 * tree, truncated past `treeTruncateLimit` entries like GitHub's 100,000).
 * https://docs.github.com/rest/git/trees
 */
import { utf8 } from '../../core/bytes.js';
import { type ObjectDb, ObjectDbError, type TreeChange, typeOfMode } from '../../core/git/object-db.js';
import { isSha, TREE_MODES, type TreeMode } from '../../core/git/objects.js';
import { isTreePath } from '../../core/git/tree-splice.js';
import { ApiError, notFound } from '../http.js';
import { resolveTreeish } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { repoApiUrl } from '../shapes/common.js';
import { treeEntryShape } from '../shapes/git-objects.js';
import { checkEnum, checkProps, checkType, objectBody, requireKeys } from '../validate.js';

const DOC = {
  createTree: 'https://docs.github.com/rest/git/trees#create-a-tree',
  getTree: 'https://docs.github.com/rest/git/trees#get-a-tree',
};

/**
 * Message for `POST /git/trees` entries that delete a path the base tree does not have. GitHub answers
 * 422 with an internal-sounding message for this; we reproduce the status and use this text.
 */
export const DELETE_MISSING_PATH_MESSAGE = 'GitRPC::BadObjectState';

function treeResponse(ctx: RouteContext, sha: string, recursive: boolean, status: number) {
  const db = ctx.repo.db;
  const entries = recursive
    ? db.flattenTree(sha, { includeTrees: true })
    : db.getTree(sha).map((e) => ({ path: e.name, mode: e.mode, type: typeOfMode(e.mode), sha: e.sha }));
  const shapes = entries.map((e) => treeEntryShape(ctx.repo, e, ctx.urls));
  const shown = recursive
    ? withinTreeLimits(shapes, ctx.options.treeTruncateLimit, ctx.options.treeTruncateBytes)
    : shapes;
  return {
    status,
    body: {
      sha,
      url: `${repoApiUrl(ctx.repo, ctx.urls)}/git/trees/${sha}`,
      tree: shown,
      truncated: shown.length < shapes.length,
    },
  };
}

/**
 * The entries a recursive listing shows: GitHub stops at 100,000 entries or 7 MB of answer, whichever comes
 * first ("The limit for the tree array is 100,000 entries with a maximum size of 7 MB when using the
 * recursive parameter", https://docs.github.com/rest/git/trees#get-a-tree).
 */
function withinTreeLimits<T>(shapes: T[], maxEntries: number, maxBytes: number): T[] {
  let bytes = 200; // the envelope: sha, url, truncated
  for (let i = 0; i < shapes.length; i++) {
    bytes += JSON.stringify(shapes[i]).length + 1;
    if (i >= maxEntries || bytes > maxBytes) return shapes.slice(0, i);
  }
  return shapes;
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
  const baseTree = body.base_tree === undefined ? null : baseTreeOf(db, String(body.base_tree), doc);
  // In order: an entry with inline content stores its blob before a later entry is checked, as before.
  const changes = (body.tree as unknown[]).map((raw, i) => treeChange(db, raw, `items/${i}`, doc));
  const sha = applyChanges(db, baseTree, changes, doc);
  const res = treeResponse(ctx, sha, false, 201);
  return { ...res, headers: { Location: `${repoApiUrl(ctx.repo, ctx.urls)}/git/trees/${sha}` } };
}

/** `base_tree` may name a tree or a commit (its tree). */
function baseTreeOf(db: ObjectDb, value: string, doc: string): string {
  const b = value.toLowerCase();
  const type = isSha(b) ? db.typeOf(b) : undefined;
  if (type === 'tree') return b;
  if (type === 'commit') return db.getCommit(b).tree;
  throw new ApiError(422, 'base_tree is not a valid tree oid', doc);
}

type Entry = Record<string, unknown> & { path: string; mode: TreeMode };

/** One `tree[]` item as a change: checked against the schema, then GitHub's rules for path, mode and sha/content. */
function treeChange(db: ObjectDb, raw: unknown, where: string, doc: string): TreeChange {
  const e = checkEntry(raw, where, doc);
  const expected = typeOfMode(e.mode);
  if (e.type !== undefined && e.type !== expected) {
    throw new ApiError(422, `tree.type ${e.type} does not match mode ${e.mode} (entry ${JSON.stringify(e.path)})`, doc);
  }
  if (!wellFormedPath(e.path)) {
    throw new ApiError(422, `tree.path ${JSON.stringify(e.path)} contains a malformed path component`, doc);
  }
  return entryTarget(db, e, expected, doc);
}

/**
 * No empty, `.`, `..` or `.git` (any case) component and no NUL — checked without splitting the path:
 * a create-tree request can carry thousands of entries.
 */
function wellFormedPath(path: string): boolean {
  if (!isTreePath(path) || path.includes('\0')) return false;
  const lower = path.toLowerCase();
  for (let at = lower.indexOf('.git'); at >= 0; at = lower.indexOf('.git', at + 1)) {
    const end = at + 4;
    if ((at === 0 || lower[at - 1] === '/') && (end === lower.length || lower[end] === '/')) return false;
  }
  return true;
}

/** The item's JSON types and enums, then the required `path` and `mode`. */
function checkEntry(raw: unknown, where: string, doc: string): Entry {
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
  return e as Entry;
}

/** Exactly one of `content` (stored as a new blob), `sha: null` (delete) or an existing object's `sha`. */
function entryTarget(db: ObjectDb, e: Entry, expected: string, doc: string): TreeChange {
  const { path, mode } = e;
  const hasSha = 'sha' in e;
  if (hasSha && e.content !== undefined) {
    throw new ApiError(422, `Only one of tree.sha and tree.content may be given (entry ${JSON.stringify(path)})`, doc);
  }
  if (e.content !== undefined) {
    if (expected !== 'blob')
      throw new ApiError(422, `tree.content is only allowed for blob modes (entry ${JSON.stringify(path)})`, doc);
    return { path, mode, sha: db.putBlob(utf8(e.content as string), true) };
  }
  if (!hasSha)
    throw new ApiError(422, `Must supply either tree.sha or tree.content (entry ${JSON.stringify(path)})`, doc);
  if (e.sha === null) return { path, mode, sha: null };
  const sha = String(e.sha).toLowerCase();
  // Submodule entries (160000) point at commits of other repositories: only the format is checked.
  if (!isSha(sha) || (expected !== 'commit' && db.typeOf(sha) !== expected)) {
    throw new ApiError(422, `tree.sha ${e.sha} is not a valid ${expected}`, doc);
  }
  return { path, mode, sha };
}

function applyChanges(db: ObjectDb, baseTree: string | null, changes: TreeChange[], doc: string): string {
  try {
    return db.applyTreeChanges(baseTree, changes);
  } catch (err) {
    if (err instanceof ObjectDbError) {
      if (err.reason === 'missing-path') throw new ApiError(422, DELETE_MISSING_PATH_MESSAGE, doc);
      throw new ApiError(422, `Invalid tree info: ${err.message}`, doc);
    }
    throw err;
  }
}

const R = '/repos/{owner}/{repo}/git';

export const gitTreeRoutes: RouteDef[] = [
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
];
