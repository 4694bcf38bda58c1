/**
 * The rate limit the page keeps in view (issue 29 item 8), read from every answer's `x-ratelimit-*`
 * headers (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api), and the
 * budget check views call before an expensive action. Pure: the clock is a parameter.
 */
import { DocDbError, type RateLimit } from '../../browser/index.js';
import type { BudgetVerdict } from '../context.js';

/** What GitHub allows an hour without a token. */
export const ANONYMOUS_HOURLY = 60;

/** What is left now: after the reset time the window is full again (the last answer is older than it). */
export function remainingNow(rl: RateLimit | undefined, nowMs: number): number | undefined {
  if (!rl) return undefined;
  return nowMs >= rl.reset * 1000 ? rl.limit : rl.remaining;
}

/**
 * May an action that costs `requests` run now? Unknown (no answer yet) counts as the anonymous hour.
 *
 * @example
 * const verdict = checkBudget({ requests: 120, what: 'This chart', rateLimit, hasToken: false, nowMs: Date.now() });
 */
export function checkBudget(args: {
  requests: number;
  what: string;
  rateLimit: RateLimit | undefined;
  hasToken: boolean;
  nowMs: number;
}): BudgetVerdict {
  const known = remainingNow(args.rateLimit, args.nowMs);
  const remaining = known ?? (args.hasToken ? undefined : ANONYMOUS_HOURLY);
  if (remaining === undefined || args.requests <= remaining) return { ok: true, remaining: known };
  const hint = args.hasToken ? '' : ` (GitHub allows ${ANONYMOUS_HOURLY} an hour without a token; a token gives 5,000)`;
  return {
    ok: false,
    remaining,
    message: `${args.what} needs about ${args.requests} requests and ${remaining} are left in this hour${hint}.`,
  };
}

/**
 * The meter's sentence: what is left of what, when it resets, and the anonymous allowance.
 *
 * @example
 * meterText({ requests: 3, rateLimit, hasToken: false, time: (s) => new Date(s * 1000).toLocaleTimeString() });
 */
export function meterText(args: {
  requests: number;
  rateLimit: RateLimit | undefined;
  hasToken: boolean;
  time: (epochSeconds: number) => string;
}): string {
  const rl = args.rateLimit;
  const who = args.hasToken ? 'with your token' : `no token: GitHub allows ${ANONYMOUS_HOURLY} an hour`;
  const left = rl ? `${rl.remaining} of ${rl.limit} requests left, resets at ${args.time(rl.reset)}` : 'not read yet';
  return `Rate limit: ${left} (${who}) · ${args.requests} request(s) by this page`;
}

/** Which limit stopped a read, and the sentence that says so (see {@link limitStop}). */
export interface LimitStop {
  kind: 'primary' | 'secondary';
  message: string;
}

/**
 * The limit behind `error`, or undefined when it is not a rate limit. The PRIMARY limit (the hourly budget:
 * an answer with `x-ratelimit-remaining: 0`) is told apart from a secondary one (a burst limit: `retry-after`
 * or GitHub's "secondary rate limit" message, with budget left) by the error's `reset` — or, for a request
 * the client held back because the budget was gone, by the latest answer's `remaining: 0`. The error's
 * `retryAfter` alone says nothing: the client sets it for both (the wait until the gate opens).
 *
 * @example
 * const stop = limitStop(error, { rateLimit: stats.rateLimit, hasToken: false, time: (s) => new Date(s * 1000).toLocaleTimeString() });
 */
export function limitStop(
  error: unknown,
  args: { rateLimit: RateLimit | undefined; hasToken: boolean; time: (epochSeconds: number) => string },
): LimitStop | undefined {
  if (!(error instanceof DocDbError) || error.code !== 'RateLimited') return undefined;
  const data = error.data as { reset?: number; retryAfter?: number };
  const rl = args.rateLimit;
  const reset = data.reset ?? (rl?.remaining === 0 ? rl.reset : undefined);
  if (reset !== undefined) {
    const limit = rl?.limit ?? (args.hasToken ? undefined : ANONYMOUS_HOURLY);
    const allowance =
      limit === undefined
        ? ''
        : ` (${limit} requests an hour ${args.hasToken ? 'with your token' : 'without a token'})`;
    const way = args.hasToken ? '' : ' Add a token for 5,000 an hour.';
    return {
      kind: 'primary',
      message: `GitHub's hourly rate limit is used up${allowance}: nothing more can be read until it resets at ${args.time(reset)}.${way}`,
    };
  }
  const wait = data.retryAfter === undefined ? 'in a minute' : `in ${data.retryAfter} seconds`;
  return {
    kind: 'secondary',
    message: `GitHub asked to slow down (a secondary rate limit, for bursts of requests; the hourly limit is not used up). Try again ${wait}.`,
  };
}
