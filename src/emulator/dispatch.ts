/**
 * Running the matched route behind GitHub's checks, in GitHub's order: credentials, API version,
 * primary rate limit, body size, the route itself (404), repository access (404/401/403), the empty
 * repository (409), the JSON body (400). An `ApiError` from any of them, or from the route, becomes
 * GitHub's error answer; whether the request costs budget is decided here too.
 */
import { type Caller, checkRepoAccess } from './auth.js';
import { ApiError, type ApiResponse, DOCS, notFound, SUPPORTED_API_VERSIONS } from './http.js';
import type { Incoming } from './incoming.js';
import type { RepoRecord } from './model.js';
import { budgetOf, rateLimitExceeded } from './rations.js';
import type { ResolvedOptions, ServedState } from './route-context.js';
import type { RouteMatch } from './router.js';

type Matched = RouteMatch | undefined;

/** A route's answer, and whether it is charged to the caller's budget. */
export interface RouteOutcome {
  response: ApiResponse;
  costs: boolean;
}

/**
 * Answer with the matched route, or with the error one of GitHub's checks raises.
 *
 * @example
 * const { response, costs } = await runRoute(state, options, incoming, caller, matched);
 */
export async function runRoute(
  state: ServedState,
  options: ResolvedOptions,
  incoming: Incoming,
  caller: Caller,
  matched: Matched,
): Promise<RouteOutcome> {
  try {
    const response = await dispatch(state, options, incoming, caller, matched);
    return { response, costs: matched?.route.costs !== false };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const response = { status: err.status, body: err.toBody(), headers: err.headers };
    return { response, costs: errorCosts(err, caller, matched) };
  }
}

/** Rejected credentials and an exhausted budget do not consume budget; nor do free routes. */
function errorCosts(err: ApiError, caller: Caller, matched: Matched): boolean {
  if (err.status === 401 && caller.kind === 'bad') return false;
  if (err.message.startsWith('API rate limit exceeded')) return false;
  return matched?.route.costs !== false;
}

async function dispatch(
  state: ServedState,
  options: ResolvedOptions,
  incoming: Incoming,
  caller: Caller,
  matched: Matched,
): Promise<ApiResponse> {
  const doc = matched?.route.doc ?? DOCS;
  checkCaller(state, incoming.request, caller, matched);
  if (incoming.body.tooLarge) {
    throw new ApiError(
      413,
      `Request body is too large: ${incoming.body.size} bytes (the limit is ${options.maxBodyBytes} bytes).`,
      doc,
    );
  }
  if (!matched) throw notFound();
  const { route, params } = matched;
  const token = caller.kind === 'token' ? caller.token : undefined;
  let repo: RepoRecord | undefined;
  if (route.repoScoped) {
    const named = state.findRepo(`${params.owner}/${params.repo}`);
    repo = checkRepoAccess(state, caller, named, route.write === true, doc, route.permissions);
    if (route.emptyConflict && state.isEmpty(repo)) throw new ApiError(409, 'Git Repository is empty.', doc);
  }
  const body = parseJson(incoming, doc);
  const { query, path, urls } = incoming;
  const headers = incoming.request.headers;
  return route.handler({ state, options, urls, params, query, body, repo: repo as RepoRecord, token, path, headers });
}

/** Bad credentials (401), an unsupported `X-GitHub-Api-Version` (400), an exhausted budget (403). */
function checkCaller(state: ServedState, request: Request, caller: Caller, matched: Matched): void {
  if (caller.kind === 'bad') throw new ApiError(401, 'Bad credentials', DOCS);
  const version = request.headers.get('x-github-api-version');
  if (version !== null && !SUPPORTED_API_VERSIONS.has(version)) {
    throw new ApiError(
      400,
      `API version ${version} is not supported.`,
      'https://docs.github.com/rest/about-the-rest-api/api-versions',
    );
  }
  const budget = budgetOf(caller, state);
  if (matched?.route.costs !== false && budget.used >= budget.limit) throw rateLimitExceeded(caller);
}

/**
 * Deepest nesting a request body may have. GitHub's REST API parses bodies with a nesting limit and
 * answers 400 "Problems parsing JSON" past it (Ruby's JSON parser defaults to 100 levels; inferred, as
 * GitHub does not document it). No request of the API needs more than a handful of levels.
 */
export const MAX_BODY_NESTING = 100;

/** The JSON body of a request that may carry one (400 "Problems parsing JSON" when it is not JSON). */
function parseJson(incoming: Incoming, doc: string): unknown {
  const { method, body } = incoming;
  if (method === 'GET' || method === 'HEAD' || body.bytes.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body.bytes));
  } catch {
    throw new ApiError(400, 'Problems parsing JSON', doc);
  }
  if (nestingDepth(value) > MAX_BODY_NESTING) throw new ApiError(400, 'Problems parsing JSON', doc);
  return value;
}

/** Nesting depth of a parsed JSON value, without recursion (a deep value must not overflow the stack). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_BODY_NESTING) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}
