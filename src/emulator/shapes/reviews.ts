/**
 * issue-comment, check-run and status: what a pull-request review leaves on GitHub (issue 39), field for
 * field as GitHub's OpenAPI description has them.
 */
import type { Account, CheckRunRecord, CommitStatusRecord, IssueCommentRecord, RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';
import { userShape } from './users.js';

/**
 * issue-comment.
 *
 * @example
 * commentShape(repo, comment, urls, state.account(comment.user)).user.login; // 'github-actions[bot]'
 */
export function commentShape(r: RepoRecord, c: IssueCommentRecord, urls: Urls, user: Account): Record<string, unknown> {
  const repoUrl = repoApiUrl(r, urls);
  const kind = r.pulls.some((p) => p.number === c.issueNumber) ? 'pull' : 'issues';
  return {
    id: c.id,
    node_id: nodeId('IssueComment', c.id),
    url: `${repoUrl}/issues/comments/${c.id}`,
    html_url: `${urls.html}/${r.fullName}/${kind}/${c.issueNumber}#issuecomment-${c.id}`,
    body: c.body,
    user: userShape(user, urls),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    issue_url: `${repoUrl}/issues/${c.issueNumber}`,
    author_association: user.login === r.owner.login ? 'OWNER' : 'NONE',
    performed_via_github_app: null,
  };
}

/**
 * check-run. `app` is GitHub Actions' app (the only app the emulator has: installation tokens belong
 * to it).
 *
 * @example
 * checkRunShape(repo, run, urls, state.account('github-actions')).output.annotations_count; // 3
 */
export function checkRunShape(
  r: RepoRecord,
  c: CheckRunRecord,
  urls: Urls,
  appOwner: Account,
): Record<string, unknown> {
  const url = `${repoApiUrl(r, urls)}/check-runs/${c.id}`;
  return {
    id: c.id,
    name: c.name,
    node_id: nodeId('CheckRun', c.id),
    head_sha: c.headSha,
    external_id: c.externalId ?? '',
    url,
    html_url: `${urls.html}/${r.fullName}/runs/${c.id}`,
    details_url: c.detailsUrl ?? `${urls.html}/${r.fullName}/runs/${c.id}`,
    status: c.status,
    conclusion: c.conclusion,
    started_at: c.startedAt,
    completed_at: c.completedAt,
    output: { ...c.output, annotations_count: c.annotations.length, annotations_url: `${url}/annotations` },
    check_suite: { id: c.id + 1_000_000 },
    app: actionsApp(appOwner, urls),
    pull_requests: [],
  };
}

/** The GitHub Actions app (integration), id 15368 as on github.com. */
function actionsApp(owner: Account, urls: Urls): Record<string, unknown> {
  return {
    id: 15368,
    slug: 'github-actions',
    node_id: nodeId('Integration', 15368),
    owner: userShape(owner, urls),
    name: 'GitHub Actions',
    description: 'Automate your workflow from idea to production',
    external_url: 'https://help.github.com/en/actions',
    html_url: `${urls.html}/apps/github-actions`,
    created_at: '2018-07-30T09:30:17Z',
    updated_at: '2024-04-10T20:33:16Z',
    permissions: { checks: 'write', contents: 'write', issues: 'write', metadata: 'read', statuses: 'write' },
    events: ['check_run', 'check_suite', 'pull_request', 'push', 'status'],
  };
}

/**
 * status (`POST /statuses/{sha}`).
 *
 * @example
 * statusShape(repo, status, urls, state.account(status.creator)).context; // 'docdb: documents'
 */
export function statusShape(
  r: RepoRecord,
  s: CommitStatusRecord,
  urls: Urls,
  creator: Account,
): Record<string, unknown> {
  return {
    url: `${repoApiUrl(r, urls)}/statuses/${s.sha}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${creator.id}?v=4`,
    id: s.id,
    node_id: nodeId('StatusContext', s.id),
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    creator: userShape(creator, urls),
  };
}
