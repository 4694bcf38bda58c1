/** The repository resource: the fields every listing shares (repository) and `GET /repos/{o}/{r}` (full-repository). */
import type { RepoPermissions, RepoRecord, Urls } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';
import { userShape } from './users.js';

/** `<name>_url` fields of a repository: suffixes of its API URL, in GitHub's order. */
const URL_TEMPLATES: ReadonlyArray<readonly [string, string]> = [
  ['forks_url', '/forks'],
  ['keys_url', '/keys{/key_id}'],
  ['collaborators_url', '/collaborators{/collaborator}'],
  ['teams_url', '/teams'],
  ['hooks_url', '/hooks'],
  ['issue_events_url', '/issues/events{/number}'],
  ['events_url', '/events'],
  ['assignees_url', '/assignees{/user}'],
  ['branches_url', '/branches{/branch}'],
  ['tags_url', '/tags'],
  ['blobs_url', '/git/blobs{/sha}'],
  ['git_tags_url', '/git/tags{/sha}'],
  ['git_refs_url', '/git/refs{/sha}'],
  ['trees_url', '/git/trees{/sha}'],
  ['statuses_url', '/statuses/{sha}'],
  ['languages_url', '/languages'],
  ['stargazers_url', '/stargazers'],
  ['contributors_url', '/contributors'],
  ['subscribers_url', '/subscribers'],
  ['subscription_url', '/subscription'],
  ['commits_url', '/commits{/sha}'],
  ['git_commits_url', '/git/commits{/sha}'],
  ['comments_url', '/comments{/number}'],
  ['issue_comment_url', '/issues/comments{/number}'],
  ['contents_url', '/contents/{+path}'],
  ['compare_url', '/compare/{base}...{head}'],
  ['merges_url', '/merges'],
  ['archive_url', '/{archive_format}{/ref}'],
  ['downloads_url', '/downloads'],
  ['issues_url', '/issues{/number}'],
  ['pulls_url', '/pulls{/number}'],
  ['milestones_url', '/milestones{/number}'],
  ['notifications_url', '/notifications{?since,all,participating}'],
  ['labels_url', '/labels{/name}'],
  ['releases_url', '/releases{/id}'],
  ['deployments_url', '/deployments'],
];

/**
 * The `repository` fields shared by repos/get, pulls head/base repos and list endpoints.
 *
 * @example
 * repoShape(repo, urls, { admin: true, push: true, pull: true }).permissions; // { admin: true, maintain: true, … }
 */
export function repoShape(r: RepoRecord, urls: Urls, permissions?: RepoPermissions): Record<string, unknown> {
  const url = repoApiUrl(r, urls);
  return {
    ...identityFields(r, urls),
    url,
    ...Object.fromEntries(URL_TEMPLATES.map(([name, suffix]) => [name, `${url}${suffix}`])),
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    pushed_at: r.pushedAt,
    ...cloneUrls(r, urls),
    ...countsAndSettings(r),
    ...(permissions ? { permissions: permissionFlags(permissions) } : {}),
  };
}

function identityFields(r: RepoRecord, urls: Urls): Record<string, unknown> {
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
  };
}

function cloneUrls(r: RepoRecord, urls: Urls): Record<string, string> {
  const host = new URL(urls.html).host;
  return {
    git_url: `git://${host}/${r.fullName}.git`,
    ssh_url: `git@${host}:${r.fullName}.git`,
    clone_url: `${urls.html}/${r.fullName}.git`,
    svn_url: `${urls.html}/${r.fullName}`,
  };
}

/** Counters the emulator does not track (stars, forks, watchers are 0) and the repository's settings. */
function countsAndSettings(r: RepoRecord): Record<string, unknown> {
  const openIssues = r.issues.filter((i) => i.state === 'open').length;
  return {
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
  };
}

/** GitHub's five roles from the emulator's three rights: maintain follows admin, triage follows push. */
function permissionFlags(p: RepoPermissions): Record<string, boolean> {
  return { admin: p.admin, maintain: p.admin, push: p.push, triage: p.push, pull: p.pull };
}

/** Merge settings, shown to admins only as on GitHub. */
const ADMIN_MERGE_SETTINGS = {
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
};

/**
 * `GET /repos/{owner}/{repo}` (full-repository): the shared fields plus counts and the organization.
 *
 * @example
 * fullRepoShape(repo, urls).network_count; // 0
 */
export function fullRepoShape(r: RepoRecord, urls: Urls, permissions?: RepoPermissions): Record<string, unknown> {
  return {
    ...repoShape(r, urls, permissions),
    ...(permissions?.admin ? ADMIN_MERGE_SETTINGS : {}),
    ...(r.owner.type === 'Organization' ? { organization: userShape(r.owner, urls) } : {}),
    network_count: 0,
    subscribers_count: 0,
  };
}
