/**
 * `POST /graphql`: GitHub's GraphQL endpoint, executed with graphql-js against GitHub's own schema
 * (../graphql/). The executor and the schema are imported on the first request only, so an emulator that
 * never sees GraphQL (e.g. one embedded in a web page) never loads them. Points come from the token's
 * separate GraphQL budget (`x-ratelimit-resource: graphql`), charged by the executor, not per request.
 */
import { ApiError } from '../http.js';
import type { RouteDef } from '../route-context.js';

const DOC = 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql';

export const graphqlRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/graphql',
    operation: 'graphql',
    doc: DOC,
    costs: false,
    resource: 'graphql',
    async handler(ctx) {
      // GitHub's GraphQL API has no anonymous access.
      if (!ctx.token) throw new ApiError(401, 'This endpoint requires you to be authenticated.', DOC);
      const { executeGraphql } = await import('../graphql/execute.js');
      const budget = ctx.state.refreshBudget(ctx.token.graphqlBudget);
      const blobs: string[] = [];
      const body = await executeGraphql(ctx.body as Record<string, unknown> | undefined, {
        state: ctx.state,
        token: ctx.token,
        urls: ctx.urls,
        budget,
        blobTextBytes: ctx.options.graphqlBlobTextBytes,
        updateRefs: ctx.options.graphqlUpdateRefs,
        served: (sha) => blobs.push(sha),
      });
      return { status: 200, body, blobs };
    },
  },
];
