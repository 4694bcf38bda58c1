/** Labels and issues (`GET /issues` items; pull requests appear there too, carrying `pull_request`). */
import type { Account, IssueRecord, LabelRecord, RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';
import { userShape } from './users.js';

/**
 * label.
 *
 * @example
 * labelShape(repo, label, urls).url; // '…/repos/octo/data/labels/good%20first%20issue'
 */
export function labelShape(r: RepoRecord, l: LabelRecord, urls: Urls): Record<string, unknown> {
  return {
    id: l.id,
    node_id: nodeId('Label', l.id),
    url: `${repoApiUrl(r, urls)}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    default: false,
    description: l.description,
  };
}

/**
 * The labels an issue names, as label objects (names without a label record are left out).
 *
 * @example
 * labelsOf(repo, issue.labels, urls);
 */
export function labelsOf(r: RepoRecord, names: string[], urls: Urls): Record<string, unknown>[] {
  return names.flatMap((n) => {
    const l = r.labels.find((x) => x.name.toLowerCase() === n.toLowerCase());
    return l ? [labelShape(r, l, urls)] : [];
  });
}

/**
 * issue (`GET /repos/{owner}/{repo}/issues` items; pull requests carry `pull_request`).
 *
 * @example
 * issueShape(repo, issue, urls, state.account(issue.user)).number;
 */
export function issueShape(r: RepoRecord, i: IssueRecord, urls: Urls, user: Account): Record<string, unknown> {
  const repoUrl = repoApiUrl(r, urls);
  const url = `${repoUrl}/issues/${i.number}`;
  const kind = i.pull ? 'pull' : 'issues';
  return {
    id: i.id,
    node_id: nodeId(i.pull ? 'PullRequest' : 'Issue', i.id),
    url,
    repository_url: repoUrl,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${urls.html}/${r.fullName}/${kind}/${i.number}`,
    number: i.number,
    state: i.state,
    state_reason: i.state === 'closed' ? 'completed' : null,
    title: i.title,
    body: i.body,
    user: userShape(user, urls),
    labels: labelsOf(r, i.labels, urls),
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: i.comments,
    ...(i.pull ? { pull_request: pullRequestLinks(r, i, urls) } : {}),
    closed_at: i.closedAt,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_by: null,
    author_association: 'OWNER',
    reactions: noReactions(url),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
  };
}

/** The `pull_request` member of an issue that is a pull request's issue half. */
function pullRequestLinks(r: RepoRecord, i: IssueRecord, urls: Urls): Record<string, unknown> {
  const html = `${urls.html}/${r.fullName}/pull/${i.number}`;
  return {
    url: `${repoApiUrl(r, urls)}/pulls/${i.number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    merged_at: i.pull?.mergedAt,
  };
}

/** The emulator records no reactions: every count is 0. */
function noReactions(issueUrl: string): Record<string, unknown> {
  return {
    url: `${issueUrl}/reactions`,
    total_count: 0,
    '+1': 0,
    '-1': 0,
    laugh: 0,
    confused: 0,
    heart: 0,
    hooray: 0,
    eyes: 0,
    rocket: 0,
  };
}
