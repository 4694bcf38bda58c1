/**
 * Execute one `POST /graphql` body against GitHub's schema with graphql-js: parse, validate (so every
 * query a client sends is checked against the real schema), apply GitHub's pagination and node limits,
 * charge the GraphQL points budget (RATE_LIMITED once it is spent), run, and shape errors as GitHub does
 * — HTTP 200 with `errors: [{ type?, path?, locations?, message }]` next to partial `data`.
 */
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { isoSeconds } from '../dates.js';
import type { Budget, TokenRecord, Urls } from '../model.js';
import type { RouteState } from '../route-context.js';
import { queryCost } from './cost.js';
import { rootValue, TypedGraphqlError } from './resolvers.js';
import { githubSchema, githubSchemaWithoutUpdateRefs } from './schema.js';
import { type UpdateRefsArgs, updateRefs } from './update-refs.js';

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

/** A query ready to run: its document, the operation chosen, its fragments and variables. */
interface Prepared {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  name: string | undefined;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/**
 * The JSON body to answer with (always HTTP 200 once authenticated, as GitHub does).
 *
 * @example
 * await executeGraphql({ query: '{ rateLimit { remaining } }' }, { state, token, urls, budget });
 */
export async function executeGraphql(
  body: GraphqlRequest | undefined,
  ctx: {
    state: RouteState;
    token: TokenRecord | undefined;
    urls: Urls;
    budget: Budget;
    blobTextBytes: number;
    /** False: serve no `updateRefs`, as a host whose schema predates it (GitHub Enterprise Server before 3.13). */
    updateRefs?: boolean;
    /** Told the SHA of every blob whose `text` the answer carries (the request log's `blobs`). */
    served?: (sha: string) => void;
  },
): Promise<Record<string, unknown>> {
  const schema = ctx.updateRefs === false ? await githubSchemaWithoutUpdateRefs() : await githubSchema();
  const prepared = prepare(schema, body, ctx.updateRefs !== false);
  if ('errors' in prepared) return prepared;
  const { document, operation, name, fragments, variables } = prepared;
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
  const rateLimit = {
    cost: limits.cost,
    limit: budget.limit,
    remaining: Math.max(0, budget.limit - budget.used),
    used: budget.used,
    resetAt: isoSeconds(budget.reset * 1000),
    nodeCount: limits.nodeCount,
  };
  const result = await execute({
    schema,
    document,
    ...(name ? { operationName: name } : {}),
    variableValues: variables,
    rootValue: {
      ...rootValue({ ...ctx, rateLimit }),
      // Mutation fields share the root value with the query's (graphql-js reads both from it).
      updateRefs: (args: UpdateRefsArgs) => updateRefs({ state: ctx.state, token: ctx.token }, args),
    },
  });
  return {
    ...(result.data !== undefined ? { data: result.data } : {}),
    ...(result.errors?.length ? { errors: result.errors.map(shape) } : {}),
  };
}

/** Parse and validate the body's query against the schema and choose its operation; or the errors to answer. */
function prepare(
  schema: GraphQLSchema,
  body: GraphqlRequest | undefined,
  withUpdateRefs: boolean,
): Prepared | { errors: OutError[] } {
  if (!body || typeof body.query !== 'string' || body.query.trim() === '') {
    return err('A query attribute must be specified and must be a string.');
  }
  const variables =
    body.variables && typeof body.variables === 'object' && !Array.isArray(body.variables)
      ? (body.variables as Record<string, unknown>)
      : {};
  let document: DocumentNode;
  try {
    document = parse(body.query);
  } catch (e) {
    return { errors: [shape(e as GraphQLError)] };
  }
  if (!withUpdateRefs) {
    // GitHub's own words for the missing field (graphql-js would say it otherwise).
    const missing = document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .map(unservedMutation)
      .find((e) => e !== undefined);
    if (missing) return { errors: [missing] };
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { errors: invalid.map(shape) };
  const name = typeof body.operationName === 'string' ? body.operationName : undefined;
  const operation = chooseOperation(document, name);
  if (typeof operation === 'string') return err(operation);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return { document, operation, name, fragments, variables };
}

/** The operation named `name` (or the only one), when it is a query; else why not. */
function chooseOperation(document: DocumentNode, name: string | undefined): OperationDefinitionNode | string {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = name
    ? operations.find((o) => o.name?.value === name)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) {
    return name
      ? `No operation named "${name}"`
      : 'An operation name is required when the document has several operations';
  }
  if (operation.operation === 'subscription') return 'The emulator serves no subscriptions.';
  if (operation.operation === 'mutation' && !operation.selectionSet.selections.every(isUpdateRefs)) {
    return 'The emulator serves one mutation, updateRefs; this operation asks for others.';
  }
  return operation;
}

const isUpdateRefs = (s: OperationDefinitionNode['selectionSet']['selections'][number]) =>
  s.kind === Kind.FIELD && (s.name.value === 'updateRefs' || s.name.value === '__typename');

/**
 * On a host without `updateRefs`, the error its schema validation gives for the field (GitHub answers an
 * unknown field with `undefinedField`), so clients meet the refusal they would meet there.
 */
function unservedMutation(operation: OperationDefinitionNode): OutError | undefined {
  if (operation.operation !== 'mutation') return undefined;
  const field = operation.selectionSet.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'updateRefs');
  if (!field?.loc) return undefined;
  return {
    path: ['mutation', 'updateRefs'],
    extensions: { code: 'undefinedField', typeName: 'Mutation', fieldName: 'updateRefs' },
    locations: [{ line: field.loc.startToken.line, column: field.loc.startToken.column }],
    message: "Field 'updateRefs' doesn't exist on type 'Mutation'",
  };
}
