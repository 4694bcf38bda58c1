/**
 * `GET /repos/{owner}/{repo}/pulls/{pull_number}` (https://docs.github.com/rest/pulls/pulls#get-a-pull-request):
 * one pull request, with its head commit and the repository its head branch lives in (a fork's, when
 * seeded with `headRepo`), which a review needs to tell a same-repository pull request from a fork's.
 */
import { ApiError } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { fullPullShape } from '../shapes/pulls.js';

const DOC = 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request';

function getPull(ctx: RouteContext) {
  const n = ctx.params.pull_number as string;
  const pull = /^\d+$/.test(n) ? ctx.repo.pulls.find((p) => p.number === Number(n)) : undefined;
  if (!pull) throw new ApiError(404, 'Not Found', DOC);
  const headRepo = pull.headRepo ? ctx.state.findRepo(pull.headRepo) : ctx.repo;
  const author = ctx.state.account(pull.issue.user);
  return { status: 200, body: fullPullShape(ctx.repo, pull, ctx.urls, author, headRepo ?? ctx.repo) };
}

export const pullRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{pull_number}',
    operation: 'pulls/get',
    doc: DOC,
    handler: getPull,
  },
];
