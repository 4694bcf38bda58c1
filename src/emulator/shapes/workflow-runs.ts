/** workflow-run (`GET /repos/{owner}/{repo}/actions/runs` items). */
import type { CommitFields } from '../../core/git/objects.js';
import { isoSeconds } from '../dates.js';
import type { RepoRecord, Urls, WorkflowRunRecord } from '../model.js';
import { nodeId, repoApiUrl } from './common.js';
import { repoShape } from './repositories.js';
import { actorShape } from './users.js';

/**
 * A workflow-run object as the REST API returns it; the repository owner plays the actor, and the check
 * suite's id is the run's plus one.
 *
 * @example
 * workflowRunShape(repo, run, urls).display_title; // the head commit's subject
 */
export function workflowRunShape(repo: RepoRecord, run: WorkflowRunRecord, urls: Urls): Record<string, unknown> {
  const repoUrl = repoApiUrl(repo, urls);
  const base = `${repoUrl}/actions/runs/${run.id}`;
  const commit = repo.db.has(run.headSha) ? repo.db.getCommit(run.headSha) : undefined;
  const actor = actorShape(repo.owner, urls);
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
    check_suite_url: `${repoUrl}/check-suites/${run.id + 1}`,
    artifacts_url: `${base}/artifacts`,
    cancel_url: `${base}/cancel`,
    rerun_url: `${base}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${repoUrl}/actions/workflows/${run.workflowId}`,
    head_commit: commit ? headCommit(run.headSha, commit) : null,
    repository,
    head_repository: repository,
    head_repository_id: repo.id,
  };
}

function headCommit(sha: string, commit: CommitFields): Record<string, unknown> {
  return {
    id: sha,
    tree_id: commit.tree,
    message: commit.message,
    timestamp: isoSeconds(commit.committer.timestamp * 1000),
    author: { name: commit.author.name, email: commit.author.email },
    committer: { name: commit.committer.name, email: commit.committer.email },
  };
}
