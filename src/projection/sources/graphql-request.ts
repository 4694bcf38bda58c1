/**
 * Running one GraphQL query of a source: the GraphQL budget is checked first and the answer's `rateLimit`
 * read after. GraphQL reports problems with HTTP 200 and `errors` next to partial `data` (Octokit throws a
 * GraphqlResponseError for them): NOT_FOUND for one alias becomes docdb's NotFound naming the repository,
 * RATE_LIMITED becomes RateLimited, anything else an InvalidResponse that suggests `api: rest`.
 */
import { AuthMissing, InvalidResponse, NotFound, RateLimited } from '../../core/errors.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../../core/input-names.js';
import type { ReadContext } from './read-context.js';
import { SOURCE_OPERATION, sourceError } from './source-error.js';

type GraphqlErrors = { type?: string; path?: (string | number)[]; message?: string }[];

interface GraphqlFailure {
  errors?: GraphqlErrors;
  data?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  response?: unknown;
  status?: unknown;
}

/**
 * Run one query costing `points`; `what` names it in messages, `aliasNames` maps an alias (`r0`) to the
 * repository it reads, so a NOT_FOUND can name the repository.
 *
 * @example
 * const data = await graphqlQuery(ctx, repositoriesQuery(1), { o0: 'octo', n0: 'hello' }, 'GraphQL repositories octo/hello', 1, { r0: 'octo/hello' });
 */
export async function graphqlQuery(
  ctx: ReadContext,
  text: string,
  variables: Record<string, unknown>,
  what: string,
  points: number,
  aliasNames: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  if (!ctx.client.graphql) {
    throw new InvalidResponse(`${what}: the client has no graphql(); use api: rest`, { operation: SOURCE_OPERATION });
  }
  ctx.budget.check('graphql', what, points);
  let data: Record<string, unknown>;
  try {
    data = (await ctx.client.graphql(text, variables)) as Record<string, unknown>;
  } catch (e) {
    throw queryError(ctx, e, variables, what, aliasNames);
  }
  const rl = data?.rateLimit as { remaining?: number; limit?: number; resetAt?: string } | undefined;
  if (rl && typeof rl.remaining === 'number') {
    ctx.budget.observe('graphql', {
      remaining: rl.remaining,
      limit: Number(rl.limit ?? 0),
      reset: rl.resetAt ? Math.floor(Date.parse(rl.resetAt) / 1000) : 0,
    });
  }
  return data;
}

/** docdb's error for a failed query: a failed request, or an answer with `errors`. */
function queryError(
  ctx: ReadContext,
  e: unknown,
  variables: Record<string, unknown>,
  what: string,
  aliasNames: Record<string, string>,
): unknown {
  const f = e as GraphqlFailure;
  // Octokit's GraphqlResponseError has `errors`; plugin-throttling's "GraphQL Rate Limit Exceeded" has the
  // answer on `response` (HTTP 200, `errors` in its body).
  const response = f?.response as { data?: { errors?: GraphqlErrors }; headers?: Record<string, unknown> } | undefined;
  const errors = Array.isArray(f?.errors) ? f.errors : response?.data?.errors;
  if (!Array.isArray(errors)) return requestError(e, what, ctx.inputNames ?? ACTION_INPUT_NAMES);
  const headers = f.headers ?? response?.headers;
  ctx.budget.observeHeaders(headers);
  return answerError(errors, headers, variables, what, aliasNames);
}

/** The request itself failed (no GraphQL answer): the one status mapping, worded for GraphQL's token rule. */
function requestError(e: unknown, what: string, names: InputNames): unknown {
  const mapped = sourceError(e, what, '/graphql');
  if (mapped instanceof AuthMissing) {
    // REST reads public repositories anonymously; GitHub's GraphQL API never does.
    return new AuthMissing(
      `${what}: GitHub's GraphQL API needs a token. Set ${names.phrase('token')}, or "api: rest" on the source to read public repositories without one`,
      { ...mapped.data },
      { cause: e },
    );
  }
  return mapped;
}

/** GitHub answered with `errors`: rate limited, a repository not found, or anything else. */
function answerError(
  errors: GraphqlErrors,
  headers: Record<string, unknown> | undefined,
  variables: Record<string, unknown>,
  what: string,
  aliasNames: Record<string, string>,
): Error {
  const limited = errors.find((x) => x.type === 'RATE_LIMITED');
  if (limited) {
    const reset = Number(headers?.['x-ratelimit-reset'] ?? 0) || undefined;
    return new RateLimited(`${what}: GitHub GraphQL rate limit exceeded: ${limited.message ?? ''}`.trim(), {
      ...(reset ? { reset } : {}),
      operation: SOURCE_OPERATION,
    });
  }
  const missing = errors.find((x) => x.type === 'NOT_FOUND');
  if (missing) {
    const alias = String(missing.path?.[0] ?? '');
    const repository = aliasNames[alias] ?? String(variables.login ?? what);
    return new NotFound(
      `source repository ${repository} not found (GraphQL: ${missing.message ?? 'NOT_FOUND'}): check the name in the projection spec, and that the token can read it (private repositories of another owner need a token with access; the workflow's GITHUB_TOKEN only sees its own repository)`,
      { operation: SOURCE_OPERATION, repository },
    );
  }
  const messages = errors.map((x) => `${x.type ? `${x.type}: ` : ''}${x.message ?? ''}`).join('; ');
  return new InvalidResponse(
    `${what}: GitHub's GraphQL API answered with errors: ${messages}. If this is a GitHub Enterprise Server without these fields, set "api: rest" on the source`,
    { operation: SOURCE_OPERATION, errors },
  );
}
