/**
 * The sentence for a view that failed: a repository that does not exist or is private without a
 * token, then everything else as the library explains it (explainError).
 */
import { DocDbError, explainError } from '../../browser/index.js';
import type { ViewState } from '../state.js';

/**
 * What to tell the visitor about `error` while opening `state`.
 *
 * @example
 * view.append(h('p', { class: 'error' }, explainFailure(error, { state, apiUrl, hasToken: false })));
 */
export function explainFailure(error: unknown, args: { state: ViewState; apiUrl: string; hasToken: boolean }): string {
  const { state, apiUrl, hasToken } = args;
  if (error instanceof DocDbError && error.code === 'NotFound') {
    // GitHub answers 404 for a private repository it does not show to this visitor: the two look the same.
    return hasToken
      ? `Repository ${state.repo} was not found, or your token cannot see it. Check the spelling and the token's repository access.`
      : `Repository ${state.repo} was not found — or it is private and needs a token: add one under “Token” above.`;
  }
  return explainError(error, { repository: state.repo, apiUrl });
}
