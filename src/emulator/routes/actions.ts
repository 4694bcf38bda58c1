/**
 * GitHub Actions routes: `GET /repos/{owner}/{repo}/actions/runs` (the workflow runs of a repository,
 * newest first, filtered by `status`, `branch`, `event`, paged like every list, answered as
 * `{ total_count, workflow_runs }`). Runs are seeded (`workflowRuns`) or added with `state.addWorkflowRun`.
 */
import { invalidRequest } from '../http.js';
import { paginate } from '../paginate.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { workflowRunShape } from '../shapes/workflow-runs.js';

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
