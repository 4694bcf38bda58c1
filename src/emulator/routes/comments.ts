/**
 * Issue comments, the conversation of an issue or pull request
 * (https://docs.github.com/rest/issues/comments): list (paged, oldest first), create (201), update.
 * A comment's author is the token's account (`github-actions[bot]` for an installation token). Writing
 * needs `issues: write` or `pull-requests: write` when the token has `permissions` (GitHub's "at least
 * one of the following permission sets"). Any writer may edit any comment, as a collaborator can on
 * GitHub: telling its own comment from others' is the client's job.
 */
import { isoSeconds } from '../dates.js';
import { ApiError, invalidRequest } from '../http.js';
import type { IssueCommentRecord } from '../model.js';
import { paginate } from '../paginate.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { commentShape } from '../shapes/reviews.js';
import { addComment, authorOf } from '../state/reviews.js';
import { checkProps, objectBody, requireKeys } from '../validate.js';

const DOC = {
  list: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  create: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  update: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
};

/**
 * Characters a comment body may have. GitHub answers a longer one 422 with `Body is too long (maximum is
 * 65536 characters)` (resource IssueComment, code unprocessable, field data), as its API returned it in
 * 2023–2024 (e.g. https://github.com/reg-viz/reg-actions/issues/123; older answers said `body is too long`,
 * code custom, field body). Characters are code points, as Ruby counts them.
 */
export const MAX_COMMENT_CHARS = 65_536;

function issueNumber(ctx: RouteContext, doc: string): number {
  const raw = ctx.params.issue_number as string;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!ctx.repo.issues.some((i) => i.number === n)) throw new ApiError(404, 'Not Found', doc);
  return n;
}

/** The `body` of a create or update request, checked (type, then length). */
function commentBody(ctx: RouteContext, doc: string): string {
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['body'], doc);
  checkProps(body, { body: 'string' }, doc);
  const text = body.body as string;
  let chars = 0;
  for (const _ of text) chars++;
  if (chars > MAX_COMMENT_CHARS) {
    throw new ApiError(422, 'Validation Failed', doc, [
      {
        resource: 'IssueComment',
        code: 'unprocessable',
        field: 'data',
        message: `Body is too long (maximum is ${MAX_COMMENT_CHARS} characters)`,
      },
    ]);
  }
  return text;
}

function shape(ctx: RouteContext, c: IssueCommentRecord) {
  return commentShape(ctx.repo, c, ctx.urls, ctx.state.account(c.user));
}

function listComments(ctx: RouteContext) {
  const n = issueNumber(ctx, DOC.list);
  let items = ctx.repo.comments.filter((c) => c.issueNumber === n);
  const since = ctx.query.get('since');
  if (since) {
    const t = Date.parse(since);
    if (Number.isNaN(t)) throw invalidRequest(`For 'since', ${JSON.stringify(since)} is not a date-time.`, DOC.list);
    items = items.filter((c) => Date.parse(c.updatedAt) >= t);
  }
  const page = paginate(ctx, items, DOC.list);
  return { status: 200, body: page.items.map((c) => shape(ctx, c)), headers: page.headers };
}

function createComment(ctx: RouteContext) {
  const n = issueNumber(ctx, DOC.create);
  const text = commentBody(ctx, DOC.create);
  const user = authorOf(ctx.state, ctx.token as NonNullable<typeof ctx.token>).login;
  const rec = addComment(ctx.state, ctx.repo, { issueNumber: n, body: text, user }, ctx.state.now());
  const body = shape(ctx, rec);
  return { status: 201, body, headers: { Location: body.url as string } };
}

function updateComment(ctx: RouteContext) {
  const raw = ctx.params.comment_id as string;
  const rec = ctx.repo.comments.find((c) => String(c.id) === raw);
  if (!rec) throw new ApiError(404, 'Not Found', DOC.update);
  rec.body = commentBody(ctx, DOC.update);
  rec.updatedAt = isoSeconds(ctx.state.now());
  return { status: 200, body: shape(ctx, rec) };
}

const WRITE = { write: true, permissions: ['issues', 'pull-requests'] as const };

export const commentRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    operation: 'issues/list-comments',
    doc: DOC.list,
    handler: listComments,
  },
  {
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    operation: 'issues/create-comment',
    doc: DOC.create,
    ...WRITE,
    handler: createComment,
  },
  {
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    operation: 'issues/update-comment',
    doc: DOC.update,
    ...WRITE,
    handler: updateComment,
  },
];
