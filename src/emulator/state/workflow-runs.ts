/** GitHub Actions workflow runs, numbered per workflow file. */
import { DEFAULT_DATE } from '../dates.js';
import type { RepoRecord, WorkflowRunRecord } from '../model.js';
import { fullRefName } from '../revisions.js';
import type { Registry } from './registry.js';

export interface WorkflowRunInput {
  name?: string;
  path?: string;
  event?: string;
  status?: WorkflowRunRecord['status'];
  conclusion?: WorkflowRunRecord['conclusion'];
  headBranch?: string;
  createdAt?: string;
  updatedAt?: string;
}

/**
 * Record a run of the head branch's tip (status `completed`/`success` unless given). `fullName` is the
 * repository name as the caller wrote it, for the error message.
 *
 * @example
 * addWorkflowRun(registry, repo, 'octo/data', { conclusion: 'failure' });
 */
export function addWorkflowRun(
  registry: Registry,
  repo: RepoRecord,
  fullName: string,
  run: WorkflowRunInput,
): WorkflowRunRecord {
  const headBranch = run.headBranch ?? repo.defaultBranch;
  const headSha = repo.db.readRef(fullRefName(headBranch));
  if (!headSha) throw new Error(`addWorkflowRun: branch ${headBranch} of ${fullName} does not exist`);
  const path = run.path ?? '.github/workflows/ci.yml';
  const sameWorkflow = repo.workflowRuns.filter((r) => r.path === path);
  const createdAt = run.createdAt ?? DEFAULT_DATE;
  const status = run.status ?? 'completed';
  const rec: WorkflowRunRecord = {
    id: registry.newId(),
    name: run.name ?? 'CI',
    path,
    workflowId: sameWorkflow[0]?.workflowId ?? registry.newId(),
    runNumber: sameWorkflow.length + 1,
    event: run.event ?? 'push',
    status,
    conclusion: run.conclusion !== undefined ? run.conclusion : status === 'completed' ? 'success' : null,
    headBranch,
    headSha,
    createdAt,
    updatedAt: run.updatedAt ?? createdAt,
  };
  repo.workflowRuns.push(rec);
  return rec;
}
