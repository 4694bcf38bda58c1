/** pull-request-simple (`GET /repos/{owner}/{repo}/pulls` items). */
import type { Account, PullRecord, RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';
import { labelsOf } from './issues.js';
import { repoShape } from './repositories.js';
import { userShape } from './users.js';

const NO_COMMIT = '0'.repeat(40);

/**
 * The head commit of a pull request: its pinned SHA (a fork's head), else its head branch's tip.
 *
 * @example
 * pullHeadSha(repo, pull); // '3f7a…'
 */
export function pullHeadSha(r: RepoRecord, p: PullRecord): string {
  return p.headSha ?? r.db.readRef(`refs/heads/${p.head}`) ?? NO_COMMIT;
}

/**
 * pull-request-simple. The head side is the fork's when the pull request comes from one (`headRepo`,
 * the fork's record); the base side is always this repository.
 *
 * @example
 * pullShape(repo, pull, urls, state.account(pull.issue.user)).head.ref; // 'feature/login'
 */
export function pullShape(
  r: RepoRecord,
  p: PullRecord,
  urls: Urls,
  user: Account,
  headRepo: RepoRecord = r,
): Record<string, unknown> {
  const i = p.issue;
  const repoUrl = repoApiUrl(r, urls);
  const url = `${repoUrl}/pulls/${p.number}`;
  const html = `${urls.html}/${r.fullName}/pull/${p.number}`;
  const headSha = pullHeadSha(r, p);
  return {
    url,
    id: p.id,
    node_id: nodeId('PullRequest', p.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${repoUrl}/issues/${p.number}`,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repoUrl}/pulls/comments{/number}`,
    comments_url: `${repoUrl}/issues/${p.number}/comments`,
    statuses_url: `${repoUrl}/statuses/${headSha}`,
    number: p.number,
    state: i.state,
    locked: false,
    title: i.title,
    user: userShape(user, urls),
    body: i.body,
    labels: labelsOf(r, i.labels, urls),
    milestone: null,
    active_lock_reason: null,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt,
    merged_at: p.mergedAt,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    head: branchSide(headRepo, p.head, headSha, urls),
    base: branchSide(r, p.base, r.db.readRef(`refs/heads/${p.base}`) ?? NO_COMMIT, urls),
    _links: pullLinks(repoUrl, p.number, html, headSha),
    author_association: 'OWNER',
    auto_merge: null,
    draft: p.draft,
  };
}

/** `head` or `base`: a branch of the repository and its tip. */
function branchSide(r: RepoRecord, ref: string, sha: string, urls: Urls): Record<string, unknown> {
  return { label: `${r.owner.login}:${ref}`, ref, sha, user: userShape(r.owner, urls), repo: repoShape(r, urls) };
}

function pullLinks(repoUrl: string, n: number, html: string, headSha: string): Record<string, { href: string }> {
  const url = `${repoUrl}/pulls/${n}`;
  return {
    self: { href: url },
    html: { href: html },
    issue: { href: `${repoUrl}/issues/${n}` },
    comments: { href: `${repoUrl}/issues/${n}/comments` },
    review_comments: { href: `${url}/comments` },
    review_comment: { href: `${repoUrl}/pulls/comments{/number}` },
    commits: { href: `${url}/commits` },
    statuses: { href: `${repoUrl}/statuses/${headSha}` },
  };
}

/**
 * pull-request (`GET /repos/{owner}/{repo}/pulls/{pull_number}`): pull-request-simple plus the merge
 * and size fields. The emulator computes no diff, so the counts are 0 and `mergeable` is unknown (null,
 * as GitHub answers while it computes it).
 *
 * @example
 * fullPullShape(repo, pull, urls, author, forkRecord).head.repo.full_name; // 'mallory/data'
 */
export function fullPullShape(
  r: RepoRecord,
  p: PullRecord,
  urls: Urls,
  user: Account,
  headRepo: RepoRecord = r,
): Record<string, unknown> {
  return {
    ...pullShape(r, p, urls, user, headRepo),
    merged: p.mergedAt !== null,
    mergeable: null,
    rebaseable: null,
    mergeable_state: 'unknown',
    merged_by: null,
    comments: p.issue.comments,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: 0,
    additions: 0,
    deletions: 0,
    changed_files: 0,
  };
}
