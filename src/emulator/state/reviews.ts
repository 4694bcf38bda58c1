/**
 * What a pull-request review leaves on GitHub (issue 39): comments on an issue or pull request, check
 * runs and commit statuses. Records only: the routes (../routes/comments.ts, ../routes/checks.ts) check
 * the requests, these functions store what they accepted.
 */
import { isoSeconds } from '../dates.js';
import type {
  Account,
  CheckAnnotationRecord,
  CheckRunRecord,
  CommitStatusRecord,
  IssueCommentRecord,
  RepoRecord,
  TokenRecord,
} from '../model.js';
import type { Registry } from './registry.js';

/** The login GitHub shows for what `GITHUB_TOKEN` (an installation token of GitHub Actions) writes. */
export const ACTIONS_BOT = 'github-actions[bot]';

/**
 * The account a token writes as: an installation token acts as its app's bot (`github-actions[bot]`,
 * type `Bot`), any other token as its user.
 *
 * @example
 * authorOf(registry, ghsToken).login; // 'github-actions[bot]'
 */
export function authorOf(registry: Registry, token: TokenRecord): Account {
  return token.bot ? registry.account(ACTIONS_BOT, 'Bot') : token.user;
}

/**
 * A new comment on issue (or pull request) `issueNumber`, by `user`, at `now`; bumps the issue's count.
 *
 * @example
 * addComment(registry, repo, { issueNumber: 7, body: 'Looks good', user: 'alice' }, Date.now());
 */
export function addComment(
  registry: Registry,
  repo: RepoRecord,
  c: { issueNumber: number; body: string; user: string; createdAt?: string },
  now: number,
): IssueCommentRecord {
  const createdAt = c.createdAt ?? isoSeconds(now);
  const rec = {
    id: registry.newId(),
    issueNumber: c.issueNumber,
    body: c.body,
    user: c.user,
    createdAt,
    updatedAt: createdAt,
  };
  repo.comments.push(rec);
  const issue = repo.issues.find((i) => i.number === c.issueNumber);
  if (issue) issue.comments++;
  return rec;
}

/** What a create or update of a check run carries (the request's fields, already checked). */
export interface CheckRunInput {
  name?: string;
  headSha?: string;
  status?: string;
  conclusion?: string;
  detailsUrl?: string;
  externalId?: string;
  startedAt?: string;
  completedAt?: string;
  output?: { title?: string; summary?: string; text?: string; annotations?: CheckAnnotationRecord[] };
}

/**
 * A new check run. A conclusion completes it (GitHub: "Providing conclusion will automatically set the
 * status parameter to completed").
 *
 * @example
 * addCheckRun(registry, repo, { name: 'docdb: documents', headSha, conclusion: 'success' }, 'github-actions[bot]', now);
 */
export function addCheckRun(
  registry: Registry,
  repo: RepoRecord,
  input: CheckRunInput & { name: string; headSha: string },
  app: string,
  now: number,
): CheckRunRecord {
  const rec: CheckRunRecord = {
    id: registry.newId(),
    name: input.name,
    headSha: input.headSha,
    status: 'queued',
    conclusion: null,
    detailsUrl: null,
    externalId: null,
    startedAt: input.startedAt ?? isoSeconds(now),
    completedAt: null,
    output: { title: null, summary: null, text: null },
    annotations: [],
    app,
  };
  updateCheckRun(rec, input, now);
  repo.checkRuns.push(rec);
  return rec;
}

/**
 * Apply an update to a check run: given fields replace, annotations are APPENDED (GitHub: "Each time
 * you update the check run, annotations are appended to the list of annotations that already exist").
 *
 * @example
 * updateCheckRun(run, { output: { summary: 'ok', annotations: more } }, now);
 */
export function updateCheckRun(rec: CheckRunRecord, input: CheckRunInput, now: number): void {
  if (input.name !== undefined) rec.name = input.name;
  if (input.detailsUrl !== undefined) rec.detailsUrl = input.detailsUrl;
  if (input.externalId !== undefined) rec.externalId = input.externalId;
  if (input.startedAt !== undefined) rec.startedAt = input.startedAt;
  if (input.status !== undefined) rec.status = input.status;
  if (input.conclusion !== undefined) {
    rec.conclusion = input.conclusion;
    rec.status = 'completed';
  }
  if (rec.status === 'completed') rec.completedAt = input.completedAt ?? rec.completedAt ?? isoSeconds(now);
  const out = input.output;
  if (out) {
    if (out.title !== undefined) rec.output.title = out.title;
    if (out.summary !== undefined) rec.output.summary = out.summary;
    if (out.text !== undefined) rec.output.text = out.text;
    for (const a of out.annotations ?? []) rec.annotations.push(a);
  }
}

/**
 * A new commit status on `sha`.
 *
 * @example
 * addStatus(registry, repo, { sha, state: 'success', context: 'docdb: documents' }, 'alice', now);
 */
export function addStatus(
  registry: Registry,
  repo: RepoRecord,
  s: {
    sha: string;
    state: CommitStatusRecord['state'];
    context: string;
    description?: string | null;
    targetUrl?: string | null;
  },
  creator: string,
  now: number,
): CommitStatusRecord {
  const at = isoSeconds(now);
  const rec: CommitStatusRecord = {
    id: registry.newId(),
    sha: s.sha,
    state: s.state,
    context: s.context,
    description: s.description ?? null,
    targetUrl: s.targetUrl ?? null,
    creator,
    createdAt: at,
    updatedAt: at,
  };
  repo.statuses.push(rec);
  return rec;
}
