/**
 * Publishing a review on GitHub (issue 39, docs/review-publishing.md): the sticky comment on the pull
 * request and the check run (or, for a personal access token, a commit status) on its head commit.
 * A permission the token lacks is reported (`missing`, action `denied`), never thrown; any other failure
 * (a 5xx after the client's retries, a 422) throws a typed, token-free error.
 */
import { InvalidConfig } from '../../core/errors.js';
import type { SourceClient } from '../../projection/sources/types.js';
import { type CheckRunOutput, reviewMarker } from '../index.js';
import type { PublishOutcome, Review } from '../types.js';
import { ReviewApi } from './api.js';
import { publishCheck } from './check.js';
import { publishComment } from './comment.js';

export { ANNOTATIONS_PER_REQUEST, STATUS_DESCRIPTION_MAX } from './check.js';
export { ACTIONS_BOT_LOGIN, COMMENT_PAGE_CAP, COMMENTS_PER_PAGE } from './comment.js';

/** Where to publish, and what kind of token the client carries. */
export interface PublishTarget {
  owner: string;
  repo: string;
  pullRequest: number;
  /** The pull request's head commit (40 hex): the check run or status goes there. */
  headSha: string;
  /** `installation`: `GITHUB_TOKEN` or a GitHub App; `personal`: a personal access token (no check runs). */
  tokenKind: 'installation' | 'personal';
}

/**
 * Publish `review` on its pull request: find the token's own sticky comment (pages of 100, at most 30)
 * and edit it when its text changes (create it when there is none, unless nothing would change), then
 * write the check run `render.check.name` on `headSha` (update the latest of that name, else create;
 * annotations 50 a request) or, for a personal token, a commit status. The budget on a pull request with
 * ≤ 100 comments and an earlier comment: at most 4 requests (list, edit, find run, write run).
 *
 * @example
 * const outcome = await publishReview(octokit, { owner: 'octo', repo: 'data', pullRequest: 7, headSha, tokenKind: 'installation' }, review, {
 *   comment: renderComment(review),
 *   check: renderCheckRun(review),
 * });
 * outcome.missing; // [] or ['pull-requests: write', …]
 */
export async function publishReview(
  client: SourceClient,
  target: PublishTarget,
  review: Review,
  render: { comment: string; check: CheckRunOutput },
): Promise<PublishOutcome> {
  checkTarget(target);
  const api = new ReviewApi(client, `${target.owner}/${target.repo}`);
  const missing = new Set<string>();
  const comment = await publishComment(
    api,
    {
      pullRequest: target.pullRequest,
      tokenKind: target.tokenKind,
      marker: reviewMarker(review.section),
      body: render.comment,
      changed: review.changed,
    },
    missing,
  );
  const check = await publishCheck(api, target, render.check, missing);
  return { comment, check, missing: [...missing], requests: api.requests };
}

function checkTarget(t: PublishTarget): void {
  const name = /^[A-Za-z0-9._-]+$/;
  if (typeof t.owner !== 'string' || !name.test(t.owner))
    throw new InvalidConfig(
      'owner',
      `publishReview: owner must be a GitHub account name, got ${JSON.stringify(t.owner)}`,
    );
  if (typeof t.repo !== 'string' || !name.test(t.repo))
    throw new InvalidConfig('repo', `publishReview: repo must be a repository name, got ${JSON.stringify(t.repo)}`);
  if (!Number.isSafeInteger(t.pullRequest) || t.pullRequest < 1) {
    throw new InvalidConfig(
      'pullRequest',
      `publishReview: pullRequest must be a positive integer, got ${JSON.stringify(t.pullRequest)}`,
    );
  }
  if (typeof t.headSha !== 'string' || !/^[0-9a-f]{40}$/.test(t.headSha)) {
    throw new InvalidConfig(
      'headSha',
      `publishReview: headSha must be 40 lowercase hex characters, got ${JSON.stringify(t.headSha)}`,
    );
  }
  if (t.tokenKind !== 'installation' && t.tokenKind !== 'personal') {
    throw new InvalidConfig(
      'tokenKind',
      `publishReview: tokenKind must be "installation" or "personal", got ${JSON.stringify(t.tokenKind)}`,
    );
  }
}
