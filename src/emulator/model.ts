/**
 * The emulator's world as plain data: accounts, repositories (each with its own ObjectDb), issues, pulls,
 * releases, labels, workflow runs, tokens and their rate-limit budgets. This module imports nothing of the
 * emulator, so every layer (state, shapes, routes, GraphQL, the request pipeline) can share these types
 * without importing each other.
 */
import type { ObjectDb } from '../core/git/object-db.js';

/** `Bot`: the account GitHub Apps act as (`github-actions[bot]` for `GITHUB_TOKEN`). */
export type AccountType = 'User' | 'Organization' | 'Bot';

export interface Account {
  login: string;
  id: number;
  type: AccountType;
  name?: string;
}

export interface IssueRecord {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  user: string;
  labels: string[];
  comments: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  /** Present when the issue is the issue half of a pull request. */
  pull?: PullRecord;
}

export interface PullRecord {
  id: number;
  number: number;
  head: string;
  base: string;
  /** The head commit when pinned (a fork's head, or a seeded SHA); else the head branch's tip. */
  headSha?: string;
  /** `owner/name` of the repository the head branch lives in when it is a fork (absent: this repository). */
  headRepo?: string;
  draft: boolean;
  mergedAt: string | null;
  issue: IssueRecord;
}

export interface ReleaseRecord {
  id: number;
  tagName: string;
  targetCommitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  author: string;
  createdAt: string;
  publishedAt: string | null;
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string;
  description: string | null;
}

export interface RepoRecord {
  id: number;
  owner: Account;
  name: string;
  fullName: string;
  private: boolean;
  description: string | null;
  defaultBranch: string;
  topics: string[];
  archived: boolean;
  fork: boolean;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  db: ObjectDb;
  issues: IssueRecord[];
  pulls: PullRecord[];
  releases: ReleaseRecord[];
  labels: LabelRecord[];
  /** GitHub Actions workflow runs (`GET /repos/{owner}/{repo}/actions/runs`), newest last. */
  workflowRuns: WorkflowRunRecord[];
  nextNumber: number;
  /** `repository_dispatch` events received (`POST /repos/{owner}/{repo}/dispatches`), oldest first. */
  dispatches: DispatchRecord[];
  /**
   * Commits GitHub signed when they were created through the API (bot token, no author/committer/signature):
   * their `verification` says `verified: true`. The emulator records this beside the commit instead of
   * embedding a real `gpgsig` header, so its commit SHAs stay those of the unsigned commit text.
   */
  signedCommits?: Set<string>;
  /** Issue and pull-request comments, oldest first (./state/reviews.ts). */
  comments: IssueCommentRecord[];
  /** Check runs, oldest first. */
  checkRuns: CheckRunRecord[];
  /** Commit statuses, oldest first. */
  statuses: CommitStatusRecord[];
}

/** A comment on an issue or on a pull request's conversation (`POST /issues/{n}/comments`). */
export interface IssueCommentRecord {
  id: number;
  issueNumber: number;
  body: string;
  /** Login of the author (`github-actions[bot]` for an installation token). */
  user: string;
  createdAt: string;
  updatedAt: string;
}

/** A check-run annotation as stored (the request's fields). */
export type CheckAnnotationRecord = Record<string, unknown>;

/** A check run (`POST /check-runs`), created by a GitHub App. */
export interface CheckRunRecord {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  detailsUrl: string | null;
  externalId: string | null;
  startedAt: string;
  completedAt: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  /** Every annotation sent, appended on each update as GitHub does. */
  annotations: CheckAnnotationRecord[];
  /** Login of the app's bot account that created it. */
  app: string;
}

/** A commit status (`POST /statuses/{sha}`). */
export interface CommitStatusRecord {
  id: number;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  context: string;
  description: string | null;
  targetUrl: string | null;
  creator: string;
  createdAt: string;
  updatedAt: string;
}

/** One `repository_dispatch` event as GitHub would hand it to the workflows listening for it. */
export interface DispatchRecord {
  eventType: string;
  clientPayload: Record<string, unknown>;
  /** Login of the token that sent it. */
  sender: string;
}

export interface WorkflowRunRecord {
  id: number;
  name: string;
  /** Workflow file path, e.g. `.github/workflows/ci.yml`. */
  path: string;
  workflowId: number;
  runNumber: number;
  event: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: 'success' | 'failure' | 'cancelled' | 'skipped' | null;
  headBranch: string;
  headSha: string;
  createdAt: string;
  updatedAt: string;
}

export type RepoAccess = 'read' | 'write';

export interface TokenOptions {
  login: string;
  /** Repositories (full names) the token may use, or '*' for all. Default: repos owned by `login`, write. */
  repos?: Record<string, RepoAccess> | '*';
  /** Requests per hour; default the emulator's `defaultRateLimit`. */
  rateLimit?: number;
  /** GraphQL points per hour; default the emulator's `defaultRateLimit`. */
  graphqlRateLimit?: number;
  /**
   * An installation token (`GITHUB_TOKEN`, GitHub App; default: the token starts with `ghs_`). Commits it
   * creates through the API without author, committer or signature come back `verification.verified: true`,
   * as GitHub signs them.
   */
  bot?: boolean;
  /**
   * The token's permissions, as a workflow's `permissions:` grants them to `GITHUB_TOKEN`
   * (https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/controlling-permissions-for-github_token).
   * Absent: whatever `repos` gives. Present: a scope it does not list is `none`, as in a workflow; a write
   * needing a scope it lacks is 403 `Resource not accessible by integration` (by personal access token).
   */
  permissions?: TokenPermissions;
}

/** The permission scopes the emulator enforces on writes. */
export type PermissionScope = 'contents' | 'pull-requests' | 'issues' | 'checks' | 'statuses';

/** A token's `permissions` (a workflow's `permissions:` block). */
export type TokenPermissions = Partial<Record<PermissionScope, 'read' | 'write' | 'none'>>;

export interface TokenRecord {
  /** Internal identity used for ETags and logs; never the token text. */
  key: string;
  user: Account;
  repos: Record<string, RepoAccess> | '*' | undefined;
  budget: Budget;
  /** GraphQL points (a separate resource from REST's `core`, https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api). */
  graphqlBudget: Budget;
  /** An installation token (`GITHUB_TOKEN`, GitHub App): GitHub signs the commits it creates through the API. */
  bot?: boolean;
  /** See TokenOptions.permissions. */
  permissions?: TokenPermissions;
}

export interface Budget {
  limit: number;
  used: number;
  /** Epoch seconds of the next window start. */
  reset: number;
  /** `x-ratelimit-resource` (default `core`). */
  resource?: 'core' | 'graphql';
}

/** What a caller may do with a repository, as its `permissions` field reports (authenticated callers only). */
export interface RepoPermissions {
  admin: boolean;
  push: boolean;
  pull: boolean;
}

/** URL bases for one request: `api` is the emulator's own origin (from the Host header). */
export interface Urls {
  api: string;
  html: string;
}
