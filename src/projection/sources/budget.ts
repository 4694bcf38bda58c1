/**
 * `min-rate-limit`: stop reading sources before the rate-limit budget falls below a floor, so a
 * projection never starves the other steps of a workflow (or the hour's next run). The budget is read
 * from every source answer — `x-ratelimit-*` headers for REST, the `rateLimit` field docdb asks for in
 * each GraphQL query — per resource (`core`, `graphql`), and checked before every source request.
 * Stopping throws, so nothing of the run is committed (runs are all-or-nothing).
 */

import { RateLimited } from '../../core/errors.js';
import { parseRateLimit } from '../../transport/headers.js';
import type { SourceClient } from './types.js';

export type RateResource = 'core' | 'graphql';

interface Seen {
  remaining: number;
  limit: number;
  /** Epoch seconds. */
  reset: number;
}

/**
 * The last rate limit seen per resource, and the floor to keep.
 *
 * @example
 * const budget = new RateBudget(200);
 * budget.observeHeaders({ 'x-ratelimit-remaining': '150', 'x-ratelimit-resource': 'core' });
 * budget.check('core', 'GET /orgs/o/repos'); // throws RateLimited: 150 left, min-rate-limit is 200
 */
export class RateBudget {
  private readonly seen = new Map<RateResource, Seen>();

  constructor(
    /** Stop when a resource has this many requests (points, for GraphQL) or fewer left. 0 = never stop. */
    readonly min: number,
  ) {}

  /** The last value seen for a resource. */
  last(resource: RateResource): Seen | undefined {
    return this.seen.get(resource);
  }

  observe(resource: RateResource, seen: Seen): void {
    this.seen.set(resource, seen);
  }

  /** Read `x-ratelimit-*` headers (any casing) of a response or failed response. */
  observeHeaders(headers: Record<string, unknown> | undefined): void {
    const rl = parseRateLimit(headers);
    if (!rl) return;
    this.observe(rl.resource === 'graphql' ? 'graphql' : 'core', {
      remaining: rl.remaining,
      limit: rl.limit,
      reset: rl.reset,
    });
  }

  /**
   * Throw before a request that would take the resource below the floor. `cost` is what the request will
   * spend (1 for REST; a GraphQL query's points, computed the way GitHub does). `what` names the request.
   */
  check(resource: RateResource, what: string, cost = 1): void {
    const s = this.seen.get(resource);
    if (this.min <= 0 || !s || s.remaining - cost >= this.min) return;
    const reset = s.reset ? new Date(s.reset * 1000).toISOString() : 'unknown';
    throw new RateLimited(
      `min-rate-limit: stopped before ${what}: the ${resource === 'graphql' ? 'GraphQL' : 'REST'} rate limit has ${s.remaining} of ${s.limit} left and min-rate-limit is ${this.min}; nothing was committed (it resets at ${reset})`,
      {
        reset: s.reset,
        operation: 'projection source',
        ...({ minRateLimit: this.min, remaining: s.remaining, resource } as object),
      },
    );
  }
}

/**
 * A SourceClient whose REST requests are checked against, and feed, the budget. GraphQL requests are
 * checked by the GraphQL reader, which also reads the `rateLimit` field of each answer.
 *
 * @example
 * const client = budgetedClient(octokit, new RateBudget(200)); // throws RateLimited before a request below the floor
 */
export function budgetedClient(client: SourceClient, budget: RateBudget): SourceClient {
  return {
    async request(route, params) {
      budget.check('core', typeof route === 'string' ? route : `${route.method} ${route.url}`);
      try {
        const res = await client.request(route, params);
        budget.observeHeaders(res.headers);
        return res;
      } catch (e) {
        budget.observeHeaders((e as { response?: { headers?: Record<string, unknown> } })?.response?.headers);
        throw e;
      }
    },
    ...(client.graphql ? { graphql: client.graphql.bind(client) } : {}),
  };
}
