/**
 * JSON shapes of GitHub resources, field for field as in GitHub's OpenAPI description
 * (@octokit/openapi, api.github.com): simple-user, full-repository, git-ref, git-commit, git-tree, commit, ...
 */
import { toBase64, utf8 } from '../core/bytes.js';
import type { ObjectDb } from '../core/git/object-db.js';
import { type Signature, signatureDate } from '../core/git/objects.js';
import type { Account, IssueRecord, LabelRecord, PullRecord, ReleaseRecord, RepoRecord, Urls } from './model.js';

export type { Urls } from './model.js';

export function nodeId(kind: string, id: number | string): string {
  return toBase64(utf8(`0${kind.length}:${kind}${id}`));
}

export function userShape(u: Account, urls: Urls): Record<string, unknown> {
  const url = `${urls.api}/users/${u.login}`;
  return {
    login: u.login,
    id: u.id,
    node_id: nodeId(u.type, u.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
    gravatar_id: '',
    url,
    html_url: `${urls.html}/${u.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: u.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** The `repository` fields shared by repos/get, pulls head/base repos and list endpoints. */
export function repoShape(
  r: RepoRecord,
  urls: Urls,
  permissions?: { admin: boolean; push: boolean; pull: boolean },
): Record<string, unknown> {
  const url = `${urls.api}/repos/${r.fullName}`;
  const openIssues = r.issues.filter((i) => i.state === 'open').length;
  return {
    id: r.id,
    node_id: nodeId('Repository', r.id),
    name: r.name,
    full_name: r.fullName,
    private: r.private,
    owner: userShape(r.owner, urls),
    html_url: `${urls.html}/${r.fullName}`,
    description: r.description,
    fork: r.fork,
    url,
    forks_url: `${url}/forks`,
    keys_url: `${url}/keys{/key_id}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    teams_url: `${url}/teams`,
    hooks_url: `${url}/hooks`,
    issue_events_url: `${url}/issues/events{/number}`,
    events_url: `${url}/events`,
    assignees_url: `${url}/assignees{/user}`,
    branches_url: `${url}/branches{/branch}`,
    tags_url: `${url}/tags`,
    blobs_url: `${url}/git/blobs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    trees_url: `${url}/git/trees{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    languages_url: `${url}/languages`,
    stargazers_url: `${url}/stargazers`,
    contributors_url: `${url}/contributors`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    commits_url: `${url}/commits{/sha}`,
    git_commits_url: `${url}/git/commits{/sha}`,
    comments_url: `${url}/comments{/number}`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    contents_url: `${url}/contents/{+path}`,
    compare_url: `${url}/compare/{base}...{head}`,
    merges_url: `${url}/merges`,
    archive_url: `${url}/{archive_format}{/ref}`,
    downloads_url: `${url}/downloads`,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    labels_url: `${url}/labels{/name}`,
    releases_url: `${url}/releases{/id}`,
    deployments_url: `${url}/deployments`,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    pushed_at: r.pushedAt,
    git_url: `git://${new URL(urls.html).host}/${r.fullName}.git`,
    ssh_url: `git@${new URL(urls.html).host}:${r.fullName}.git`,
    clone_url: `${urls.html}/${r.fullName}.git`,
    svn_url: `${urls.html}/${r.fullName}`,
    homepage: null,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: null,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    mirror_url: null,
    archived: r.archived,
    disabled: false,
    open_issues_count: openIssues,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: r.topics,
    visibility: r.private ? 'private' : 'public',
    forks: 0,
    open_issues: openIssues,
    watchers: 0,
    default_branch: r.defaultBranch,
    ...(permissions
      ? {
          permissions: {
            admin: permissions.admin,
            maintain: permissions.admin,
            push: permissions.push,
            triage: permissions.push,
            pull: permissions.pull,
          },
        }
      : {}),
  };
}

/** `GET /repos/{owner}/{repo}` (full-repository): the shared fields plus counts and the organization. */
export function fullRepoShape(
  r: RepoRecord,
  urls: Urls,
  permissions?: { admin: boolean; push: boolean; pull: boolean },
): Record<string, unknown> {
  return {
    ...repoShape(r, urls, permissions),
    // Merge settings are shown to admins only, as on GitHub.
    ...(permissions?.admin
      ? {
          temp_clone_token: '',
          allow_squash_merge: true,
          allow_merge_commit: true,
          allow_rebase_merge: true,
          allow_auto_merge: false,
          delete_branch_on_merge: false,
          allow_update_branch: false,
          use_squash_pr_title_as_default: false,
          squash_merge_commit_message: 'COMMIT_MESSAGES',
          squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
          merge_commit_message: 'PR_TITLE',
          merge_commit_title: 'MERGE_MESSAGE',
        }
      : {}),
    ...(r.owner.type === 'Organization' ? { organization: userShape(r.owner, urls) } : {}),
    network_count: 0,
    subscribers_count: 0,
  };
}

export function refShape(r: RepoRecord, ref: string, sha: string, db: ObjectDb, urls: Urls): Record<string, unknown> {
  const repoUrl = `${urls.api}/repos/${r.fullName}`;
  const type = db.typeOf(sha) ?? 'commit';
  return {
    ref,
    node_id: nodeId('Ref', `${r.id}:${ref}`),
    url: `${repoUrl}/git/refs/${ref.replace(/^refs\//, '')}`,
    object: { sha, type, url: `${repoUrl}/git/${type}s/${sha}` },
  };
}

function sigShape(s: Signature): { name: string; email: string; date: string } {
  return { name: s.name, email: s.email, date: signatureDate(s) };
}

const UNSIGNED = { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };

/** git-commit (`GET/POST /git/commits`). */
export function gitCommitShape(r: RepoRecord, sha: string, urls: Urls): Record<string, unknown> {
  const c = r.db.getCommit(sha);
  const repoUrl = `${urls.api}/repos/${r.fullName}`;
  return {
    sha,
    node_id: nodeId('Commit', `${r.id}:${sha}`),
    url: `${repoUrl}/git/commits/${sha}`,
    html_url: `${urls.html}/${r.fullName}/commit/${sha}`,
    author: sigShape(c.author),
    committer: sigShape(c.committer),
    tree: { sha: c.tree, url: `${repoUrl}/git/trees/${c.tree}` },
    message: c.message,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${repoUrl}/git/commits/${p}`,
      html_url: `${urls.html}/${r.fullName}/commit/${p}`,
    })),
    verification: verificationOf(r, sha, c),
  };
}

/** `verification` of a commit: unsigned, or (for commits GitHub signed on creation) verified. */
function verificationOf(r: RepoRecord, sha: string, c: { committer: Signature }): Record<string, unknown> {
  if (!r.signedCommits?.has(sha)) return UNSIGNED;
  return {
    verified: true,
    reason: 'valid',
    // Not a real signature: the emulator does not sign (see RepoRecord.signedCommits).
    signature:
      '-----BEGIN PGP SIGNATURE-----\n\nemulator: signed by GitHub (not a real signature)\n-----END PGP SIGNATURE-----\n',
    payload: new TextDecoder().decode(r.db.get(sha)?.body ?? new Uint8Array()),
    verified_at: signatureDate(c.committer),
  };
}

/** commit (`GET /repos/{owner}/{repo}/commits` items). */
export function commitShape(r: RepoRecord, sha: string, urls: Urls): Record<string, unknown> {
  const c = r.db.getCommit(sha);
  const repoUrl = `${urls.api}/repos/${r.fullName}`;
  return {
    sha,
    node_id: nodeId('Commit', `${r.id}:${sha}`),
    commit: {
      author: sigShape(c.author),
      committer: sigShape(c.committer),
      message: c.message.replace(/\n$/, ''),
      tree: { sha: c.tree, url: `${repoUrl}/git/trees/${c.tree}` },
      url: `${repoUrl}/git/commits/${sha}`,
      comment_count: 0,
      verification: verificationOf(r, sha, c),
    },
    url: `${repoUrl}/commits/${sha}`,
    html_url: `${urls.html}/${r.fullName}/commit/${sha}`,
    comments_url: `${repoUrl}/commits/${sha}/comments`,
    author: null,
    committer: null,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${repoUrl}/commits/${p}`,
      html_url: `${urls.html}/${r.fullName}/commit/${p}`,
    })),
  };
}

/** One entry of git-tree. */
export function treeEntryShape(
  r: RepoRecord,
  e: { path: string; mode: string; type: string; sha: string },
  urls: Urls,
): Record<string, unknown> {
  const repoUrl = `${urls.api}/repos/${r.fullName}`;
  if (e.type === 'blob') {
    const size = r.db.get(e.sha)?.body.length ?? 0;
    return { path: e.path, mode: e.mode, type: e.type, sha: e.sha, size, url: `${repoUrl}/git/blobs/${e.sha}` };
  }
  if (e.type === 'tree')
    return { path: e.path, mode: e.mode, type: e.type, sha: e.sha, url: `${repoUrl}/git/trees/${e.sha}` };
  return { path: e.path, mode: e.mode, type: e.type, sha: e.sha };
}

function labelShape(r: RepoRecord, l: LabelRecord, urls: Urls): Record<string, unknown> {
  return {
    id: l.id,
    node_id: nodeId('Label', l.id),
    url: `${urls.api}/repos/${r.fullName}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
    default: false,
    description: l.description,
  };
}

export function createdLabelShape(r: RepoRecord, l: LabelRecord, urls: Urls): Record<string, unknown> {
  return labelShape(r, l, urls);
}

function labelsOf(r: RepoRecord, names: string[], urls: Urls): Record<string, unknown>[] {
  return names.flatMap((n) => {
    const l = r.labels.find((x) => x.name.toLowerCase() === n.toLowerCase());
    return l ? [labelShape(r, l, urls)] : [];
  });
}

/** issue (`GET /repos/{owner}/{repo}/issues` items; pull requests carry `pull_request`). */
export function issueShape(r: RepoRecord, i: IssueRecord, urls: Urls, user: Account): Record<string, unknown> {
  const repoUrl = `${urls.api}/repos/${r.fullName}`;
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
    ...(i.pull
      ? {
          pull_request: {
            url: `${repoUrl}/pulls/${i.number}`,
            html_url: `${urls.html}/${r.fullName}/pull/${i.number}`,
            diff_url: `${urls.html}/${r.fullName}/pull/${i.number}.diff`,
            patch_url: `${urls.html}/${r.fullName}/pull/${i.number}.patch`,
            merged_at: i.pull.mergedAt,
          },
        }
      : {}),
    closed_at: i.closedAt,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_by: null,
    author_association: 'OWNER',
    reactions: {
      url: `${url}/reactions`,
      total_count: 0,
      '+1': 0,
      '-1': 0,
      laugh: 0,
      confused: 0,
      heart: 0,
      hooray: 0,
      eyes: 0,
      rocket: 0,
    },
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
  };
}

/** pull-request-simple (`GET /repos/{owner}/{repo}/pulls` items). */
export function pullShape(r: RepoRecord, p: PullRecord, urls: Urls, user: Account): Record<string, unknown> {
  const i = p.issue;
  const repoUrl = `${urls.api}/repos/${r.fullName}`;
  const url = `${repoUrl}/pulls/${p.number}`;
  const html = `${urls.html}/${r.fullName}/pull/${p.number}`;
  const headSha = r.db.readRef(`refs/heads/${p.head}`) ?? '0'.repeat(40);
  const baseSha = r.db.readRef(`refs/heads/${p.base}`) ?? '0'.repeat(40);
  const side = (ref: string, sha: string) => ({
    label: `${r.owner.login}:${ref}`,
    ref,
    sha,
    user: userShape(r.owner, urls),
    repo: repoShape(r, urls),
  });
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
    head: side(p.head, headSha),
    base: side(p.base, baseSha),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: `${repoUrl}/issues/${p.number}` },
      comments: { href: `${repoUrl}/issues/${p.number}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${repoUrl}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${repoUrl}/statuses/${headSha}` },
    },
    author_association: 'OWNER',
    auto_merge: null,
    draft: p.draft,
  };
}

/** release (`GET /repos/{owner}/{repo}/releases` items). */
export function releaseShape(r: RepoRecord, rel: ReleaseRecord, urls: Urls, author: Account): Record<string, unknown> {
  const url = `${urls.api}/repos/${r.fullName}/releases/${rel.id}`;
  return {
    url,
    html_url: `${urls.html}/${r.fullName}/releases/tag/${encodeURIComponent(rel.tagName)}`,
    assets_url: `${url}/assets`,
    upload_url: `${urls.api}/repos/${r.fullName}/releases/${rel.id}/assets{?name,label}`,
    tarball_url: `${urls.api}/repos/${r.fullName}/tarball/${encodeURIComponent(rel.tagName)}`,
    zipball_url: `${urls.api}/repos/${r.fullName}/zipball/${encodeURIComponent(rel.tagName)}`,
    id: rel.id,
    node_id: nodeId('Release', rel.id),
    tag_name: rel.tagName,
    target_commitish: rel.targetCommitish,
    name: rel.name,
    body: rel.body,
    draft: rel.draft,
    prerelease: rel.prerelease,
    immutable: false,
    created_at: rel.createdAt,
    published_at: rel.publishedAt,
    author: userShape(author, urls),
    assets: [],
  };
}
