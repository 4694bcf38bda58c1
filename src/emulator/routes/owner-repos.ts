/**
 * An owner's repository lists: `GET /orgs/{org}/repos` (organisations only: a user login answers 404) and
 * `GET /users/{username}/repos`, with `type` (org: all, public, private, forks, sources, member; user: all,
 * owner, member), `sort` and `direction` as GitHub documents them; only repositories the caller can see.
 */
import { permissionsFor } from '../auth.js';
import { invalidRequest, notFound } from '../http.js';
import type { RepoRecord } from '../model.js';
import { paginate } from '../paginate.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { repoShape } from '../shapes/repositories.js';

const DOC = {
  orgRepos: 'https://docs.github.com/rest/repos/repos#list-organization-repositories',
  userRepos: 'https://docs.github.com/rest/repos/repos#list-repositories-for-a-user',
};

const REPO_SORT: Record<string, (r: RepoRecord) => string> = {
  full_name: (r) => r.fullName.toLowerCase(),
  created: (r) => r.createdAt,
  updated: (r) => r.updatedAt,
  pushed: (r) => r.pushedAt,
};

/** Which repositories a `type` keeps (`member`: none, the emulator has no collaborators). */
const TYPE_FILTER: Record<string, (r: RepoRecord) => boolean> = {
  public: (r) => !r.private,
  private: (r) => r.private,
  forks: (r) => r.fork,
  sources: (r) => !r.fork,
  member: () => false,
};

interface ListQuery {
  type: string;
  key: (r: RepoRecord) => string;
  direction: 'asc' | 'desc';
}

/** `type`, `sort` and `direction` with their per-endpoint defaults; 422 naming a bad value. */
function listQuery(ctx: RouteContext, doc: string, org: boolean): ListQuery {
  const type = ctx.query.get('type') ?? (org ? 'all' : 'owner');
  const types = org ? ['all', 'public', 'private', 'forks', 'sources', 'member'] : ['all', 'owner', 'member'];
  if (!types.includes(type))
    throw invalidRequest(`For 'type', ${JSON.stringify(type)} is not one of ${types.join(', ')}.`, doc);
  const sort = ctx.query.get('sort') ?? (org ? 'created' : 'full_name');
  const key = REPO_SORT[sort];
  if (!key)
    throw invalidRequest(
      `For 'sort', ${JSON.stringify(sort)} is not one of ${Object.keys(REPO_SORT).join(', ')}.`,
      doc,
    );
  const direction = ctx.query.get('direction') ?? (sort === 'full_name' ? 'asc' : 'desc');
  if (direction !== 'asc' && direction !== 'desc') {
    throw invalidRequest(`For 'direction', ${JSON.stringify(direction)} is not one of asc, desc.`, doc);
  }
  return { type, key, direction };
}

function ownerRepos(ctx: RouteContext, login: string, doc: string, org: boolean) {
  const owner = ctx.state.findAccount(login);
  if (!owner || (org && owner.type !== 'Organization')) throw notFound(doc);
  const { type, key, direction } = listQuery(ctx, doc, org);
  const keep = TYPE_FILTER[type] ?? (() => true);
  const visible = ctx.state
    .listRepos()
    .filter((r) => r.owner === owner && ctx.state.accessOf(ctx.token, r) !== 'none' && keep(r))
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const c = x < y ? -1 : x > y ? 1 : a.fullName.localeCompare(b.fullName);
      return direction === 'asc' ? c : -c;
    });
  const page = paginate(ctx, visible, doc);
  return {
    status: 200,
    body: page.items.map((r) => repoShape(r, ctx.urls, permissionsFor(ctx.state, ctx.token, r))),
    headers: page.headers,
  };
}

export const ownerRepoRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/orgs/{org}/repos',
    operation: 'repos/list-for-org',
    doc: DOC.orgRepos,
    handler: (ctx) => ownerRepos(ctx, ctx.params.org as string, DOC.orgRepos, true),
  },
  {
    method: 'GET',
    path: '/users/{username}/repos',
    operation: 'repos/list-for-user',
    doc: DOC.userRepos,
    handler: (ctx) => ownerRepos(ctx, ctx.params.username as string, DOC.userRepos, false),
  },
];
