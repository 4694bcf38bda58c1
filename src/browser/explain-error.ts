/**
 * One sentence a person understands for any error a browser call can end with (the playground shows
 * these; apps may too). Based on the typed error's `code`, never on raw statuses.
 */
import { DocDbError } from '../core/errors.js';

/**
 * @example
 * try { await client.get(id) } catch (e) { panel.textContent = explainError(e, { repository: 'octo/data' }) }
 */
export function explainError(error: unknown, context: { repository?: string; apiUrl?: string } = {}): string {
  const repo = context.repository ? `“${context.repository}”` : 'the repository';
  const api = context.apiUrl ?? 'the GitHub API';
  if (!(error instanceof DocDbError)) {
    return `Something went wrong: ${error instanceof Error ? error.message : String(error)}`;
  }
  const data = error.data as { reset?: number; retryAfter?: number; field?: string; reason?: string };
  switch (error.code) {
    case 'NotFound':
      return `Repository ${repo} was not found. Check the spelling; a private repository needs a token that can see it.`;
    case 'RateLimited': {
      // `reset` is set only for the primary (hourly) limit (stores/remote-api/status.ts); the client sets
      // `retryAfter` for both — the wait until the gate opens — so it cannot tell them apart.
      if (data.reset === undefined) {
        const wait = data.retryAfter === undefined ? 'in a minute' : `in ${data.retryAfter} seconds`;
        return `GitHub asked to slow down (secondary rate limit). Try again ${wait}.`;
      }
      const when = ` It resets at ${new Date(data.reset * 1000).toLocaleTimeString()}.`;
      return `The API rate limit is used up (unauthenticated clients get 60 requests per hour).${when} Add a token for 5,000 per hour.`;
    }
    case 'TransportError':
      return data.reason === 'timeout'
        ? `${api} did not answer in time. Try again, or check the API URL.`
        : `Could not reach ${api}. Check your network connection and the API URL.`;
    case 'AuthMissing':
      return `${repo} needs a token for this. Add one and try again.`;
    case 'AuthInvalid':
      return 'The token was rejected: it is invalid, expired or revoked.';
    case 'Forbidden':
      return `The token is not allowed to do this on ${repo}.`;
    case 'EmptyRepository':
      return `Repository ${repo} is empty: it has no commits yet.`;
    case 'UpstreamUnavailable':
      return `${api} is having trouble (a server error). Try again in a moment.`;
    case 'InvalidConfig':
      return `Please check ${data.field ?? 'the input'}: ${error.message}`;
    default:
      return error.message;
  }
}
