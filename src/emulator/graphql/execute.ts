/**
 * Execute one `POST /graphql` body against GitHub's schema with graphql-js: parse, validate (so every
 * query a client sends is checked against the real schema), apply GitHub's pagination and node limits,
 * charge the GraphQL points budget (RATE_LIMITED once it is spent), run, and shape errors as GitHub does
 * — HTTP 200 with `errors: [{ type?, path?, locations?, message }]` next to partial `data`.
 */
import {
  execute,
  type FragmentDefinitionNode,
  type GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import type { Budget, TokenRecord, Urls } from '../model.js';
import type { RouteState } from '../route-context.js';
import { queryCost } from './cost.js';
import { rootValue, TypedGraphqlError } from './resolvers.js';
import { githubSchema } from './schema.js';

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

interface OutError {
  type?: string;
  code?: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  extensions?: Record<string, unknown>;
  message: string;
}

const err = (message: string, extra: Omit<OutError, 'message'> = {}): { errors: OutError[] } => ({
  errors: [{ ...extra, message }],
});

function shape(e: GraphQLError): OutError {
  const typed = e.originalError instanceof TypedGraphqlError ? e.originalError.type : undefined;
  return {
    ...(typed ? { type: typed } : {}),
    ...(e.path ? { path: e.path } : {}),
    ...(e.locations ? { locations: e.locations } : {}),
    ...(e.extensions && Object.keys(e.extensions).length ? { extensions: e.extensions } : {}),
    message: e.message,
  };
}

/**
 * The JSON body to answer with (always HTTP 200 once authenticated, as GitHub does).
 *
 * @example
 * await executeGraphql({ query: '{ rateLimit { remaining } }' }, { state, token, urls, budget });
 */
export async function executeGraphql(
  body: GraphqlRequest | undefined,
  ctx: { state: RouteState; token: TokenRecord | undefined; urls: Urls; budget: Budget },
): Promise<Record<string, unknown>> {
  const schema = await githubSchema();
  if (!body || typeof body.query !== 'string' || body.query.trim() === '') {
    return err('A query attribute must be specified and must be a string.');
  }
  const variables =
    body.variables && typeof body.variables === 'object' && !Array.isArray(body.variables)
      ? (body.variables as Record<string, unknown>)
      : {};
  let document: ReturnType<typeof parse>;
  try {
    document = parse(body.query);
  } catch (e) {
    const g = e as GraphQLError;
    return { errors: [shape(g)] };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { errors: invalid.map(shape) };

  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const name = typeof body.operationName === 'string' ? body.operationName : undefined;
  const operation = name
    ? operations.find((o) => o.name?.value === name)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) {
    return err(
      name ? `No operation named "${name}"` : 'An operation name is required when the document has several operations',
    );
  }
  if (operation.operation !== 'query') {
    return err(`The emulator serves queries only; "${operation.operation}" is not supported.`);
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const limits = queryCost(schema, operation, fragments, variables);
  if (limits.errors.length > 0) return { errors: limits.errors.map((e) => ({ type: e.type, message: e.message })) };

  const { budget } = ctx;
  if (budget.used + limits.cost > budget.limit) {
    return err(`API rate limit already exceeded for user ID ${ctx.token?.user.id ?? 0}.`, {
      type: 'RATE_LIMITED',
      code: 'graphql_rate_limit',
    });
  }
  budget.used += limits.cost;
  const result = await execute({
    schema,
    document,
    ...(name ? { operationName: name } : {}),
    variableValues: variables,
    rootValue: rootValue({
      state: ctx.state,
      token: ctx.token,
      urls: ctx.urls,
      rateLimit: {
        cost: limits.cost,
        limit: budget.limit,
        remaining: Math.max(0, budget.limit - budget.used),
        used: budget.used,
        resetAt: new Date(budget.reset * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        nodeCount: limits.nodeCount,
      },
    }),
  });
  return {
    ...(result.data !== undefined ? { data: result.data } : {}),
    ...(result.errors?.length ? { errors: result.errors.map(shape) } : {}),
  };
}
