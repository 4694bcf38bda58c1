/**
 * The check run on the pull request's head commit, or — for a personal access token, which cannot
 * write check runs ("Write permission for the REST API to interact with checks is only available to
 * GitHub Apps", https://docs.github.com/rest/checks/runs) — a commit status with the same name
 * (https://docs.github.com/rest/commits/statuses#create-a-commit-status).
 *
 * Annotations go at most 50 per request ("The Checks API limits the number of annotations to a maximum
 * of 50 per API request … annotations are appended", https://docs.github.com/rest/checks/runs#update-a-check-run):
 * the first 50 with the create (or update), the rest as PATCHes of 50.
 */
import type { CheckRunOutput } from '../index.js';
import type { PublishOutcome, ReviewAnnotation } from '../types.js';
import { isDenial, type ReviewApi } from './api.js';

/** Annotations one create or update may carry. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** Characters of a commit status's description (GitHub: 140). */
export const STATUS_DESCRIPTION_MAX = 140;

interface CheckRunItem {
  id: number;
  html_url?: string | null;
  output?: { annotations_count?: number };
}

/**
 * Write the check run (installation token) or the commit status (personal token); a refusal is
 * `denied` with the permission added to `missing`, never thrown.
 *
 * @example
 * await publishCheck(api, { headSha, tokenKind: 'installation' }, renderCheckRun(review), missing);
 */
export async function publishCheck(
  api: ReviewApi,
  target: { headSha: string; tokenKind: 'installation' | 'personal' },
  check: CheckRunOutput,
  missing: Set<string>,
): Promise<PublishOutcome['check']> {
  const permission = target.tokenKind === 'personal' ? 'statuses: write' : 'checks: write';
  try {
    return target.tokenKind === 'personal'
      ? await writeStatus(api, target.headSha, check)
      : await writeCheckRun(api, target.headSha, check);
  } catch (e) {
    if (!isDenial(e)) throw e;
    missing.add(permission);
    return { action: 'denied' };
  }
}

async function writeCheckRun(api: ReviewApi, headSha: string, check: CheckRunOutput): Promise<PublishOutcome['check']> {
  const [first = [], ...rest] = batches(check.annotations);
  const existing = await latestRun(api, headSha, check.name);
  const output = (annotations: ReviewAnnotation[]) => ({ title: check.title, summary: check.summary, annotations });
  const fields = { name: check.name, status: 'completed', conclusion: check.conclusion, output: output(first) };
  // Annotations are appended on every update: a run that already has some (an earlier run on this commit)
  // would show the old ones beside the new. Then a new run is created; GitHub shows the latest of a name.
  const reuse = existing && (existing.output?.annotations_count ?? 0) === 0;
  const { data } = reuse
    ? await api.send(
        'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
        { check_run_id: existing.id, ...fields },
        'update the check run',
      )
    : await api.send('POST /repos/{owner}/{repo}/check-runs', { head_sha: headSha, ...fields }, 'create the check run');
  const run = data as CheckRunItem;
  for (const batch of rest) {
    await api.send(
      'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
      { check_run_id: run.id, output: output(batch) },
      'add check-run annotations',
    );
  }
  return { action: reuse ? 'updated' : 'created', id: run.id, ...(run.html_url ? { url: run.html_url } : {}) };
}

/** The newest check run of this name on the commit, if any (one request). */
async function latestRun(api: ReviewApi, headSha: string, name: string): Promise<CheckRunItem | undefined> {
  const { data } = await api.send(
    'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
    { ref: headSha, check_name: name, filter: 'latest', per_page: 1 },
    'find the check run',
  );
  return (data as { check_runs?: CheckRunItem[] })?.check_runs?.[0];
}

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ANNOTATIONS_PER_REQUEST) out.push(items.slice(i, i + ANNOTATIONS_PER_REQUEST));
  return out;
}

/** A commit status carrying the conclusion (`neutral` is not a status state: it is reported as success). */
async function writeStatus(api: ReviewApi, headSha: string, check: CheckRunOutput): Promise<PublishOutcome['check']> {
  const chars = [...check.title];
  const description =
    chars.length <= STATUS_DESCRIPTION_MAX ? check.title : `${chars.slice(0, STATUS_DESCRIPTION_MAX - 1).join('')}…`;
  const { data } = await api.send(
    'POST /repos/{owner}/{repo}/statuses/{sha}',
    { sha: headSha, state: check.conclusion === 'failure' ? 'failure' : 'success', context: check.name, description },
    'write the commit status',
  );
  const status = data as { id: number; url?: string };
  return { action: 'status', id: status.id, ...(status.url ? { url: status.url } : {}) };
}
