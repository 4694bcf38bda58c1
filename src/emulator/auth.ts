/**
 * Authentication: which token sent a request, and whether it may read or write a repository (and the
 * `permissions` a repository shows it). Its rate limits live in ./rations.ts.
 */
import { ApiError } from './http.js';
import type { PermissionScope, RepoPermissions, RepoRecord, TokenRecord } from './model.js';
import type { RouteState, ServedState } from './route-context.js';
import { mayWrite } from './state/tokens.js';

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
 * Access rules: an unreadable repository (missing, or private without access) is 404; a write without
 * a token is 401 "Requires authentication"; a write with read-only access, or by a token whose
 * `permissions` grant none of the route's `scopes` for writing, is 403 "Resource not accessible by
 * integration" (an installation token, as GitHub answers `GITHUB_TOKEN`) or "… by personal access token".
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
  scopes: readonly PermissionScope[] = ['contents'],
): RepoRecord {
  const token = caller.kind === 'token' ? caller.token : undefined;
  if (!repo || state.accessOf(token, repo) === 'none') throw new ApiError(404, 'Not Found', doc);
  if (write) {
    if (!token) throw new ApiError(401, 'Requires authentication', doc);
    if (state.accessOf(token, repo) !== 'write' || !mayWrite(token, scopes)) throw notAccessible(token, doc);
  }
  return repo;
}

/**
 * GitHub's 403 for a write the token may not do, worded by the kind of token
 * (https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api#resource-not-accessible).
 *
 * @example
 * throw notAccessible(ctx.token, doc);
 */
export function notAccessible(token: TokenRecord, doc: string): ApiError {
  const by = token.bot ? 'integration' : 'personal access token';
  return new ApiError(403, `Resource not accessible by ${by}`, doc);
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
