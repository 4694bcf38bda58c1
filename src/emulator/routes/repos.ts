/**
 * Routes of one repository: its description (`GET /repos/{owner}/{repo}`), its commit history
 * (`GET /commits`, with `sha`, `path`, `since`, `until`, paged) and its branches.
 */
import { permissionsFor } from '../auth.js';
import { history } from '../commit-graph.js';
import { ApiError } from '../http.js';
import { paginate } from '../paginate.js';
import { resolveCommitish } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { commitShape } from '../shapes/commits.js';
import { repoApiUrl } from '../shapes/common.js';
import { fullRepoShape } from '../shapes/repositories.js';

const DOC = {
  get: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  commits: 'https://docs.github.com/rest/commits/commits#list-commits',
  branches: 'https://docs.github.com/rest/branches/branches#list-branches',
};

function getRepo(ctx: RouteContext) {
  return { status: 200, body: fullRepoShape(ctx.repo, ctx.urls, permissionsFor(ctx.state, ctx.token, ctx.repo)) };
}

function listCommits(ctx: RouteContext) {
  const repo = ctx.repo;
  const shaParam = ctx.query.get('sha') ?? repo.defaultBranch;
  const start = resolveCommitish(repo, shaParam);
  if (!start) throw new ApiError(404, `No commit found for SHA: ${shaParam}`, DOC.commits);
  const path = (ctx.query.get('path') ?? '').replace(/^\/+|\/+$/g, '') || undefined;
  const shas = withinDates(ctx, history(repo, start, path));
  const page = paginate(ctx, shas, DOC.commits);
  return { status: 200, body: page.items.map((sha) => commitShape(repo, sha, ctx.urls)), headers: page.headers };
}

/** `since` / `until` keep commits whose committer date lies between them (both inclusive). */
function withinDates(ctx: RouteContext, shas: string[]): string[] {
  const since = ctx.query.get('since');
  const until = ctx.query.get('until');
  if (!since && !until) return shas;
  const s = since ? Date.parse(since) / 1000 : Number.NEGATIVE_INFINITY;
  const u = until ? Date.parse(until) / 1000 : Number.POSITIVE_INFINITY;
  return shas.filter((sha) => {
    const t = ctx.repo.db.getCommit(sha).committer.timestamp;
    return t >= s && t <= u;
  });
}

function listBranches(ctx: RouteContext) {
  const refs = ctx.repo.db.listRefs('refs/heads/');
  const page = paginate(ctx, refs, DOC.branches);
  const base = repoApiUrl(ctx.repo, ctx.urls);
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
];
