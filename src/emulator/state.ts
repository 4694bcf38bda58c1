/**
 * The emulator's in-memory world: accounts, repositories (each with its own ObjectDb), issues, pulls,
 * releases, labels and tokens. No HTTP here; routes read and change this state (through the narrow
 * RouteState view), tests and seeds call it directly (free of rate-limit cost).
 *
 * This class owns the registries (ids, accounts, repositories, tokens) and the clock; each job it offers
 * lives in its own module under ./state/ and is reached through one-line methods, so the public surface
 * stays one object.
 */
import type {
  Account,
  AccountType,
  Budget,
  IssueRecord,
  LabelRecord,
  PullRecord,
  ReleaseRecord,
  RepoAccess,
  RepoRecord,
  TokenOptions,
  TokenRecord,
  WorkflowRunRecord,
} from './model.js';
import { fullRefName } from './revisions.js';
import type { ServedState } from './route-context.js';
import { newBudget, refreshBudget } from './state/budgets.js';
import { branchStart, buildFilesCommit, type CommitFilesOptions, markPushed, moveRef } from './state/git-writes.js';
import { addIssue, addPull, ensureLabel, type IssueInput, type PullInput } from './state/issues.js';
import { addRelease, type ReleaseInput } from './state/releases.js';
import { type CreateRepoOptions, initialCommit, newRepoRecord, parseFullName } from './state/repositories.js';
import { addComment } from './state/reviews.js';
import { accessOf, newTokenRecord } from './state/tokens.js';
import { addWorkflowRun, type WorkflowRunInput } from './state/workflow-runs.js';

export type { CommitFilesOptions } from './state/git-writes.js';
export type { IssueInput, PullInput } from './state/issues.js';
export type { ReleaseInput } from './state/releases.js';
export type { CreateRepoOptions } from './state/repositories.js';
export type { WorkflowRunInput } from './state/workflow-runs.js';

function lower(s: string): string {
  return s.toLowerCase();
}

/**
 * Everything the emulator knows. Methods throw plain `Error`s with clear messages on bad seed input.
 *
 * @example
 * const em = await startEmulator();
 * em.state.createRepo('acme/data', { private: true });
 * em.state.addToken('t0k3n', { login: 'alice', repos: { 'acme/data': 'write' } });
 * em.state.commitFiles('acme/data', { files: { 'a.txt': 'hello\n' } });
 */
export class EmulatorState implements ServedState {
  private nextId = 1000;
  private readonly accounts = new Map<string, Account>();
  private readonly repos = new Map<string, RepoRecord>();
  private readonly tokens = new Map<string, TokenRecord>();
  /** Shared by every unauthenticated client (GitHub keys it by IP; one emulator ≈ one IP). */
  readonly anonymousBudget: Budget;

  constructor(
    private readonly limits: { unauthenticated: number; defaultToken: number },
    readonly now: () => number = () => Date.now(),
  ) {
    this.anonymousBudget = newBudget(limits.unauthenticated, this.now());
  }

  newId(): number {
    return this.nextId++;
  }

  /** Start a new window when the current one has passed. */
  refreshBudget(b: Budget): Budget {
    return refreshBudget(b, this.now());
  }

  /** The account with this login, created (as a User unless `type` says otherwise) if unknown. */
  account(login: string, type: AccountType = login.endsWith('[bot]') ? 'Bot' : 'User'): Account {
    let a = this.accounts.get(lower(login));
    if (!a) {
      a = { login, id: this.newId(), type };
      this.accounts.set(lower(login), a);
    }
    return a;
  }

  findAccount(login: string): Account | undefined {
    return this.accounts.get(lower(login));
  }

  /** Create a repository. Unless `empty`, it gets an initial commit with a README on the default branch. */
  createRepo(fullName: string, opts: CreateRepoOptions = {}): RepoRecord {
    const { ownerLogin, name } = parseFullName(fullName);
    if (this.repos.has(lower(fullName))) throw new Error(`createRepo: ${fullName} already exists`);
    const owner = this.account(ownerLogin, opts.ownerType);
    const repo = newRepoRecord(this.newId(), owner, name, opts);
    this.repos.set(lower(fullName), repo);
    if (!opts.empty) this.commitFiles(repo.fullName, initialCommit(repo));
    return repo;
  }

  /** The repository (case-insensitive like GitHub), or undefined. */
  findRepo(fullName: string): RepoRecord | undefined {
    return this.repos.get(lower(fullName));
  }

  /** The repository; throws when unknown. Its `db` is the shared ObjectDb holding its objects and refs. */
  repo(fullName: string): RepoRecord {
    const r = this.findRepo(fullName);
    if (!r) throw new Error(`unknown repository ${fullName}`);
    return r;
  }

  /** Every repository, in creation order. */
  listRepos(): RepoRecord[] {
    return [...this.repos.values()];
  }

  /** True when the repository has no refs (GitHub answers 409 "Git Repository is empty."). */
  isEmpty(repo: RepoRecord): boolean {
    return repo.db.listRefs('refs/').length === 0;
  }

  /**
   * Register a token. `repos` lists the repositories it may use (`'*'` for all); by default it may write
   * the repositories owned by `login`. Public repositories are readable with any valid token.
   */
  addToken(token: string, opts: TokenOptions): void {
    const budget = (limit: number | undefined) => newBudget(limit ?? this.limits.defaultToken, this.now());
    this.tokens.set(token, newTokenRecord(token, opts, this, budget));
  }

  findToken(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** The access a token has to a repository: 'write', 'read' or 'none'. */
  accessOf(token: TokenRecord | undefined, repo: RepoRecord): RepoAccess | 'none' {
    return accessOf(token, repo);
  }

  /**
   * Commit files onto a branch or ref (creating it when missing) without going through HTTP.
   * Returns the new commit SHA. Dates default to one minute after the parent commit, so seeds are
   * deterministic.
   */
  commitFiles(fullName: string, opts: CommitFilesOptions): string {
    const { ref, sha } = buildFilesCommit(this.repo(fullName), opts);
    this.setRef(fullName, ref, sha);
    return sha;
  }

  /** Point a ref (branch name or full ref) at a commit, creating or moving it (no fast-forward check). */
  setRef(fullName: string, branchOrRef: string, sha: string): void {
    const repo = this.repo(fullName);
    moveRef(repo, fullName, branchOrRef, sha);
    this.touch(repo);
  }

  /** Create a branch at `fromSha` (default: the default branch's tip). */
  addBranch(fullName: string, branch: string, fromSha?: string): string {
    const sha = branchStart(this.repo(fullName), fullName, fromSha);
    this.setRef(fullName, fullRefName(branch), sha);
    return sha;
  }

  /** Record a push (updates `pushed_at`). */
  touch(repo: RepoRecord): void {
    markPushed(repo, this.now());
  }

  addIssue(fullName: string, issue: IssueInput): IssueRecord {
    return addIssue(this, this.repo(fullName), issue);
  }

  /**
   * Add a pull request. `headRepo` makes it a fork's: that repository must exist here, and its head
   * branch's tip is the head commit unless `headSha` pins one.
   */
  addPull(fullName: string, pull: PullInput): PullRecord {
    if (pull.headRepo && !pull.headSha) {
      const sha = this.repo(pull.headRepo).db.readRef(fullRefName(pull.head));
      if (!sha) throw new Error(`addPull: head branch ${pull.head} does not exist in ${pull.headRepo}`);
      return addPull(this, this.repo(fullName), { ...pull, headSha: sha });
    }
    if (pull.headRepo) this.repo(pull.headRepo);
    return addPull(this, this.repo(fullName), pull);
  }

  /** Add a comment to issue or pull request `issueNumber` (by the repository's owner unless `user` says). */
  addComment(fullName: string, c: { issueNumber: number; body: string; user?: string; createdAt?: string }) {
    const repo = this.repo(fullName);
    if (!repo.issues.some((i) => i.number === c.issueNumber)) {
      throw new Error(`addComment: ${fullName} has no issue or pull request #${c.issueNumber}`);
    }
    const user = this.account(c.user ?? repo.owner.login).login;
    return addComment(this, repo, { ...c, user }, this.now());
  }

  addRelease(fullName: string, rel: ReleaseInput): ReleaseRecord {
    return addRelease(this, this.repo(fullName), rel);
  }

  /** Record a GitHub Actions workflow run (status `completed`/`success` unless given). */
  addWorkflowRun(fullName: string, run: WorkflowRunInput = {}): WorkflowRunRecord {
    return addWorkflowRun(this, this.repo(fullName), fullName, run);
  }

  ensureLabel(repo: RepoRecord, name: string, color?: string, description?: string | null): LabelRecord {
    return ensureLabel(this, repo, name, color, description);
  }
}
