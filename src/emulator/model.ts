/**
 * The emulator's world as plain data: accounts, repositories (each with its own ObjectDb), issues, pulls,
 * releases, labels, workflow runs, tokens and their rate-limit budgets. This module imports nothing of the
 * emulator, so every layer (state, shapes, routes, GraphQL, the request pipeline) can share these types
 * without importing each other.
 */
import type { ObjectDb } from '../core/git/object-db.js';

export type AccountType = 'User' | 'Organization';

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
}

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
