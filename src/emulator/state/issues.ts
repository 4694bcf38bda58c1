/** Issues, pull requests (an issue with a pull half, numbered from the same sequence) and labels. */
import { DEFAULT_DATE } from '../dates.js';
import type { IssueRecord, LabelRecord, PullRecord, RepoRecord } from '../model.js';
import { fullRefName } from '../revisions.js';
import type { Registry } from './registry.js';

export interface IssueInput {
  title: string;
  body?: string | null;
  state?: 'open' | 'closed';
  user?: string;
  labels?: string[];
  comments?: number;
  createdAt?: string;
  updatedAt?: string;
  closedAt?: string | null;
}

export type PullInput = IssueInput & {
  head: string;
  base?: string;
  /** Pin the head commit (default: the head branch's tip, read when the pull is served). */
  headSha?: string;
  /**
   * `owner/name` of a fork the head branch lives in (the fork must be a repository of the emulator; its
   * branch's tip is the head commit unless `headSha` pins one). Absent: the branch is in this repository.
   */
  headRepo?: string;
  draft?: boolean;
  merged?: boolean;
  mergedAt?: string | null;
};

/**
 * Add an issue to `repo` (its labels are created when missing); defaults: open, by the owner, 2024-01-01.
 *
 * @example
 * addIssue(registry, repo, { title: 'Widgets wobble', labels: ['bug'] });
 */
export function addIssue(registry: Registry, repo: RepoRecord, issue: IssueInput): IssueRecord {
  if (!issue?.title) throw new Error('addIssue: title is required');
  const createdAt = issue.createdAt ?? DEFAULT_DATE;
  const state = issue.state ?? 'open';
  const rec: IssueRecord = {
    id: registry.newId(),
    number: repo.nextNumber++,
    title: issue.title,
    body: issue.body ?? null,
    state,
    user: registry.account(issue.user ?? repo.owner.login).login,
    labels: issue.labels ?? [],
    comments: issue.comments ?? 0,
    createdAt,
    updatedAt: issue.updatedAt ?? createdAt,
    closedAt: issue.closedAt ?? (state === 'closed' ? (issue.updatedAt ?? createdAt) : null),
  };
  for (const l of rec.labels) ensureLabel(registry, repo, l);
  repo.issues.push(rec);
  return rec;
}

/**
 * Add a pull request between two existing branches (its issue half is added too).
 *
 * @example
 * addPull(registry, repo, { title: 'Login support', head: 'feature/login' });
 */
export function addPull(registry: Registry, repo: RepoRecord, pull: PullInput): PullRecord {
  const base = pull.base ?? repo.defaultBranch;
  if (pull.headSha !== undefined && !/^[0-9a-f]{40}$/.test(pull.headSha)) {
    throw new Error(`addPull: headSha must be a 40-character lowercase hex SHA, got ${JSON.stringify(pull.headSha)}`);
  }
  if (!pull.headRepo && !pull.headSha && !repo.db.readRef(fullRefName(pull.head))) {
    throw new Error(`addPull: head branch ${pull.head} does not exist`);
  }
  if (!repo.db.readRef(fullRefName(base))) throw new Error(`addPull: base branch ${base} does not exist`);
  const issue = addIssue(registry, repo, pull);
  const rec: PullRecord = {
    id: registry.newId(),
    number: issue.number,
    head: pull.head,
    base,
    ...(pull.headSha ? { headSha: pull.headSha } : {}),
    ...(pull.headRepo ? { headRepo: pull.headRepo } : {}),
    draft: pull.draft ?? false,
    mergedAt: pull.mergedAt ?? (pull.merged ? (issue.closedAt ?? issue.updatedAt) : null),
    issue,
  };
  issue.pull = rec;
  repo.pulls.push(rec);
  return rec;
}

/**
 * The label with this name (case-insensitive), created when missing.
 *
 * @example
 * ensureLabel(registry, repo, 'bug', 'd73a4a');
 */
export function ensureLabel(
  registry: Registry,
  repo: RepoRecord,
  name: string,
  color = 'ededed',
  description: string | null = null,
): LabelRecord {
  const existing = repo.labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
  if (existing) return existing;
  const rec = { id: registry.newId(), name, color, description };
  repo.labels.push(rec);
  return rec;
}
