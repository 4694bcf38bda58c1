/**
 * The sticky comment: one comment on the pull request, found by its hidden marker AND its author being
 * the token's own account, edited in place on later runs. A comment carrying the marker written by
 * anyone else (a person quoting it, another bot) is never touched: the publisher writes its own instead.
 * Create and edit are https://docs.github.com/rest/issues/comments#create-an-issue-comment and
 * #update-an-issue-comment; the list is read oldest first in pages of 100, at most `COMMENT_PAGE_CAP`.
 */
import { NotFound } from '../../core/errors.js';
import type { PublishOutcome } from '../types.js';
import { isDenial, type ReviewApi } from './api.js';

/** Comments per page (GitHub's maximum `per_page`). */
export const COMMENTS_PER_PAGE = 100;
/** Pages of comments read at most (3,000 comments); past it the publisher writes a new comment. */
export const COMMENT_PAGE_CAP = 30;
/** The account `GITHUB_TOKEN` (GitHub Actions' installation token) writes as. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/** Who the token is: the account its comments carry. */
export type Author = { kind: 'installation' } | { kind: 'personal'; login: string };

interface CommentItem {
  id: number;
  body?: string;
  html_url?: string;
  user?: { login?: string; type?: string } | null;
}

/** What `publishComment` needs to know. */
export interface CommentJob {
  pullRequest: number;
  tokenKind: 'installation' | 'personal';
  /** The marker the comment starts with (`reviewMarker(section)`). */
  marker: string;
  body: string;
  /** Whether the review changes anything: with nothing changed and no earlier comment, none is written. */
  changed: boolean;
}

/**
 * Create, edit or leave the sticky comment; a refused write (or read) is `denied` with the permission
 * added to `missing`, never thrown.
 *
 * @example
 * const outcome = await publishComment(api, { pullRequest: 7, tokenKind: 'installation', marker, body, changed: true }, missing);
 */
export async function publishComment(
  api: ReviewApi,
  job: CommentJob,
  missing: Set<string>,
): Promise<PublishOutcome['comment']> {
  let own: CommentItem | undefined;
  try {
    const author = await whoAmI(api, job.tokenKind);
    own = await findOwnComment(api, job, author);
  } catch (e) {
    if (!isDenial(e)) throw e;
    missing.add('pull-requests: read');
    return { action: 'denied' };
  }
  if (own && own.body === job.body) return { action: 'unchanged', ...where(own) };
  if (!own && !job.changed) return { action: 'skipped' };
  try {
    return own ? await editOrRecreate(api, job, own) : await create(api, job);
  } catch (e) {
    if (!isDenial(e)) throw e;
    missing.add('pull-requests: write');
    return { action: 'denied' };
  }
}

/**
 * Edit the comment; when it is gone (deleted between the list and the edit: 404 on a comment the token
 * could just read), write a new one rather than report a permission the token has.
 */
async function editOrRecreate(api: ReviewApi, job: CommentJob, own: CommentItem): Promise<PublishOutcome['comment']> {
  try {
    const { data } = await api.send(
      'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
      { comment_id: own.id, body: job.body },
      'edit the review comment',
    );
    return { action: 'updated', ...where(data as CommentItem) };
  } catch (e) {
    if (!(e instanceof NotFound)) throw e;
    return create(api, job);
  }
}

async function create(api: ReviewApi, job: CommentJob): Promise<PublishOutcome['comment']> {
  const { data } = await api.send(
    'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
    { issue_number: job.pullRequest, body: job.body },
    'write the review comment',
  );
  return { action: 'created', ...where(data as CommentItem) };
}

function where(c: CommentItem): { id: number; url?: string } {
  return { id: c.id, ...(c.html_url ? { url: c.html_url } : {}) };
}

/** An installation token writes as `github-actions[bot]` (no request); a personal token as its user (`GET /user`). */
async function whoAmI(api: ReviewApi, tokenKind: CommentJob['tokenKind']): Promise<Author> {
  if (tokenKind === 'installation') return { kind: 'installation' };
  const { data } = await api.send('GET /user', {}, 'read the token’s account');
  const login = (data as { login?: unknown })?.login;
  if (typeof login !== 'string' || login === '') {
    throw new TypeError(`review publish: GET /user answered no login`);
  }
  return { kind: 'personal', login };
}

function isOwn(c: CommentItem, author: Author): boolean {
  if (author.kind === 'installation') return c.user?.type === 'Bot' && c.user.login === ACTIONS_BOT_LOGIN;
  return typeof c.user?.login === 'string' && c.user.login.toLowerCase() === author.login.toLowerCase();
}

/** The oldest comment with the marker by the token's account, reading pages until one has no `next`. */
async function findOwnComment(api: ReviewApi, job: CommentJob, author: Author): Promise<CommentItem | undefined> {
  for (let page = 1; page <= COMMENT_PAGE_CAP; page++) {
    const { headers, data } = await api.send(
      'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
      { issue_number: job.pullRequest, per_page: COMMENTS_PER_PAGE, page },
      'find the review comment',
    );
    const items = Array.isArray(data) ? (data as CommentItem[]) : [];
    const own = items.find((c) => typeof c.body === 'string' && c.body.includes(job.marker) && isOwn(c, author));
    if (own) return own;
    if (!/rel="next"/.test(String(headers.link ?? ''))) return undefined;
  }
  return undefined;
}
