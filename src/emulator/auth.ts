/**
 * Authentication and the primary rate limit: which token sent a request, whether it may read or
 * write a repository (and the `permissions` a repository shows it), and the `x-ratelimit-*` bookkeeping
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api).
 */
import { ApiError } from './http.js';
import type { Budget, RepoPermissions, RepoRecord, TokenRecord } from './model.js';
import type { RouteState, ServedState } from './route-context.js';

export type Caller = { kind: 'anonymous' } | { kind: 'token'; token: TokenRecord } | { kind: 'bad' };

/**
 * Parse `Authorization: Bearer <t>` / `token <t>`; any other scheme or an unknown token is `bad`.
 *
 * @example
 * authenticate(request.headers.get('authorization') ?? undefined, state); // { kind: 'token', token } | …
 */
export function authenticate(header: string | undefined, state: ServedState): Caller {
  if (header === undefined || header.trim() === '') return { kind: 'anonymous' };
  const m = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header.trim());
  const token = m ? state.findToken(m[1] as string) : undefined;
  return token ? { kind: 'token', token } : { kind: 'bad' };
}

/**
 * The budget a request charges: the caller's REST (`core`) budget, or its GraphQL points for `/graphql`.
 *
 * @example
 * budgetOf({ kind: 'anonymous' }, state).limit; // the unauthenticated limit (60 by default)
 */
export function budgetOf(caller: Caller, state: ServedState, resource: 'core' | 'graphql' = 'core'): Budget {
  if (caller.kind === 'token') {
    return state.refreshBudget(resource === 'graphql' ? caller.token.graphqlBudget : caller.token.budget);
  }
  return state.refreshBudget(state.anonymousBudget);
}

/**
 * The `x-ratelimit-*` headers of a budget (remaining never below 0).
 *
 * @example
 * rateLimitHeaders({ limit: 60, used: 1, reset: 1700000000 })['X-RateLimit-Remaining']; // '59'
 */
export function rateLimitHeaders(b: Budget): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(b.limit),
    'X-RateLimit-Remaining': String(Math.max(0, b.limit - b.used)),
    'X-RateLimit-Used': String(b.used),
    'X-RateLimit-Reset': String(b.reset),
    'X-RateLimit-Resource': b.resource ?? 'core',
  };
}

/**
 * 403 with GitHub's wording once a budget is used up.
 *
 * @example
 * if (budget.used >= budget.limit) throw rateLimitExceeded(caller);
 */
export function rateLimitExceeded(caller: Caller): ApiError {
  const doc = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits';
  if (caller.kind === 'token') {
    return new ApiError(403, `API rate limit exceeded for user ID ${caller.token.user.id}.`, doc);
  }
  return new ApiError(
    403,
    "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
    doc,
  );
}

/**
 * Access rules: an unreadable repository (missing, or private without access) is 404; a write without
 * a token is 401 "Requires authentication"; a write with read-only access is 403.
 *
 * @example
 * const repo = checkRepoAccess(state, caller, state.findRepo('octo/data'), true, doc);
 */
export function checkRepoAccess(
  state: ServedState,
  caller: Caller,
  repo: RepoRecord | undefined,
  write: boolean,
  doc: string,
): RepoRecord {
  const token = caller.kind === 'token' ? caller.token : undefined;
  if (!repo || state.accessOf(token, repo) === 'none') throw new ApiError(404, 'Not Found', doc);
  if (write) {
    if (!token) throw new ApiError(401, 'Requires authentication', doc);
    if (state.accessOf(token, repo) !== 'write') {
      throw new ApiError(403, 'Resource not accessible by personal access token', doc);
    }
  }
  return repo;
}

/**
 * The `permissions` a repository shows its caller: none for anonymous callers (the field is left out),
 * else admin and push with write access, pull with any access.
 *
 * @example
 * repoShape(repo, urls, permissionsFor(ctx.state, ctx.token, repo));
 */
export function permissionsFor(
  state: Pick<RouteState, 'accessOf'>,
  token: TokenRecord | undefined,
  repo: RepoRecord,
): RepoPermissions | undefined {
  if (!token) return undefined;
  const access = state.accessOf(token, repo);
  return { admin: access === 'write', push: access === 'write', pull: access !== 'none' };
}
