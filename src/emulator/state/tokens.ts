/** Tokens: what registering one creates, and the access a token (or no token) has to a repository. */
import type {
  Budget,
  PermissionScope,
  RepoAccess,
  RepoRecord,
  TokenOptions,
  TokenPermissions,
  TokenRecord,
} from '../model.js';
import type { Registry } from './registry.js';

/**
 * The record of a new token; throws on a token with spaces or options without `login`.
 *
 * @example
 * newTokenRecord('t0k3n', { login: 'alice' }, registry, (limit) => newBudget(limit ?? 5000, Date.now()));
 */
export function newTokenRecord(
  token: string,
  opts: TokenOptions,
  registry: Registry,
  budget: (limit: number | undefined) => Budget,
): TokenRecord {
  if (!token || /\s/.test(token)) throw new Error('addToken: token must be a non-empty string without spaces');
  if (!opts?.login) throw new Error('addToken: opts.login is required');
  return {
    key: `t${registry.newId()}`,
    user: registry.account(opts.login),
    repos: opts.repos,
    budget: budget(opts.rateLimit),
    graphqlBudget: { ...budget(opts.graphqlRateLimit), resource: 'graphql' },
    // GitHub's installation tokens (GITHUB_TOKEN in Actions, GitHub Apps) start with "ghs_".
    bot: opts.bot ?? token.startsWith('ghs_'),
    ...(opts.permissions ? { permissions: checkedPermissions(opts.permissions) } : {}),
  };
}

/**
 * The access a token has to a repository: what it was granted, else `read` on public repositories.
 *
 * @example
 * accessOf(undefined, publicRepo); // 'read'
 * accessOf(undefined, privateRepo); // 'none'
 */
export function accessOf(token: TokenRecord | undefined, repo: RepoRecord): RepoAccess | 'none' {
  const granted = token ? grantedAccess(token, repo) : undefined;
  if (granted) return granted;
  return repo.private ? 'none' : 'read';
}

/** `'*'` grants write everywhere; no list grants write on the token user's own repositories. */
function grantedAccess(token: TokenRecord, repo: RepoRecord): RepoAccess | undefined {
  const lower = (s: string) => s.toLowerCase();
  if (token.repos === '*') return 'write';
  if (token.repos === undefined) return lower(repo.owner.login) === lower(token.user.login) ? 'write' : undefined;
  return Object.entries(token.repos).find(([k]) => lower(k) === lower(repo.fullName))?.[1];
}

const SCOPES: readonly PermissionScope[] = ['contents', 'pull-requests', 'issues', 'checks', 'statuses'];

/** `permissions` with every scope and level checked (a typo would silently grant nothing). */
function checkedPermissions(p: TokenPermissions): TokenPermissions {
  for (const [scope, level] of Object.entries(p)) {
    if (!SCOPES.includes(scope as PermissionScope)) {
      throw new Error(`addToken: permissions.${scope} is not a scope (${SCOPES.join(', ')})`);
    }
    if (level !== 'read' && level !== 'write' && level !== 'none') {
      throw new Error(`addToken: permissions.${scope} must be read, write or none, got ${String(level)}`);
    }
  }
  return { ...p };
}

/**
 * Whether a token may write with one of `scopes` (any one suffices, as GitHub's "at least one of the
 * following permission sets"): always when it has no `permissions`, else when one of them is `write`.
 *
 * @example
 * mayWrite(token, ['issues', 'pull-requests']); // comment on a pull request
 */
export function mayWrite(token: TokenRecord, scopes: readonly PermissionScope[]): boolean {
  if (!token.permissions) return true;
  return scopes.some((s) => token.permissions?.[s] === 'write');
}
