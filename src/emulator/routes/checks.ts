/**
 * Check runs (https://docs.github.com/rest/checks/runs) and commit statuses
 * (https://docs.github.com/rest/commits/statuses): what a pull-request review reports on the head commit.
 *
 * Check runs are written by GitHub Apps only ("OAuth apps and authenticated users can view check runs
 * and check suites, but they are not able to create them"): any other token gets 403 `You must
 * authenticate via a GitHub App.`, GitHub's answer (e.g. https://github.com/actions/github-script/issues/118).
 * Limits as GitHub answers them: at most 50 annotations per request (422 `No more than 50 items are
 * allowed; N were supplied.`, e.g. https://github.com/stoplightio/spectral-action/issues/334), appended on
 * every update; `output.summary` and `output.text` at most 65,535 BYTES (422 `summary exceeds a maximum
 * bytesize of 65535`, https://github.com/github/docs/issues/35252); a status `description` at most 140
 * characters (422 `description is too long (maximum is 140 characters)`,
 * https://github.com/dorny/test-reporter/issues/57 and https://github.com/zalando/zappr/issues/378).
 */
import { ApiError, invalidRequest } from '../http.js';
import type { CheckAnnotationRecord, CommitStatusRecord, RepoRecord } from '../model.js';
import { paginate } from '../paginate.js';
import { resolveCommitish } from '../revisions.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { checkRunShape, statusShape } from '../shapes/reviews.js';
import { ACTIONS_BOT, addCheckRun, addStatus, authorOf, type CheckRunInput, updateCheckRun } from '../state/reviews.js';
import { checkEnum, checkProps, checkType, objectBody, requireKeys } from '../validate.js';

const DOC = {
  create: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
  update: 'https://docs.github.com/rest/checks/runs#update-a-check-run',
  list: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
  status: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
};

/** Annotations one create or update may carry. */
export const MAX_ANNOTATIONS_PER_REQUEST = 50;
/** Bytes (UTF-8) of `output.summary` / `output.text`. */
export const MAX_CHECK_OUTPUT_BYTES = 65_535;
/** Characters of a commit status's `description`. */
export const MAX_STATUS_DESCRIPTION = 140;

const STATUSES = ['queued', 'in_progress', 'completed'] as const;
const UPDATE_STATUSES = ['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending'] as const;
const CONCLUSIONS = ['action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'stale', 'timed_out'];
const LEVELS = ['notice', 'warning', 'failure'];
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** Only a GitHub App's installation token may write check runs. */
function requireApp(ctx: RouteContext, doc: string): void {
  if (!ctx.token?.bot) throw new ApiError(403, 'You must authenticate via a GitHub App.', doc);
}

/** A commit the repository knows: one of its objects, or the pinned head of one of its pull requests (a fork's). */
function knownCommit(repo: RepoRecord, sha: string, doc: string): string {
  const lower = sha.toLowerCase();
  if (resolveCommitish(repo, lower) === lower || repo.pulls.some((p) => p.headSha === lower)) return lower;
  throw new ApiError(422, `No commit found for SHA: ${sha}`, doc);
}

function checkDate(value: unknown, where: string, doc: string): void {
  checkType(value, 'string', where, doc);
  if (typeof value === 'string' && !DATE_TIME.test(value)) {
    throw invalidRequest(`For '${where}', ${JSON.stringify(value)} is not a date-time.`, doc);
  }
}

/** The `output` object: types, required keys, the 50-annotation and 65,535-byte limits. */
function checkOutput(output: unknown, required: string[], doc: string): CheckRunInput['output'] {
  if (output === undefined) return undefined;
  checkType(output, 'object', 'properties/output', doc);
  const o = output as Record<string, unknown>;
  requireKeys(o, required, doc);
  checkProps(
    o,
    { title: 'string', summary: 'string', text: 'string', annotations: 'array', images: 'array' },
    doc,
    'properties/output/properties',
  );
  const annotations = (o.annotations as unknown[] | undefined) ?? [];
  if (annotations.length > MAX_ANNOTATIONS_PER_REQUEST) {
    throw invalidRequest(
      `No more than ${MAX_ANNOTATIONS_PER_REQUEST} items are allowed; ${annotations.length} were supplied.`,
      doc,
    );
  }
  for (const [i, a] of annotations.entries()) {
    checkAnnotation(a, `properties/output/properties/annotations/items/${i}`, doc);
  }
  for (const field of ['summary', 'text'] as const) {
    const text = o[field] as string | undefined;
    if (text !== undefined && new TextEncoder().encode(text).length > MAX_CHECK_OUTPUT_BYTES) {
      throw new ApiError(422, 'Validation Failed', doc, [
        {
          resource: 'CheckRun',
          code: 'custom',
          field,
          message: `${field} exceeds a maximum bytesize of ${MAX_CHECK_OUTPUT_BYTES}`,
        },
      ]);
    }
  }
  return {
    ...(o.title !== undefined ? { title: o.title as string } : {}),
    ...(o.summary !== undefined ? { summary: o.summary as string } : {}),
    ...(o.text !== undefined ? { text: o.text as string } : {}),
    annotations: annotations as CheckAnnotationRecord[],
  };
}

function checkAnnotation(a: unknown, where: string, doc: string): void {
  checkType(a, 'object', where, doc);
  const o = a as Record<string, unknown>;
  requireKeys(o, ['path', 'start_line', 'end_line', 'annotation_level', 'message'], doc);
  checkProps(
    o,
    { path: 'string', message: 'string', title: 'string', raw_details: 'string' },
    doc,
    `${where}/properties`,
  );
  for (const k of ['start_line', 'end_line', 'start_column', 'end_column'])
    checkType(o[k], 'integer', `${where}/properties/${k}`, doc);
  checkEnum(o.annotation_level, LEVELS, `${where}/properties/annotation_level`, doc);
}

/** The fields of a create or update request, checked against the request schema. */
function checkRunInput(ctx: RouteContext, doc: string, create: boolean): CheckRunInput {
  const body = objectBody(ctx.body, doc);
  if (create) requireKeys(body, ['name', 'head_sha'], doc);
  checkProps(
    body,
    { name: 'string', head_sha: 'string', details_url: 'string', external_id: 'string', actions: 'array' },
    doc,
  );
  checkEnum(body.status, create ? STATUSES : UPDATE_STATUSES, 'properties/status', doc);
  checkEnum(body.conclusion, CONCLUSIONS, 'properties/conclusion', doc);
  checkDate(body.started_at, 'properties/started_at', doc);
  checkDate(body.completed_at, 'properties/completed_at', doc);
  const output = checkOutput(body.output, create ? ['title', 'summary'] : ['summary'], doc);
  const pick = (k: string) => body[k] as string | undefined;
  return {
    name: pick('name'),
    headSha: pick('head_sha'),
    status: pick('status'),
    conclusion: pick('conclusion'),
    detailsUrl: pick('details_url'),
    externalId: pick('external_id'),
    startedAt: pick('started_at'),
    completedAt: pick('completed_at'),
    ...(output ? { output } : {}),
  };
}

function runShape(ctx: RouteContext, run: Parameters<typeof checkRunShape>[1]) {
  return checkRunShape(ctx.repo, run, ctx.urls, ctx.state.account('github'));
}

function createCheckRun(ctx: RouteContext) {
  requireApp(ctx, DOC.create);
  const input = checkRunInput(ctx, DOC.create, true);
  const headSha = knownCommit(ctx.repo, input.headSha as string, DOC.create);
  const run = addCheckRun(
    ctx.state,
    ctx.repo,
    { ...input, name: input.name as string, headSha },
    ACTIONS_BOT,
    ctx.state.now(),
  );
  return { status: 201, body: runShape(ctx, run) };
}

function updateCheckRunRoute(ctx: RouteContext) {
  requireApp(ctx, DOC.update);
  const run = ctx.repo.checkRuns.find((r) => String(r.id) === ctx.params.check_run_id);
  if (!run) throw new ApiError(404, 'Not Found', DOC.update);
  updateCheckRun(run, checkRunInput(ctx, DOC.update, false), ctx.state.now());
  return { status: 200, body: runShape(ctx, run) };
}

function listCheckRuns(ctx: RouteContext) {
  const ref = ctx.params.ref as string;
  const sha = /^[0-9a-f]{40}$/i.test(ref) ? knownCommit(ctx.repo, ref, DOC.list) : resolveCommitish(ctx.repo, ref);
  if (!sha) throw new ApiError(422, `No commit found for SHA: ${ref}`, DOC.list);
  checkEnum(ctx.query.get('filter') ?? undefined, ['latest', 'all'], 'filter', DOC.list);
  let runs = ctx.repo.checkRuns.filter((r) => r.headSha === sha);
  const name = ctx.query.get('check_name');
  if (name !== null) runs = runs.filter((r) => r.name === name);
  const status = ctx.query.get('status');
  if (status !== null) runs = runs.filter((r) => r.status === status);
  // `filter=latest` (the default): the newest run of each name, newest first, as GitHub lists them.
  runs = [...runs].reverse();
  if ((ctx.query.get('filter') ?? 'latest') === 'latest')
    runs = runs.filter((r, i) => runs.findIndex((x) => x.name === r.name) === i);
  const page = paginate(ctx, runs, DOC.list);
  return {
    status: 200,
    body: { total_count: runs.length, check_runs: page.items.map((r) => runShape(ctx, r)) },
    headers: page.headers,
  };
}

function createStatus(ctx: RouteContext) {
  const doc = DOC.status;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['state'], doc);
  checkProps(body, { target_url: 'string?', description: 'string?', context: 'string' }, doc);
  checkEnum(body.state, ['error', 'failure', 'pending', 'success'], 'properties/state', doc);
  const description = body.description as string | null | undefined;
  if (typeof description === 'string' && [...description].length > MAX_STATUS_DESCRIPTION) {
    throw new ApiError(422, 'Validation Failed', doc, [
      {
        resource: 'Status',
        code: 'custom',
        field: 'description',
        message: `description is too long (maximum is ${MAX_STATUS_DESCRIPTION} characters)`,
      },
    ]);
  }
  const sha = knownCommit(ctx.repo, ctx.params.sha as string, doc);
  const creator = authorOf(ctx.state, ctx.token as NonNullable<typeof ctx.token>);
  const rec = addStatus(
    ctx.state,
    ctx.repo,
    {
      sha,
      state: body.state as CommitStatusRecord['state'],
      context: (body.context as string | undefined) ?? 'default',
      description,
      targetUrl: body.target_url as string | null | undefined,
    },
    creator.login,
    ctx.state.now(),
  );
  return { status: 201, body: statusShape(ctx.repo, rec, ctx.urls, creator) };
}

export const checkRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/repos/{owner}/{repo}/check-runs',
    operation: 'checks/create',
    doc: DOC.create,
    write: true,
    permissions: ['checks'],
    handler: createCheckRun,
  },
  {
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
    operation: 'checks/update',
    doc: DOC.update,
    write: true,
    permissions: ['checks'],
    handler: updateCheckRunRoute,
  },
  {
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{ref+}/check-runs',
    operation: 'checks/list-for-ref',
    doc: DOC.list,
    handler: listCheckRuns,
  },
  {
    method: 'POST',
    path: '/repos/{owner}/{repo}/statuses/{sha}',
    operation: 'repos/create-commit-status',
    doc: DOC.status,
    write: true,
    permissions: ['statuses'],
    handler: createStatus,
  },
];
