/**
 * Authentication: which token sent a request, and whether it may read or write a repository (and the
 * `permissions` a repository shows it). Its rate limits live in ./rations.ts.
 */
import { ApiError } from './http.js';
import type { RepoPermissions, RepoRecord, TokenRecord } from './model.js';
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
