/**
 * The emulator's web-standard core: `(Request) → Promise<Response>`, with no Node API (Hono's layout).
 * It reads the request (./incoming.ts), applies latency and faults (./faults.ts), authenticates, charges
 * the rate limit, runs a route behind GitHub's checks (./dispatch.ts, ./routes/index.ts) and answers with
 * GitHub's headers (./answer.ts: CORS, ETag, `x-ratelimit-*`, `application/json; charset=utf-8`). The
 * node:http server (./node-server.ts) and the in-page emulator (./app.ts `fetch`) are thin adapters
 * around it.
 */
import { type Answer, chargeAndStamp, toAnswer } from './answer.js';
import { authenticate, type Caller } from './auth.js';
import { isCodeloadRequest, serveCodeload } from './codeload.js';
import { runRoute } from './dispatch.js';
import { answerFault, ConnectionDropped, type FaultBook } from './faults.js';
import { ALLOWED_HEADERS, ALLOWED_METHODS, baseHeaders, DOCS, JSON_TYPE } from './http.js';
import { type Incoming, logEntryOf, type RequestEnv, readIncoming } from './incoming.js';
import type { Budget } from './model.js';
import {
  type Admission,
  budgetOf,
  rateLimitHeaders,
  requestClass,
  type SecondaryLimits,
  secondaryLimitReply,
} from './rations.js';
import type { ResolvedOptions, ServedState } from './route-context.js';
import { matchRoute } from './router.js';
import { ROUTES } from './routes/index.js';
import type { Fault, RequestLogEntry, ResponseRecord } from './traffic.js';

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
  /** GitHub's secondary rate limits, when switched on (./rations.ts). */
  secondary?: SecondaryLimits;
  /** Settles when the emulator stops: requests left hanging by a `hang` fault are then dropped. */
  closed: Promise<void>;
}

/**
 * Answer one request. Rejects only with `ConnectionDropped` (a `reset`, `hang` or `drop-reply`
 * fault: the adapter destroys the connection; in a page it reads as a network error).
 *
 * @example
 * const res = await handleRequest(deps, new Request('http://em.local/repos/octo/data'));
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
  const incoming = await readIncoming(request, env, deps.options.maxBodyBytes);
  if (isCodeloadRequest(deps.options, request)) {
    const delay = latencyOf(deps.options.latencyMs);
    if (delay > 0) await sleep(delay);
    return serveCodeload(deps, incoming);
  }
  const entry = logEntryOf(incoming);
  if (incoming.method === 'OPTIONS') return answerPreflight(deps, incoming, entry);
  const delay = latencyOf(deps.options.latencyMs);
  if (delay > 0) await sleep(delay);
  const caller = authenticate(request.headers.get('authorization') ?? undefined, deps.state);
  entry.authenticated = caller.kind === 'token';
  // HEAD is answered like GET without a body, as on GitHub.
  const matched = matchRoute(ROUTES, incoming.method === 'HEAD' ? 'GET' : incoming.method, incoming.path);
  if (matched) entry.operation = matched.route.operation;
  const fault = deps.faults.take(incoming.method, incoming.path);
  if (fault && fault.kind !== 'drop-reply') return answerInjected(deps, request, fault, caller, entry);
  const budget = budgetOf(chargedAs(caller), deps.state, matched?.route.resource);
  const kind = requestClass(incoming.method, incoming.path, incoming.body.bytes, caller);
  if (kind?.content) entry.contentCreating = true;
  const admission = kind && deps.secondary ? deps.secondary.admit(kind, entry) : undefined;
  if (admission && !admission.ok) return answerLimited(deps, incoming, entry, admission, budget);
  let answer: Answer;
  try {
    const outcome = await runRoute(deps.state, deps.options, incoming, caller, matched);
    answer = await toAnswer(deps.options.subtle, incoming, caller, outcome);
    // A 304 or a HEAD carries no bytes: only an answer with a body served its blobs.
    const blobs = answer.payload && incoming.method !== 'HEAD' ? outcome.response.blobs : undefined;
    if (blobs?.length) entry.blobs = [...new Set(blobs)];
  } finally {
    admission?.release();
  }
  chargeAndStamp(answer, budget);
  logAnswer(deps, incoming, entry, answer, fault);
  if (fault?.kind === 'drop-reply') {
    // The write above has been applied; the client only loses the answer.
    entry.fault = 'drop-reply';
    throw new ConnectionDropped('drop-reply');
  }
  const body = incoming.method === 'HEAD' || !answer.payload ? null : (answer.payload as Uint8Array<ArrayBuffer>);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** Rejected credentials are charged (and shown) like an unauthenticated request. */
function chargedAs(caller: Caller): Caller {
  return caller.kind === 'bad' ? { kind: 'anonymous' } : caller;
}

/** CORS preflight, answered like api.github.com: no auth, no budget. */
function answerPreflight(deps: HandlerDeps, incoming: Incoming, entry: RequestLogEntry): Response {
  const preflight: Record<string, string> = {
    ...baseHeaders(),
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Max-Age': '86400',
    Vary: 'Accept-Encoding, Accept, X-Requested-With',
    // Preflights carry no credentials: show the unauthenticated budget, unchanged.
    ...rateLimitHeaders(deps.state.refreshBudget(deps.state.anonymousBudget)),
  };
  const { method, path } = incoming;
  observe(deps, { method, path, status: 204, injectedBody: false, headers: preflight });
  entry.status = 204;
  deps.log.push(entry);
  return new Response(null, { status: 204, headers: preflight });
}

/** A scripted fault answers instead of the route (on the core budget, which it does not charge). */
function answerInjected(
  deps: HandlerDeps,
  request: Request,
  fault: Fault,
  caller: Caller,
  entry: RequestLogEntry,
): Promise<Response> {
  entry.fault = fault.kind;
  return answerFault(fault, {
    budget: budgetOf(chargedAs(caller), deps.state),
    entry,
    log: deps.log,
    observe: (r) => observe(deps, r),
    signal: request.signal,
    closed: deps.closed,
  });
}

/** A secondary rate limit refused the request: GitHub's 403 (or 429), uncharged, logged and observed. */
function answerLimited(
  deps: HandlerDeps,
  incoming: Incoming,
  entry: RequestLogEntry,
  refused: Admission & { ok: false },
  budget: Budget,
): Response {
  const figures = (deps.secondary as SecondaryLimits).figures;
  const wording = refused.kind.startsWith('content') ? 'content' : 'general';
  const reply = secondaryLimitReply(figures.status, wording, budget, refused.retryAfter);
  const { method, path } = incoming;
  entry.status = reply.status;
  deps.log.push(entry);
  const body = method === 'HEAD' ? {} : { body: reply.text };
  const operation = entry.operation ? { operation: entry.operation } : {};
  observe(deps, {
    method,
    path,
    status: reply.status,
    ...operation,
    injectedBody: false,
    headers: reply.headers,
    ...body,
  });
  return new Response(method === 'HEAD' ? null : reply.text, { status: reply.status, headers: reply.headers });
}

/** Complete the log entry and show the answer to `onResponse`. */
function logAnswer(
  deps: HandlerDeps,
  incoming: Incoming,
  entry: RequestLogEntry,
  answer: Answer,
  fault: Fault | undefined,
): void {
  const { method, path } = incoming;
  const { status, headers, payload } = answer;
  entry.status = status;
  entry.costsBudget = answer.costs;
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
}

/** Hand an answer to the `onResponse` observer; its failures never change the answer. */
function observe(deps: Pick<HandlerDeps, 'options'>, record: ResponseRecord): void {
  if (!deps.options.onResponse) return;
  try {
    deps.options.onResponse(record);
  } catch (err) {
    console.error('[emulator] onResponse threw:', err);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function latencyOf(l: HandlerDeps['options']['latencyMs']): number {
  if (l === undefined) return 0;
  if (typeof l === 'number') return l;
  return l.min + Math.random() * (l.max - l.min);
}
