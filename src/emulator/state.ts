/**
 * The emulator's in-memory world: accounts, repositories (each with its own ObjectDb), issues, pulls,
 * releases, labels and tokens. No HTTP here; routes read and change this state, tests and seeds call it
 * directly (free of rate-limit cost).
 */
import { utf8 } from '../core/bytes.js';
import { ObjectDb } from '../core/git/object-db.js';
import { isSha, parseSignatureDate, type Signature } from '../core/git/objects.js';
import type { RepoAccess, TokenOptions } from './types.js';

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
  /**
   * Commits GitHub signed when they were created through the API (bot token, no author/committer/signature):
   * their `verification` says `verified: true`. The emulator records this beside the commit instead of
   * embedding a real `gpgsig` header, so its commit SHAs stay those of the unsigned commit text.
   */
  signedCommits?: Set<string>;
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

export interface CreateRepoOptions {
  private?: boolean;
  defaultBranch?: string;
  description?: string | null;
  /** No commits and no refs: the API answers 409 "Git Repository is empty." until something is seeded. */
  empty?: boolean;
  ownerType?: AccountType;
  topics?: string[];
  archived?: boolean;
  fork?: boolean;
  /** ISO date of creation and of the initial commit (default 2024-01-01T00:00:00Z, for stable SHAs). */
  createdAt?: string;
}

export interface CommitFilesOptions {
  /**
   * Branch name (`main`) or full ref (`refs/docdb/documents`); default the repository's default branch.
   * A missing ref is created, starting from the default branch's tip unless `orphan`.
   */
  branch?: string;
  /** Start a missing ref with a root commit instead of the default branch's tip. */
  orphan?: boolean;
  /** Path → UTF-8 text or bytes; `null` deletes the path. */
  files: Record<string, string | Uint8Array | null>;
  message?: string;
  /** ISO date for author and committer (default: one minute after the previous commit on the ref). */
  date?: string;
  author?: { name: string; email: string };
}

export const DEFAULT_DATE = '2024-01-01T00:00:00Z';
const HOUR = 3600;

function lower(s: string): string {
  return s.toLowerCase();
}

/** Full ref name of a branch name or full ref. */
export function fullRefName(branchOrRef: string): string {
  return branchOrRef.startsWith('refs/') ? branchOrRef : `refs/heads/${branchOrRef}`;
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
export class EmulatorState {
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
    this.anonymousBudget = this.newBudget(limits.unauthenticated);
  }

  newId(): number {
    return this.nextId++;
  }

  private newBudget(limit: number): Budget {
    return { limit, used: 0, reset: Math.floor(this.now() / 1000) + HOUR };
  }

  /** Start a new window when the current one has passed. */
  refreshBudget(b: Budget): Budget {
    const nowS = Math.floor(this.now() / 1000);
    if (nowS >= b.reset) {
      b.used = 0;
      b.reset = nowS + HOUR;
    }
    return b;
  }

  /** The account with this login, created (as a User unless `type` says otherwise) if unknown. */
  account(login: string, type: AccountType = 'User'): Account {
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
    const m = /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)\/([A-Za-z0-9._-]+)$/.exec(fullName);
    if (!m || m[2] === '.' || m[2] === '..') {
      throw new Error(`createRepo: fullName ${JSON.stringify(fullName)} must look like "owner/name"`);
    }
    if (this.repos.has(lower(fullName))) throw new Error(`createRepo: ${fullName} already exists`);
    const owner = this.account(m[1] as string, opts.ownerType);
    const createdAt = opts.createdAt ?? DEFAULT_DATE;
    const repo: RepoRecord = {
      id: this.newId(),
      owner,
      name: m[2] as string,
      fullName: `${owner.login}/${m[2]}`,
      private: opts.private ?? false,
      description: opts.description ?? null,
      defaultBranch: opts.defaultBranch ?? 'main',
      topics: opts.topics ?? [],
      archived: opts.archived ?? false,
      fork: opts.fork ?? false,
      createdAt,
      updatedAt: createdAt,
      pushedAt: createdAt,
      db: new ObjectDb(),
      issues: [],
      pulls: [],
      releases: [],
      labels: [],
      workflowRuns: [],
      nextNumber: 1,
    };
    this.repos.set(lower(fullName), repo);
    if (!opts.empty) {
      this.commitFiles(repo.fullName, {
        files: { 'README.md': `# ${repo.name}\n${repo.description ? `\n${repo.description}\n` : ''}` },
        message: 'Initial commit',
        date: createdAt,
      });
    }
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
    if (!token || /\s/.test(token)) throw new Error('addToken: token must be a non-empty string without spaces');
    if (!opts?.login) throw new Error('addToken: opts.login is required');
    this.tokens.set(token, {
      key: `t${this.newId()}`,
      user: this.account(opts.login),
      repos: opts.repos,
      budget: this.newBudget(opts.rateLimit ?? this.limits.defaultToken),
      graphqlBudget: { ...this.newBudget(opts.graphqlRateLimit ?? this.limits.defaultToken), resource: 'graphql' },
      // GitHub's installation tokens (GITHUB_TOKEN in Actions, GitHub Apps) start with "ghs_".
      bot: opts.bot ?? token.startsWith('ghs_'),
    });
  }

  findToken(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  /** The access a token has to a repository: 'write', 'read' or 'none'. */
  accessOf(token: TokenRecord | undefined, repo: RepoRecord): RepoAccess | 'none' {
    const granted: RepoAccess | undefined = !token
      ? undefined
      : token.repos === '*'
        ? 'write'
        : token.repos === undefined
          ? lower(repo.owner.login) === lower(token.user.login)
            ? 'write'
            : undefined
          : Object.entries(token.repos).find(([k]) => lower(k) === lower(repo.fullName))?.[1];
    if (granted) return granted;
    return repo.private ? 'none' : 'read';
  }

  /**
   * Commit files onto a branch or ref (creating it when missing) without going through HTTP.
   * Returns the new commit SHA. Dates default to one minute after the parent commit, so seeds are
   * deterministic.
   */
  commitFiles(fullName: string, opts: CommitFilesOptions): string {
    const repo = this.repo(fullName);
    const ref = fullRefName(opts.branch ?? repo.defaultBranch);
    const parent = repo.db.readRef(ref) ?? (opts.orphan ? undefined : this.defaultTip(repo, ref));
    const baseTree = parent ? repo.db.getCommit(parent).tree : null;
    const changes = Object.entries(opts.files).map(([path, value]) => ({
      path,
      mode: '100644' as const,
      sha: value === null ? null : repo.db.putBlob(typeof value === 'string' ? utf8(value) : value),
    }));
    const tree = repo.db.applyTreeChanges(baseTree, changes);
    const when = opts.date
      ? parseSignatureDate(opts.date)
      : parent
        ? { timestamp: repo.db.getCommit(parent).committer.timestamp + 60, timezone: '+0000' }
        : parseSignatureDate(repo.createdAt);
    const who = opts.author ?? { name: 'Octo Cat', email: 'octocat@users.noreply.github.com' };
    const sig: Signature = { ...who, ...when };
    const sha = repo.db.putCommit({
      tree,
      parents: parent ? [parent] : [],
      author: sig,
      committer: sig,
      message: opts.message ?? `Update ${Object.keys(opts.files).join(', ')}`,
    });
    this.setRef(fullName, ref, sha);
    return sha;
  }

  /** When creating a new branch from a seed, start it at the default branch's tip. */
  private defaultTip(repo: RepoRecord, ref: string): string | undefined {
    if (ref === fullRefName(repo.defaultBranch)) return undefined;
    return repo.db.readRef(fullRefName(repo.defaultBranch));
  }

  /** Point a ref (branch name or full ref) at a commit, creating or moving it (no fast-forward check). */
  setRef(fullName: string, branchOrRef: string, sha: string): void {
    const repo = this.repo(fullName);
    if (!isSha(sha) || repo.db.typeOf(sha) !== 'commit')
      throw new Error(`setRef: ${sha} is not a commit in ${fullName}`);
    const ref = fullRefName(branchOrRef);
    repo.db.compareAndSwapRef(ref, repo.db.readRef(ref) ?? null, sha);
    this.touch(repo);
  }

  /** Create a branch at `fromSha` (default: the default branch's tip). */
  addBranch(fullName: string, branch: string, fromSha?: string): string {
    const repo = this.repo(fullName);
    const sha = fromSha ?? repo.db.readRef(fullRefName(repo.defaultBranch));
    if (!sha) throw new Error(`addBranch: ${fullName} has no default branch tip to branch from`);
    this.setRef(fullName, fullRefName(branch), sha);
    return sha;
  }

  /** Record a push (updates `pushed_at`). */
  touch(repo: RepoRecord): void {
    const iso = new Date(Math.max(this.now(), Date.parse(repo.pushedAt))).toISOString().replace(/\.\d{3}Z$/, 'Z');
    repo.pushedAt = iso;
    repo.updatedAt = iso;
  }

  addIssue(
    fullName: string,
    issue: {
      title: string;
      body?: string | null;
      state?: 'open' | 'closed';
      user?: string;
      labels?: string[];
      comments?: number;
      createdAt?: string;
      updatedAt?: string;
      closedAt?: string | null;
    },
  ): IssueRecord {
    const repo = this.repo(fullName);
    if (!issue?.title) throw new Error('addIssue: title is required');
    const createdAt = issue.createdAt ?? DEFAULT_DATE;
    const state = issue.state ?? 'open';
    const rec: IssueRecord = {
      id: this.newId(),
      number: repo.nextNumber++,
      title: issue.title,
      body: issue.body ?? null,
      state,
      user: this.account(issue.user ?? repo.owner.login).login,
      labels: issue.labels ?? [],
      comments: issue.comments ?? 0,
      createdAt,
      updatedAt: issue.updatedAt ?? createdAt,
      closedAt: issue.closedAt ?? (state === 'closed' ? (issue.updatedAt ?? createdAt) : null),
    };
    for (const l of rec.labels) this.ensureLabel(repo, l);
    repo.issues.push(rec);
    return rec;
  }

  addPull(
    fullName: string,
    pull: Parameters<EmulatorState['addIssue']>[1] & {
      head: string;
      base?: string;
      draft?: boolean;
      merged?: boolean;
      mergedAt?: string | null;
    },
  ): PullRecord {
    const repo = this.repo(fullName);
    const base = pull.base ?? repo.defaultBranch;
    if (!repo.db.readRef(fullRefName(pull.head))) throw new Error(`addPull: head branch ${pull.head} does not exist`);
    if (!repo.db.readRef(fullRefName(base))) throw new Error(`addPull: base branch ${base} does not exist`);
    const issue = this.addIssue(fullName, pull);
    const rec: PullRecord = {
      id: this.newId(),
      number: issue.number,
      head: pull.head,
      base,
      draft: pull.draft ?? false,
      mergedAt: pull.mergedAt ?? (pull.merged ? (issue.closedAt ?? issue.updatedAt) : null),
      issue,
    };
    issue.pull = rec;
    repo.pulls.push(rec);
    return rec;
  }

  addRelease(
    fullName: string,
    rel: {
      tagName: string;
      targetCommitish?: string;
      name?: string | null;
      body?: string | null;
      draft?: boolean;
      prerelease?: boolean;
      author?: string;
      createdAt?: string;
      publishedAt?: string | null;
    },
  ): ReleaseRecord {
    const repo = this.repo(fullName);
    if (!rel?.tagName) throw new Error('addRelease: tagName is required');
    const createdAt = rel.createdAt ?? DEFAULT_DATE;
    const target = rel.targetCommitish ?? repo.defaultBranch;
    const rec: ReleaseRecord = {
      id: this.newId(),
      tagName: rel.tagName,
      targetCommitish: target,
      name: rel.name ?? rel.tagName,
      body: rel.body ?? null,
      draft: rel.draft ?? false,
      prerelease: rel.prerelease ?? false,
      author: this.account(rel.author ?? repo.owner.login).login,
      createdAt,
      publishedAt: rel.draft ? null : (rel.publishedAt ?? createdAt),
    };
    // A published release has its tag; create a lightweight tag ref at the target like GitHub does.
    const tagRef = `refs/tags/${rel.tagName}`;
    if (!rel.draft && !repo.db.readRef(tagRef)) {
      const sha = isSha(target) ? target : repo.db.readRef(fullRefName(target));
      if (sha && repo.db.typeOf(sha) === 'commit') repo.db.compareAndSwapRef(tagRef, null, sha);
    }
    repo.releases.push(rec);
    return rec;
  }

  /** Record a GitHub Actions workflow run (status `completed`/`success` unless given). */
  addWorkflowRun(
    fullName: string,
    run: {
      name?: string;
      path?: string;
      event?: string;
      status?: WorkflowRunRecord['status'];
      conclusion?: WorkflowRunRecord['conclusion'];
      headBranch?: string;
      createdAt?: string;
      updatedAt?: string;
    } = {},
  ): WorkflowRunRecord {
    const repo = this.repo(fullName);
    const headBranch = run.headBranch ?? repo.defaultBranch;
    const headSha = repo.db.readRef(fullRefName(headBranch));
    if (!headSha) throw new Error(`addWorkflowRun: branch ${headBranch} of ${fullName} does not exist`);
    const path = run.path ?? '.github/workflows/ci.yml';
    const sameWorkflow = repo.workflowRuns.filter((r) => r.path === path);
    const createdAt = run.createdAt ?? DEFAULT_DATE;
    const status = run.status ?? 'completed';
    const rec: WorkflowRunRecord = {
      id: this.newId(),
      name: run.name ?? 'CI',
      path,
      workflowId: sameWorkflow[0]?.workflowId ?? this.newId(),
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

  ensureLabel(repo: RepoRecord, name: string, color = 'ededed', description: string | null = null): LabelRecord {
    const existing = repo.labels.find((l) => lower(l.name) === lower(name));
    if (existing) return existing;
    const rec = { id: this.newId(), name, color, description };
    repo.labels.push(rec);
    return rec;
  }
}
