/**
 * The rate limit the page keeps in view (issue 29 item 8), read from every answer's `x-ratelimit-*`
 * headers (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api), and the
 * budget check views call before an expensive action. Pure: the clock is a parameter.
 */
import type { RateLimit } from '../../browser/index.js';
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
