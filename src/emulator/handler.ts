/**
 * The emulator's web-standard core: `(Request) → Promise<Response>`, with no Node API (Hono's layout).
 * It reads the request, applies latency and faults (./faults.ts), authenticates, charges the rate
 * limit, dispatches to a route (./routes/index.ts) and answers with GitHub's headers (CORS, ETag,
 * `x-ratelimit-*`, `application/json; charset=utf-8`). The node:http server (./node-server.ts) and the
 * in-page emulator (./app.ts `fetch`) are thin adapters around it.
 */
import { concatBytes, toHex, utf8 } from '../core/bytes.js';
import { sha1Hex } from '../core/git/sha1.js';
import { authenticate, budgetOf, type Caller, checkRepoAccess, rateLimitExceeded, rateLimitHeaders } from './auth.js';
import { answerFault, ConnectionDropped, type FaultBook } from './faults.js';
import {
  ALLOWED_HEADERS,
  ALLOWED_METHODS,
  ApiError,
  type ApiResponse,
  baseHeaders,
  DOCS,
  JSON_TYPE,
  notFound,
} from './http.js';
import type { ResolvedOptions, ServedState } from './route-context.js';
import { matchRoute } from './router.js';
import { ROUTES } from './routes/index.js';
import type { RequestLogEntry, ResponseRecord } from './traffic.js';

const SUPPORTED_API_VERSIONS = new Set(['2022-11-28', '2026-03-10']);

export interface HandlerDeps {
  state: ServedState;
  options: ResolvedOptions & {
    latencyMs?: number | { min: number; max: number };
    onResponse?: (response: ResponseRecord) => void;
    /** WebCrypto for ETags (default: `globalThis.crypto.subtle`, read per request). */
    subtle?: SubtleCrypto;
  };
  faults: FaultBook;
  log: RequestLogEntry[];
  /** Settles when the emulator stops: requests left hanging by a `hang` fault are then dropped. */
  closed: Promise<void>;
}

/** What an adapter knows beyond the Request (like Hono's `env`). */
export interface RequestEnv {
  /**
   * The request-target as the client sent it (path and query), unnormalised. A `Request` URL has
   * `..` segments resolved; the node adapter passes the raw target so a traversal never reaches
   * another route.
   */
  rawTarget?: string;
}

interface Body {
  bytes: Uint8Array;
  tooLarge: boolean;
  size: number;
}

/** Read the whole body, keeping at most `limit` bytes (the rest is drained so the reply can be read). */
async function readBody(request: Request, limit: number): Promise<Body> {
  if (!request.body) return { bytes: new Uint8Array(0), tooLarge: false, size: 0 };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLarge = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      tooLarge = true;
      chunks.length = 0;
    } else if (!tooLarge) chunks.push(value);
  }
  return { bytes: concatBytes(chunks), tooLarge, size };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function latencyOf(l: HandlerDeps['options']['latencyMs']): number {
  if (l === undefined) return 0;
  if (typeof l === 'number') return l;
  return l.min + Math.random() * (l.max - l.min);
}

function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((s) => s.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === opaque);
}

/** SHA-256 hex with WebCrypto; where there is none (an insecure browser context), a SHA-1-derived 64-hex value. */
async function digestHex(deps: HandlerDeps, data: Uint8Array): Promise<string> {
  const subtle = deps.options.subtle ?? (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (subtle) return toHex(new Uint8Array(await subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)));
  const a = sha1Hex(data);
  return (a + sha1Hex(utf8(a))).slice(0, 64);
}

/** Hand an answer to the `onResponse` observer; its failures never change the answer. */
export function observe(deps: Pick<HandlerDeps, 'options'>, record: ResponseRecord): void {
  if (!deps.options.onResponse) return;
  try {
    deps.options.onResponse(record);
  } catch (err) {
    console.error('[emulator] onResponse threw:', err);
  }
}

/**
 * Answer one request. Rejects only with `ConnectionDropped` (a `reset`, `hang` or `drop-reply`
 * fault: the adapter destroys the connection; in a page it reads as a network error).
 */
export async function handleRequest(deps: HandlerDeps, request: Request, env: RequestEnv = {}): Promise<Response> {
  try {
    return await handle(deps, request, env);
  } catch (err) {
    if (err instanceof ConnectionDropped) throw err;
    // Only reachable on a bug; answer like GitHub's generic 500 rather than crash the emulator.
    console.error('[emulator] internal error:', err);
    const body = JSON.stringify({ message: 'Server Error', documentation_url: DOCS, status: '500' });
    return new Response(body, { status: 500, headers: { ...baseHeaders(), 'Content-Type': JSON_TYPE } });
  }
}

async function handle(deps: HandlerDeps, request: Request, env: RequestEnv): Promise<Response> {
  const { state, options } = deps;
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  const raw = env.rawTarget ?? `${url.pathname}${url.search}`;
  const qi = raw.indexOf('?');
  // The raw path is matched without normalisation, so `..` segments can never reach another route.
  const path = qi < 0 ? raw : raw.slice(0, qi);
  const queryString = qi < 0 ? '' : raw.slice(qi + 1);
  const query = new URLSearchParams(queryString);
  const entry: RequestLogEntry = {
    method,
    path,
    query: queryString,
    status: 0,
    costsBudget: false,
    authenticated: false,
  };
  const urls = { api: url.origin, html: 'https://github.com' };
  const body = await readBody(request, options.maxBodyBytes);

  if (method === 'OPTIONS') {
    // CORS preflight, answered like api.github.com: no auth, no budget.
    const preflight: Record<string, string> = {
      ...baseHeaders(),
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      'Access-Control-Max-Age': '86400',
      Vary: 'Accept-Encoding, Accept, X-Requested-With',
      // Preflights carry no credentials: show the unauthenticated budget, unchanged.
      ...rateLimitHeaders(state.refreshBudget(state.anonymousBudget)),
    };
    observe(deps, { method, path, status: 204, injectedBody: false, headers: preflight });
    entry.status = 204;
    deps.log.push(entry);
    return new Response(null, { status: 204, headers: preflight });
  }

  const delay = latencyOf(options.latencyMs);
  if (delay > 0) await sleep(delay);

  const caller = authenticate(request.headers.get('authorization') ?? undefined, state);
  entry.authenticated = caller.kind === 'token';
  // HEAD is answered like GET without a body, as on GitHub.
  const matched = matchRoute(ROUTES, method === 'HEAD' ? 'GET' : method, path);
  if (matched) entry.operation = matched.route.operation;

  const fault = deps.faults.take(method, path);
  if (fault && fault.kind !== 'drop-reply') {
    entry.fault = fault.kind;
    const budget = budgetOf(caller.kind === 'bad' ? { kind: 'anonymous' } : caller, state);
    return answerFault(fault, {
      budget,
      entry,
      log: deps.log,
      observe: (r) => observe(deps, r),
      signal: request.signal,
      closed: deps.closed,
    });
  }

  let response: ApiResponse;
  let costs = true;
  const budget = budgetOf(caller.kind === 'bad' ? { kind: 'anonymous' } : caller, state, matched?.route.resource);
  try {
    response = await dispatch(deps, request, method, path, query, body, caller, matched, urls);
    costs = matched?.route.costs !== false;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    response = { status: err.status, body: err.toBody(), headers: err.headers };
    // Rejected credentials and an exhausted budget do not consume budget.
    costs = err.status !== 401 || caller.kind !== 'bad';
    if (err.message.startsWith('API rate limit exceeded')) costs = false;
    if (matched?.route.costs === false) costs = false;
  }

  const headers: Record<string, string> = { ...baseHeaders(), ...(response.headers ?? {}) };
  let payload: Uint8Array | undefined;
  let status = response.status;
  if (response.body !== undefined) {
    payload = utf8(JSON.stringify(response.body));
    headers['Content-Type'] = JSON_TYPE;
  }
  if (status >= 200 && status < 300 && payload) {
    // ETags depend on who asks (GitHub varies them by Authorization); the token itself is never hashed in.
    const who = caller.kind === 'token' ? caller.token.key : 'anonymous';
    const etag = `W/"${await digestHex(deps, concatBytes([utf8(who), new Uint8Array([0]), payload]))}"`;
    headers.ETag = etag;
    headers['Cache-Control'] =
      caller.kind === 'token' ? 'private, max-age=60, s-maxage=60' : 'public, max-age=60, s-maxage=60';
    headers.Vary = 'Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, X-Requested-With';
    const conditional = request.headers.get('if-none-match');
    if ((method === 'GET' || method === 'HEAD') && status === 200 && etagMatches(conditional, etag)) {
      status = 304;
      payload = undefined;
      delete headers['Content-Type'];
      // A 304 to an authorized request costs no primary rate limit (GitHub's documented rule).
      if (caller.kind === 'token') costs = false;
    }
  }
  if (caller.kind === 'token') headers['X-OAuth-Scopes'] = 'repo';
  const version = request.headers.get('x-github-api-version');
  if (version !== null && SUPPORTED_API_VERSIONS.has(version)) headers['X-GitHub-Api-Version-Selected'] = version;
  if (costs) budget.used++;
  Object.assign(headers, rateLimitHeaders(budget));
  if (payload) headers['Content-Length'] = String(payload.length);

  entry.status = status;
  entry.costsBudget = costs;
  deps.log.push(entry);
  observe(deps, {
    method,
    path,
    status,
    ...(entry.operation ? { operation: entry.operation } : {}),
    ...(fault ? { fault: fault.kind } : {}),
    injectedBody: false,
    headers,
    ...(payload && method !== 'HEAD' ? { body: new TextDecoder().decode(payload) } : {}),
  });

  if (fault?.kind === 'drop-reply') {
    // The write above has been applied; the client only loses the answer.
    entry.fault = 'drop-reply';
    throw new ConnectionDropped('drop-reply');
  }
  return new Response(method === 'HEAD' || !payload ? null : (payload as Uint8Array<ArrayBuffer>), {
    status,
    headers,
  });
}

async function dispatch(
  deps: HandlerDeps,
  request: Request,
  method: string,
  path: string,
  query: URLSearchParams,
  body: Body,
  caller: Caller,
  matched: ReturnType<typeof matchRoute>,
  urls: { api: string; html: string },
): Promise<ApiResponse> {
  const { state } = deps;
  const doc = matched?.route.doc ?? DOCS;
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
  if (body.tooLarge) {
    throw new ApiError(
      413,
      `Request body is too large: ${body.size} bytes (the limit is ${deps.options.maxBodyBytes} bytes).`,
      doc,
    );
  }
  if (!matched) throw notFound();
  const { route, params } = matched;
  const token = caller.kind === 'token' ? caller.token : undefined;
  let repo = undefined as ReturnType<ServedState['findRepo']>;
  if (route.repoScoped) {
    repo = checkRepoAccess(state, caller, state.findRepo(`${params.owner}/${params.repo}`), route.write === true, doc);
    if (route.emptyConflict && state.isEmpty(repo)) throw new ApiError(409, 'Git Repository is empty.', doc);
  }
  let parsed: unknown;
  if (method !== 'GET' && method !== 'HEAD' && body.bytes.length > 0) {
    try {
      parsed = JSON.parse(new TextDecoder().decode(body.bytes));
    } catch {
      throw new ApiError(400, 'Problems parsing JSON', doc);
    }
  }
  return route.handler({
    state,
    options: deps.options,
    urls,
    params,
    query,
    body: parsed,
    repo: repo as NonNullable<typeof repo>,
    token,
    path,
  });
}
