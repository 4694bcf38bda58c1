/**
 * `GET /rate_limit`: the caller's budgets (REST `core`, and GraphQL points for a token) without charging
 * them, plus the fixed limits of the resources the emulator does not serve.
 * https://docs.github.com/rest/rate-limit/rate-limit
 */
import type { Budget } from '../model.js';
import type { RouteContext, RouteDef } from '../route-context.js';

const DOC = 'https://docs.github.com/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user';

function usage(x: Budget) {
  return { limit: x.limit, used: x.used, remaining: Math.max(0, x.limit - x.used), reset: x.reset };
}

function rateLimit(ctx: RouteContext) {
  const b = ctx.state.refreshBudget(ctx.token?.budget ?? ctx.state.anonymousBudget);
  const core = usage(b);
  const fixed = (limit: number) => ({ limit, used: 0, remaining: limit, reset: b.reset });
  return {
    status: 200,
    body: {
      resources: {
        core,
        search: fixed(ctx.token ? 30 : 10),
        graphql: ctx.token ? usage(ctx.state.refreshBudget(ctx.token.graphqlBudget)) : fixed(0),
        integration_manifest: fixed(5000),
        code_search: fixed(10),
      },
      rate: core,
    },
  };
}

export const rateLimitRoutes: RouteDef[] = [
  { method: 'GET', path: '/rate_limit', operation: 'rate-limit/get', doc: DOC, costs: false, handler: rateLimit },
];
