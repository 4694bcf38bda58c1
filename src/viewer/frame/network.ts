/**
 * The page's own fetch: counts every request the clients make and keeps the latest core rate limit
 * (GraphQL answers carry their own, separate limit: kept apart so the meter shows the REST one).
 */
import { parseRateLimit, type RateLimit } from '../../browser/index.js';

/** What the page exposes for its own tests and for people poking at it in the console. */
export interface ViewerStats {
  requests: number;
  /** The latest `core` (REST) rate limit. */
  rateLimit?: RateLimit;
  /** The latest rate limit of every resource seen (`core`, `graphql`, …). */
  rateLimits: Record<string, RateLimit>;
}

/**
 * A counting fetch over `win.fetch`; `changed` runs after each answer.
 *
 * @example
 * const { fetch, stats } = countingFetch(window, showMeter);
 */
export function countingFetch(win: Window, changed: () => void): { fetch: typeof fetch; stats: ViewerStats } {
  const stats: ViewerStats = { requests: 0, rateLimits: {} };
  const counting: typeof fetch = async (input, init) => {
    stats.requests++;
    const res = await win.fetch(input, init);
    const rl = parseRateLimit(res.headers);
    if (rl) {
      stats.rateLimits[rl.resource] = rl;
      if (rl.resource === 'core') stats.rateLimit = rl;
    }
    changed();
    return res;
  };
  return { fetch: counting, stats };
}
