/**
 * The HTTP front of the emulator: reads a request, applies latency and faults (./faults.ts), authenticates, charges
 * the rate limit, dispatches to a route and writes the answer with GitHub's headers (CORS, ETag,
 * `x-ratelimit-*`, `application/json; charset=utf-8`).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, budgetOf, type Caller, checkRepoAccess, rateLimitExceeded, rateLimitHeaders } from './auth.js';
import { applyFault, type FaultBook } from './faults.js';
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
import { compileRoute, matchRoute, type ResolvedOptions, type Route, type RouteDef } from './router.js';
import { gitRoutes } from './routes/git.js';
import { issueRoutes } from './routes/issues.js';
import { repoRoutes } from './routes/repos.js';
import type { EmulatorState } from './state.js';
import type { RequestLogEntry, ResponseRecord } from './types.js';

const ROUTES: Route[] = ([] as RouteDef[]).concat(gitRoutes, repoRoutes, issueRoutes).map(compileRoute);

const SUPPORTED_API_VERSIONS = new Set(['2022-11-28', '2026-03-10']);

export interface ServerDeps {
  state: EmulatorState;
  options: ResolvedOptions & {
    latencyMs?: number | { min: number; max: number };
    host: string;
    onResponse?: (response: ResponseRecord) => void;
  };
  faults: FaultBook;
  log: RequestLogEntry[];
  /** Responses left hanging by a `hang` fault, ended on stop(). */
  hanging: Set<ServerResponse>;
  port: () => number;
}

interface Body {
  bytes: Buffer;
  tooLarge: boolean;
  size: number;
}

/** Read the whole body, keeping at most `limit` bytes (the rest is drained so the reply can be read). */
function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(c);
    });
    req.on('end', () => resolve({ bytes: Buffer.concat(chunks), tooLarge, size }));
    req.on('error', reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function latencyOf(l: ServerDeps['options']['latencyMs']): number {
  if (l === undefined) return 0;
  if (typeof l === 'number') return l;
  return l.min + Math.random() * (l.max - l.min);
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((s) => s.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === opaque);
}

function safeHost(req: IncomingMessage, deps: ServerDeps): string {
  const h = req.headers.host;
  if (h && /^[A-Za-z0-9.\-:[\]]+$/.test(h)) return h;
  return `${deps.options.host}:${deps.port()}`;
}

/** Hand an answer to the `onResponse` observer; its failures never change the answer. */
export function observe(deps: Pick<ServerDeps, 'options'>, record: ResponseRecord): void {
  if (!deps.options.onResponse) return;
  try {
    deps.options.onResponse(record);
  } catch (err) {
    console.error('[emulator] onResponse threw:', err);
  }
}

/** Build the request handler for node:http. */
export function createHandler(deps: ServerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err) => {
      // Only reachable on a bug; answer like GitHub's generic 500 rather than crash the emulator.
      console.error('[emulator] internal error:', err);
      if (!res.headersSent && !res.destroyed) {
        const body = Buffer.from(JSON.stringify({ message: 'Server Error', documentation_url: DOCS, status: '500' }));
        res.writeHead(500, { ...baseHeaders(), 'Content-Type': JSON_TYPE, 'Content-Length': String(body.length) });
        res.end(body);
      }
    });
  };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { state, options } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const raw = req.url ?? '/';
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
  const urls = { api: `http://${safeHost(req, deps)}`, html: 'https://github.com' };

  let body: Body;
  try {
    body = await readBody(req, options.maxBodyBytes);
  } catch {
    return; // the client went away while sending; nothing to answer
  }

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
    res.writeHead(204, preflight);
    res.end();
    entry.status = 204;
    deps.log.push(entry);
    return;
  }

  const delay = latencyOf(options.latencyMs);
  if (delay > 0) await sleep(delay);

  const caller = authenticate(req.headers.authorization, state);
  entry.authenticated = caller.kind === 'token';
  // HEAD is answered like GET without a body, as on GitHub.
  const matched = matchRoute(ROUTES, method === 'HEAD' ? 'GET' : method, path);
  if (matched) entry.operation = matched.route.operation;

  const fault = deps.faults.take(method, path);
  if (fault && fault.kind !== 'drop-reply') {
    entry.fault = fault.kind;
    const budget = budgetOf(caller.kind === 'bad' ? { kind: 'anonymous' } : caller, state);
    applyFault(fault, res, {
      budget,
      entry,
      log: deps.log,
      hanging: deps.hanging,
      observe: (r) => observe(deps, r),
    });
    return;
  }

  let response: ApiResponse;
  let costs = true;
  const budget = budgetOf(caller.kind === 'bad' ? { kind: 'anonymous' } : caller, state);
  try {
    response = dispatch(deps, req, method, path, query, body, caller, matched, urls);
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
  let payload: Buffer | undefined;
  let status = response.status;
  if (response.body !== undefined) {
    payload = Buffer.from(JSON.stringify(response.body));
    headers['Content-Type'] = JSON_TYPE;
  }
  if (status >= 200 && status < 300 && payload) {
    // ETags depend on who asks (GitHub varies them by Authorization); the token itself is never hashed in.
    const who = caller.kind === 'token' ? caller.token.key : 'anonymous';
    const etag = `W/"${createHash('sha256').update(who).update('\0').update(payload).digest('hex')}"`;
    headers.ETag = etag;
    headers['Cache-Control'] =
      caller.kind === 'token' ? 'private, max-age=60, s-maxage=60' : 'public, max-age=60, s-maxage=60';
    headers.Vary = 'Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, X-Requested-With';
    if ((method === 'GET' || method === 'HEAD') && status === 200 && etagMatches(req.headers['if-none-match'], etag)) {
      status = 304;
      payload = undefined;
      delete headers['Content-Type'];
      // A 304 to an authorized request costs no primary rate limit (GitHub's documented rule).
      if (caller.kind === 'token') costs = false;
    }
  }
  if (caller.kind === 'token') headers['X-OAuth-Scopes'] = 'repo';
  const version = req.headers['x-github-api-version'];
  if (typeof version === 'string' && SUPPORTED_API_VERSIONS.has(version))
    headers['X-GitHub-Api-Version-Selected'] = version;
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
    ...(payload && method !== 'HEAD' ? { body: payload.toString('utf8') } : {}),
  });

  if (fault?.kind === 'drop-reply') {
    // The write above has been applied; the client only loses the answer.
    entry.fault = 'drop-reply';
    req.socket.destroy();
    return;
  }
  res.writeHead(status, headers);
  res.end(method === 'HEAD' ? undefined : payload);
}

function dispatch(
  deps: ServerDeps,
  req: IncomingMessage,
  method: string,
  path: string,
  query: URLSearchParams,
  body: Body,
  caller: Caller,
  matched: ReturnType<typeof matchRoute>,
  urls: { api: string; html: string },
): ApiResponse {
  const { state } = deps;
  const doc = matched?.route.doc ?? DOCS;
  if (caller.kind === 'bad') throw new ApiError(401, 'Bad credentials', DOCS);
  const version = req.headers['x-github-api-version'];
  if (typeof version === 'string' && !SUPPORTED_API_VERSIONS.has(version)) {
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
  let repo = undefined as ReturnType<EmulatorState['findRepo']>;
  if (route.repoScoped) {
    repo = checkRepoAccess(state, caller, state.findRepo(`${params.owner}/${params.repo}`), route.write === true, doc);
    if (route.emptyConflict && state.isEmpty(repo)) throw new ApiError(409, 'Git Repository is empty.', doc);
  }
  let parsed: unknown;
  if (method !== 'GET' && method !== 'HEAD' && body.bytes.length > 0) {
    try {
      parsed = JSON.parse(body.bytes.toString('utf8'));
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
