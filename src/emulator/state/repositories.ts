/** Repositories: checking a new one's name and the record it starts as. */
import { ObjectDb } from '../../core/git/object-db.js';
import { DEFAULT_DATE } from '../dates.js';
import type { Account, AccountType, RepoRecord } from '../model.js';
import type { CommitFilesOptions } from './git-writes.js';

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

/**
 * Owner login and repository name of `owner/name`, checked against GitHub's naming rules.
 *
 * @example
 * parseFullName('octo-org/widgets'); // { ownerLogin: 'octo-org', name: 'widgets' }
 */
export function parseFullName(fullName: string): { ownerLogin: string; name: string } {
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)\/([A-Za-z0-9._-]+)$/.exec(fullName);
  if (!m || m[2] === '.' || m[2] === '..') {
    throw new Error(`createRepo: fullName ${JSON.stringify(fullName)} must look like "owner/name"`);
  }
  return { ownerLogin: m[1] as string, name: m[2] as string };
}

/**
 * A new repository without refs (the caller adds the initial commit unless `empty`).
 *
 * @example
 * newRepoRecord(1001, owner, 'widgets', { private: true });
 */
export function newRepoRecord(id: number, owner: Account, name: string, opts: CreateRepoOptions): RepoRecord {
  const createdAt = opts.createdAt ?? DEFAULT_DATE;
  return {
    id,
    owner,
    name,
    fullName: `${owner.login}/${name}`,
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
    dispatches: [],
    comments: [],
    checkRuns: [],
    statuses: [],
  };
}

/**
 * The commit every non-empty new repository starts with: a README with its name and description.
 *
 * @example
 * state.commitFiles(repo.fullName, initialCommit(repo));
 */
export function initialCommit(repo: RepoRecord): CommitFilesOptions {
  return {
    files: { 'README.md': `# ${repo.name}\n${repo.description ? `\n${repo.description}\n` : ''}` },
    message: 'Initial commit',
    date: repo.createdAt,
  };
}
