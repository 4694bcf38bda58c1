/**
 * GitHub Actions routes: `GET /repos/{owner}/{repo}/actions/runs` (the workflow runs of a repository,
 * newest first, filtered by `status`, `branch`, `event`, paged like every list, answered as
 * `{ total_count, workflow_runs }`). Runs are seeded (`workflowRuns`) or added with `state.addWorkflowRun`.
 */
import { invalidRequest } from '../http.js';
import type { RepoRecord, WorkflowRunRecord } from '../model.js';
import { paginate } from '../paginate.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { nodeId, repoShape, type Urls } from '../shapes.js';

const DOC = 'https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository';

const STATUSES = [
  'completed',
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'skipped',
  'stale',
  'success',
  'timed_out',
  'in_progress',
  'queued',
  'requested',
  'waiting',
  'pending',
];

function iso(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A workflow-run object as the REST API returns it. */
export function workflowRunShape(repo: RepoRecord, run: WorkflowRunRecord, urls: Urls): Record<string, unknown> {
  const base = `${urls.api}/repos/${repo.fullName}/actions/runs/${run.id}`;
  const commit = repo.db.has(run.headSha) ? repo.db.getCommit(run.headSha) : undefined;
  const actor = {
    login: repo.owner.login,
    id: repo.owner.id,
    node_id: nodeId(repo.owner.type, repo.owner.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${repo.owner.id}?v=4`,
    gravatar_id: '',
    url: `${urls.api}/users/${repo.owner.login}`,
    html_url: `${urls.html}/${repo.owner.login}`,
    followers_url: `${urls.api}/users/${repo.owner.login}/followers`,
    following_url: `${urls.api}/users/${repo.owner.login}/following{/other_user}`,
    gists_url: `${urls.api}/users/${repo.owner.login}/gists{/gist_id}`,
    starred_url: `${urls.api}/users/${repo.owner.login}/starred{/owner}{/repo}`,
    subscriptions_url: `${urls.api}/users/${repo.owner.login}/subscriptions`,
    organizations_url: `${urls.api}/users/${repo.owner.login}/orgs`,
    repos_url: `${urls.api}/users/${repo.owner.login}/repos`,
    events_url: `${urls.api}/users/${repo.owner.login}/events{/privacy}`,
    received_events_url: `${urls.api}/users/${repo.owner.login}/received_events`,
    type: repo.owner.type,
    site_admin: false,
  };
  const repository = repoShape(repo, urls);
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId('WorkflowRun', run.id),
    check_suite_id: run.id + 1,
    check_suite_node_id: nodeId('CheckSuite', run.id + 1),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: commit?.message.split('\n')[0] ?? run.name,
    run_number: run.runNumber,
    run_attempt: 1,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    url: base,
    html_url: `${urls.html}/${repo.fullName}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    actor,
    triggering_actor: actor,
    run_started_at: run.createdAt,
    jobs_url: `${base}/jobs`,
    logs_url: `${base}/logs`,
    check_suite_url: `${urls.api}/repos/${repo.fullName}/check-suites/${run.id + 1}`,
    artifacts_url: `${base}/artifacts`,
    cancel_url: `${base}/cancel`,
    rerun_url: `${base}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${urls.api}/repos/${repo.fullName}/actions/workflows/${run.workflowId}`,
    head_commit: commit
      ? {
          id: run.headSha,
          tree_id: commit.tree,
          message: commit.message,
          timestamp: iso(commit.committer.timestamp),
          author: { name: commit.author.name, email: commit.author.email },
          committer: { name: commit.committer.name, email: commit.committer.email },
        }
      : null,
    repository,
    head_repository: repository,
    head_repository_id: repo.id,
  };
}

function listRuns(ctx: RouteContext) {
  const status = ctx.query.get('status');
  if (status !== null && !STATUSES.includes(status)) {
    throw invalidRequest(`For 'status', ${JSON.stringify(status)} is not a valid status.`, DOC);
  }
  const branch = ctx.query.get('branch');
  const event = ctx.query.get('event');
  const runs = ctx.repo.workflowRuns
    .filter(
      (r) =>
        (status === null || r.status === status || r.conclusion === status) &&
        (branch === null || r.headBranch === branch) &&
        (event === null || r.event === event),
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id));
  const page = paginate(ctx, runs, DOC);
  return {
    status: 200,
    body: { total_count: runs.length, workflow_runs: page.items.map((r) => workflowRunShape(ctx.repo, r, ctx.urls)) },
    headers: page.headers,
  };
}

export const actionsRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/runs',
    operation: 'actions/list-workflow-runs-for-repo',
    doc: DOC,
    handler: listRuns,
  },
];
