/**
 * Projection-source list endpoints: issues (pull requests included, as GitHub does), pulls, releases,
 * plus `POST /labels` (kept for the recorded `errors` exchange in @octokit/fixtures).
 */
import { ApiError, invalidRequest } from '../http.js';
import type { PullRecord, RepoRecord } from '../model.js';
import { paginate } from '../paginate.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { issueShape, labelShape } from '../shapes/issues.js';
import { pullShape } from '../shapes/pulls.js';
import { releaseShape } from '../shapes/releases.js';
import { checkProps, objectBody, requireKeys } from '../validate.js';

const DOC = {
  issues: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
  pulls: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  releases: 'https://docs.github.com/rest/releases/releases#list-releases',
  createLabel: 'https://docs.github.com/rest/issues/labels#create-a-label',
};

function stateFilter(ctx: RouteContext, doc: string): 'open' | 'closed' | 'all' {
  const s = ctx.query.get('state') ?? 'open';
  if (s !== 'open' && s !== 'closed' && s !== 'all') {
    throw invalidRequest(`For 'state', ${JSON.stringify(s)} is not one of ["open","closed","all"].`, doc);
  }
  return s;
}

function sortDirection<T>(
  ctx: RouteContext,
  items: T[],
  keys: Record<string, (x: T) => string | number>,
  defaultSort: string,
  doc: string,
): T[] {
  const sort = ctx.query.get('sort') ?? defaultSort;
  const key = keys[sort];
  if (!key)
    throw invalidRequest(
      `For 'sort', ${JSON.stringify(sort)} is not one of ${JSON.stringify(Object.keys(keys))}.`,
      doc,
    );
  const direction = ctx.query.get('direction') ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') {
    throw invalidRequest(`For 'direction', ${JSON.stringify(direction)} is not one of ["asc","desc"].`, doc);
  }
  const sign = direction === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -sign : ka > kb ? sign : 0;
  });
}

function listIssues(ctx: RouteContext) {
  const doc = DOC.issues;
  const state = stateFilter(ctx, doc);
  let items = ctx.repo.issues.filter((i) => state === 'all' || i.state === state);
  const since = ctx.query.get('since');
  if (since) {
    const t = Date.parse(since);
    if (Number.isNaN(t)) throw invalidRequest(`For 'since', ${JSON.stringify(since)} is not a date-time.`, doc);
    items = items.filter((i) => Date.parse(i.updatedAt) >= t);
  }
  const labels = ctx.query.get('labels');
  if (labels) {
    const want = labels.split(',').map((l) => l.trim().toLowerCase());
    items = items.filter((i) => want.every((w) => i.labels.some((l) => l.toLowerCase() === w)));
  }
  const creator = ctx.query.get('creator');
  if (creator) items = items.filter((i) => i.user.toLowerCase() === creator.toLowerCase());
  items = sortDirection(
    ctx,
    items,
    {
      created: (i) => `${i.createdAt}#${String(i.number).padStart(9, '0')}`,
      updated: (i) => i.updatedAt,
      comments: (i) => i.comments,
    },
    'created',
    doc,
  );
  const page = paginate(ctx, items, doc);
  return {
    status: 200,
    body: page.items.map((i) => issueShape(ctx.repo, i, ctx.urls, ctx.state.account(i.user))),
    headers: page.headers,
  };
}

function listPulls(ctx: RouteContext) {
  const doc = DOC.pulls;
  const state = stateFilter(ctx, doc);
  let items = ctx.repo.pulls.filter((p) => state === 'all' || p.issue.state === state);
  const head = ctx.query.get('head');
  // `head` is `owner:branch`, the owner being the fork's for a fork's pull request.
  const headOf = (p: PullRecord) => `${p.headRepo ? p.headRepo.split('/')[0] : ctx.repo.owner.login}:${p.head}`;
  if (head) items = items.filter((p) => headOf(p).toLowerCase() === head.toLowerCase());
  const base = ctx.query.get('base');
  if (base) items = items.filter((p) => p.base === base);
  items = sortDirection(
    ctx,
    items,
    {
      created: (p) => `${p.issue.createdAt}#${String(p.number).padStart(9, '0')}`,
      updated: (p) => p.issue.updatedAt,
      popularity: (p) => p.issue.comments,
      'long-running': (p) => p.issue.createdAt,
    },
    'created',
    doc,
  );
  const page = paginate(ctx, items, doc);
  return {
    status: 200,
    body: page.items.map((p) => pullShape(ctx.repo, p, ctx.urls, ctx.state.account(p.issue.user), headRepoOf(ctx, p))),
    headers: page.headers,
  };
}

/** The repository a pull request's head branch lives in: a fork's when it has one. */
function headRepoOf(ctx: RouteContext, p: PullRecord): RepoRecord {
  return (p.headRepo ? ctx.state.findRepo(p.headRepo) : undefined) ?? ctx.repo;
}

function listReleases(ctx: RouteContext) {
  const canWrite = ctx.state.accessOf(ctx.token, ctx.repo) === 'write';
  // Draft releases are visible only to users with push access, as on GitHub.
  const items = ctx.repo.releases
    .filter((r) => canWrite || !r.draft)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id));
  const page = paginate(ctx, items, DOC.releases);
  return {
    status: 200,
    body: page.items.map((r) => releaseShape(ctx.repo, r, ctx.urls, ctx.state.account(r.author))),
    headers: page.headers,
  };
}

function createLabel(ctx: RouteContext) {
  const doc = DOC.createLabel;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['name'], doc);
  checkProps(body, { name: 'string', color: 'string', description: 'string' }, doc);
  const errors: { resource: string; code: string; field: string }[] = [];
  const color = ((body.color as string | undefined) ?? 'ededed').replace(/^#/, '');
  if (!/^[0-9a-fA-F]{6}$/.test(color)) errors.push({ resource: 'Label', code: 'invalid', field: 'color' });
  const name = body.name as string;
  if (ctx.repo.labels.some((l) => l.name.toLowerCase() === name.toLowerCase())) {
    errors.push({ resource: 'Label', code: 'already_exists', field: 'name' });
  }
  if (errors.length > 0) throw new ApiError(422, 'Validation Failed', doc, errors);
  const label = ctx.state.ensureLabel(
    ctx.repo,
    name,
    color.toLowerCase(),
    (body.description as string | undefined) ?? null,
  );
  const shape = labelShape(ctx.repo, label, ctx.urls);
  return { status: 201, body: shape, headers: { Location: shape.url as string } };
}

export const issueRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues',
    operation: 'issues/list-for-repo',
    doc: DOC.issues,
    handler: listIssues,
  },
  { method: 'GET', path: '/repos/{owner}/{repo}/pulls', operation: 'pulls/list', doc: DOC.pulls, handler: listPulls },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/releases',
    operation: 'repos/list-releases',
    doc: DOC.releases,
    handler: listReleases,
  },
  {
    method: 'POST',
    path: '/repos/{owner}/{repo}/labels',
    operation: 'issues/create-label',
    doc: DOC.createLabel,
    write: true,
    permissions: ['issues', 'pull-requests'],
    handler: createLabel,
  },
];
