/**
 * Repository routes: the repository description, commit history (`GET /commits`), branches, the
 * owner's repository lists and `GET /rate_limit`.
 */
import { isSha } from '../../core/git/objects.js';
import { ApiError, invalidRequest, notFound } from '../http.js';
import type { RepoRecord } from '../model.js';
import { paginate } from '../paginate.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { commitShape, fullRepoShape, repoShape } from '../shapes.js';

const DOC = {
  get: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  commits: 'https://docs.github.com/rest/commits/commits#list-commits',
  branches: 'https://docs.github.com/rest/branches/branches#list-branches',
  orgRepos: 'https://docs.github.com/rest/repos/repos#list-organization-repositories',
  userRepos: 'https://docs.github.com/rest/repos/repos#list-repositories-for-a-user',
  rateLimit: 'https://docs.github.com/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user',
};

function permissionsFor(ctx: RouteContext, repo: RepoRecord) {
  if (!ctx.token) return undefined;
  const access = ctx.state.accessOf(ctx.token, repo);
  return { admin: access === 'write', push: access === 'write', pull: access !== 'none' };
}

function getRepo(ctx: RouteContext) {
  return { status: 200, body: fullRepoShape(ctx.repo, ctx.urls, permissionsFor(ctx, ctx.repo)) };
}

/** A commit SHA from `sha` (a SHA, branch, tag or full ref name), like git rev-parse does for GitHub. */
export function resolveCommitish(repo: RepoRecord, value: string): string | undefined {
  const lower = value.toLowerCase();
  if (isSha(lower)) return repo.db.typeOf(lower) === 'commit' ? lower : undefined;
  const candidates = value.startsWith('refs/')
    ? [value]
    : [`refs/heads/${value}`, `refs/tags/${value}`, `refs/${value}`];
  for (const ref of candidates) {
    const sha = repo.db.readRef(ref);
    if (sha && repo.db.typeOf(sha) === 'commit') return sha;
  }
  return undefined;
}

/**
 * Commits reachable from `start`, newest committer date first (git log's default order), keeping only
 * commits that change `path` when given. A merge identical at `path` to one parent follows only that
 * parent, as git's history simplification does.
 */
export function history(repo: RepoRecord, start: string, path?: string): string[] {
  const db = repo.db;
  const entryAt = (commit: string) => {
    if (!path) return undefined;
    return db.lookupPath(db.getCommit(commit).tree, path)?.sha ?? null;
  };
  const out: string[] = [];
  const seen = new Set<string>([start]);
  const queue: { sha: string; time: number; order: number }[] = [];
  let order = 0;
  const push = (sha: string) => {
    if (!db.has(sha)) return;
    queue.push({ sha, time: db.getCommit(sha).committer.timestamp, order: order++ });
  };
  push(start);
  while (queue.length > 0) {
    queue.sort((a, b) => b.time - a.time || a.order - b.order);
    const { sha } = queue.shift() as { sha: string };
    const c = db.getCommit(sha);
    let parents = c.parents;
    if (path) {
      const mine = entryAt(sha);
      const same = c.parents.find((p) => db.has(p) && entryAt(p) === mine);
      if (same) parents = [same];
      else if (mine !== null || c.parents.length > 0) out.push(sha);
    } else {
      out.push(sha);
    }
    for (const p of parents) {
      if (!seen.has(p)) {
        seen.add(p);
        push(p);
      }
    }
  }
  return out;
}

function listCommits(ctx: RouteContext) {
  const repo = ctx.repo;
  const shaParam = ctx.query.get('sha') ?? repo.defaultBranch;
  const start = resolveCommitish(repo, shaParam);
  if (!start) throw new ApiError(404, `No commit found for SHA: ${shaParam}`, DOC.commits);
  const path = (ctx.query.get('path') ?? '').replace(/^\/+|\/+$/g, '') || undefined;
  let shas = history(repo, start, path);
  const since = ctx.query.get('since');
  const until = ctx.query.get('until');
  if (since || until) {
    const s = since ? Date.parse(since) / 1000 : Number.NEGATIVE_INFINITY;
    const u = until ? Date.parse(until) / 1000 : Number.POSITIVE_INFINITY;
    shas = shas.filter((sha) => {
      const t = repo.db.getCommit(sha).committer.timestamp;
      return t >= s && t <= u;
    });
  }
  const page = paginate(ctx, shas, DOC.commits);
  return { status: 200, body: page.items.map((sha) => commitShape(repo, sha, ctx.urls)), headers: page.headers };
}

function listBranches(ctx: RouteContext) {
  const refs = ctx.repo.db.listRefs('refs/heads/');
  const page = paginate(ctx, refs, DOC.branches);
  const base = `${ctx.urls.api}/repos/${ctx.repo.fullName}`;
  return {
    status: 200,
    body: page.items.map((r) => ({
      name: r.ref.slice('refs/heads/'.length),
      commit: { sha: r.sha, url: `${base}/commits/${r.sha}` },
      protected: false,
    })),
    headers: page.headers,
  };
}

const REPO_SORT: Record<string, (r: RepoRecord) => string> = {
  full_name: (r) => r.fullName.toLowerCase(),
  created: (r) => r.createdAt,
  updated: (r) => r.updatedAt,
  pushed: (r) => r.pushedAt,
};

/**
 * `GET /orgs/{org}/repos` (organisations only: a user login answers 404) and `GET /users/{username}/repos`,
 * with `type` (org: all, public, private, forks, sources, member; user: all, owner, member), `sort` and
 * `direction` as GitHub documents them; only repositories the caller can see.
 */
function ownerRepos(ctx: RouteContext, login: string, doc: string, org: boolean) {
  const owner = ctx.state.findAccount(login);
  if (!owner || (org && owner.type !== 'Organization')) throw notFound(doc);
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
  const keep = (r: RepoRecord) =>
    type === 'public'
      ? !r.private
      : type === 'private'
        ? r.private
        : type === 'forks'
          ? r.fork
          : type === 'sources'
            ? !r.fork
            : type !== 'member';
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
    body: page.items.map((r) => repoShape(r, ctx.urls, permissionsFor(ctx, r))),
    headers: page.headers,
  };
}

function rateLimit(ctx: RouteContext) {
  const b = ctx.state.refreshBudget(ctx.token?.budget ?? ctx.state.anonymousBudget);
  const usage = (x: typeof b) => ({
    limit: x.limit,
    used: x.used,
    remaining: Math.max(0, x.limit - x.used),
    reset: x.reset,
  });
  const core = usage(b);
  const fixed = (limit: number) => ({ limit, used: 0, remaining: limit, reset: b.reset });
  return {
    status: 200,
    body: {
      resources: {
        core,
        search: fixed(ctx.token ? 30 : 10),
        graphql: ctx.token ? usage(ctx.state.refreshBudget(ctx.token.graphqlBudget)) : fixed(0),
        integration_manifest: fixed(5000),
        code_search: fixed(10),
      },
      rate: core,
    },
  };
}

export const repoRoutes: RouteDef[] = [
  { method: 'GET', path: '/repos/{owner}/{repo}', operation: 'repos/get', doc: DOC.get, handler: getRepo },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits',
    operation: 'repos/list-commits',
    doc: DOC.commits,
    emptyConflict: true,
    handler: listCommits,
  },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/branches',
    operation: 'repos/list-branches',
    doc: DOC.branches,
    handler: listBranches,
  },
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
  {
    method: 'GET',
    path: '/rate_limit',
    operation: 'rate-limit/get',
    doc: DOC.rateLimit,
    costs: false,
    handler: rateLimit,
  },
];
