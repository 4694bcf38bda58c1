/**
 * The identity GitHub writes into a commit made through the API when the request names none: the token's
 * user, with the `<id>+<login>@users.noreply.github.com` address (`ghost` without a user).
 */
import type { Account } from './model.js';

/**
 * Author/committer name and email for an API commit by `user`.
 *
 * @example
 * apiCommitIdentity({ login: 'octocat', id: 1, type: 'User' });
 * // { name: 'octocat', email: '1+octocat@users.noreply.github.com' }
 */
export function apiCommitIdentity(user: Account | undefined): { name: string; email: string } {
  return {
    name: user?.name ?? user?.login ?? 'ghost',
    email: `${user?.id ?? 0}+${user?.login ?? 'ghost'}@users.noreply.github.com`,
  };
}
