/**
 * Turn any error of a run into the one-line-plus-hint message given to `core.setFailed`: what went
 * wrong and what to change. Never includes a token (messages are built from error fields, not
 * request headers).
 */
import { DocDbError } from '../core/errors.js';
import { SOURCE_OPERATION } from '../projection/sources/index.js';
import type { ActionInputs } from './inputs.js';
import { NOTIFY_OPERATION } from './notify.js';

function resetText(reset: unknown): string {
  const n = Number(reset);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : 'unknown';
}

/**
 * Describe a failure for the workflow log.
 *
 * @example
 * core.setFailed(describeFailure(error, inputs));
 */
export function describeFailure(
  e: unknown,
  inputs: Pick<ActionInputs, 'repository' | 'root' | 'section' | 'mode'>,
): string {
  return tidy(describe(e, inputs));
}

/**
 * Joined sentences must not end in "..": a message that already ends with a period followed by a hint
 * that adds one. Ellipses ("...") are left alone.
 */
export function tidy(text: string): string {
  return text.replace(/(?<!\.)\.\.(?=\s|$)/g, '.');
}

function describe(e: unknown, inputs: Pick<ActionInputs, 'repository' | 'root' | 'section' | 'mode'>): string {
  const ref = `refs/${inputs.root}/${inputs.section}`;
  const err = e as { message?: string };
  const code = e instanceof DocDbError ? e.code : undefined;
  const data = e instanceof DocDbError ? e.data : {};
  const message = err?.message ?? String(e);
  switch (code) {
    case 'InvalidSpec':
      if (data.reason === 'timeout') {
        return `${message.replace(/; make it faster or raise the reducer time limit$/, '')}.\nEach call of a custom reducer must return within the "reducer-timeout" input (seconds); raise it if the reducer is just slow.`;
      }
      return message;
    case 'InvalidConfig':
    case 'InvalidIdentity':
    case 'InvalidKey':
    case 'InvalidVersion':
      return message;
    case 'Forbidden':
      // notify's own message already says which permission or token the event needs (and that the commit landed).
      if (data.operation === NOTIFY_OPERATION) return message;
      if (data.operation === SOURCE_OPERATION) {
        return `${message}\nThe token cannot read a source repository: it needs read access to every repository the spec names (contents, issues, pull-requests: read).`;
      }
      return (
        `${message}\nThe token cannot ${readOnly(inputs) ? 'read' : 'write to'} ${inputs.repository}. ` +
        `Grant it ${readOnly(inputs) ? '"contents: read"' : '"contents: write"'}: add\n  permissions:\n    contents: ${readOnly(inputs) ? 'read' : 'write'}\n` +
        'to the job (or use a token with write access to that repository).'
      );
    case 'AuthMissing':
      return `${message}\nSet the "token" input (default \${{ github.token }}) — writing ${ref} needs a token with contents: write.`;
    case 'AuthInvalid':
      return `${message}\nThe token was rejected (401 Bad credentials): check the secret passed as "token" and that it has not expired.`;
    case 'RateLimited': {
      if (data.minRateLimit !== undefined) {
        return `${message}\nLower "min-rate-limit", run less often, split the work with "shard", or use conditional reads (a token that stays the same across runs, see docs/projection-spec.md).`;
      }
      const reset = resetText((e as { reset?: number }).reset ?? data.reset);
      const retryAfter = (e as { retryAfter?: number }).retryAfter;
      return `${message}\nGitHub API rate limit hit; it resets at ${reset}${retryAfter ? ` (retry after ${retryAfter} s)` : ''}. Re-run after that, run less often, or limit "projections".`;
    }
    case 'EmptyRepository':
      // Said once: the store's message says the same in library terms.
      return `Repository ${inputs.repository} is empty: GitHub's Git Database API cannot create objects until the repository has a first commit. Push any commit (e.g. a README) and re-run.`;
    case 'ConcurrentUpdate': {
      // Built from the error's data, not its message: that one names the library option (retryConcurrentWrites).
      const other = String((e as { otherSha?: string }).otherSha ?? data.otherSha);
      const attempts = typeof data.attempts === 'number' ? ` (${data.attempts} attempt(s))` : '';
      return `Another run kept advancing ${ref} (competing commit ${other}); this run gave up${attempts}. Nothing was committed by this run. Re-run it, raise the "retry-concurrent-writes" input, or serialise runs with a workflow "concurrency:" group.`;
    }
    case 'NotFound':
      return data.operation === SOURCE_OPERATION || typeof data.reason === 'string'
        ? message
        : `${message}\nCheck "repository" (${inputs.repository}) and that the token can see it.`;
    default:
      break;
  }
  return message;
}

/** Modes that only read the section. */
function readOnly(inputs: { mode: string }): boolean {
  return inputs.mode === 'read' || inputs.mode === 'changes';
}
