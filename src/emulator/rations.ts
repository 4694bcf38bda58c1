/**
 * GitHub's rations, in the one module every API request passes through: the primary budgets (which
 * budget a request charges, its `x-ratelimit-*` headers, the 403 once it is spent; charged in
 * ./answer.ts, GraphQL points by ./graphql/) and the secondary rate limits, per token (the handler admits
 * each request here before its route runs).
 * https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api
 *
 * Secondary limits:
 * Figures and answers as GitHub documents them
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits,
 * https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api):
 * - at most 100 concurrent requests;
 * - at most 900 points a minute for the REST API (GET, HEAD, OPTIONS cost 1 point, POST, PATCH, PUT,
 *   DELETE 5) and 2,000 for GraphQL (a query 1 point, a mutation 5);
 * - "in general, no more than 80 content-generating requests per minute and no more than 500
 *   content-generating requests per hour": here every POST, PATCH, PUT and DELETE of the REST API and
 *   every GraphQL mutation (GitHub does not list which requests generate content; the strict reading).
 * A request over a limit gets 403 with GitHub's message and `documentation_url`, and `retry-after` when the
 * limit has a known end (the windows: when enough of the window's requests have aged out); the concurrency
 * limit has none (GitHub's clients then wait at least a minute). Windows slide over the emulator's clock
 * (`now`, injectable), so tests never sleep. A rejected request costs nothing: its `retry-after` is exact.
 */
import type { Caller } from './auth.js';
import { ApiError, baseHeaders, JSON_TYPE } from './http.js';
import type { Budget } from './model.js';
import type { ServedState } from './route-context.js';
import type { RequestLogEntry, SecondaryLimitKind } from './traffic.js';

/**
 * The budget a request charges: the caller's REST (`core`) budget, or its GraphQL points for `/graphql`.
 *
 * @example
 * budgetOf({ kind: 'anonymous' }, state).limit; // the unauthenticated limit (60 by default)
 */
export function budgetOf(caller: Caller, state: ServedState, resource: 'core' | 'graphql' = 'core'): Budget {
  if (caller.kind === 'token') {
    return state.refreshBudget(resource === 'graphql' ? caller.token.graphqlBudget : caller.token.budget);
  }
  return state.refreshBudget(state.anonymousBudget);
}

/**
 * The `x-ratelimit-*` headers of a budget (remaining never below 0).
 *
 * @example
 * rateLimitHeaders({ limit: 60, used: 1, reset: 1700000000 })['X-RateLimit-Remaining']; // '59'
 */
export function rateLimitHeaders(b: Budget): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(b.limit),
    'X-RateLimit-Remaining': String(Math.max(0, b.limit - b.used)),
    'X-RateLimit-Used': String(b.used),
    'X-RateLimit-Reset': String(b.reset),
    'X-RateLimit-Resource': b.resource ?? 'core',
  };
}

/**
 * 403 with GitHub's wording once a budget is used up.
 *
 * @example
 * if (budget.used >= budget.limit) throw rateLimitExceeded(caller);
 */
export function rateLimitExceeded(caller: Caller): ApiError {
  const doc = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits';
  if (caller.kind === 'token') {
    return new ApiError(403, `API rate limit exceeded for user ID ${caller.token.user.id}.`, doc);
  }
  return new ApiError(
    403,
    "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)",
    doc,
  );
}

/** The figures the emulator enforces, per token (anonymous callers share one set, as they share an IP). */
export interface SecondaryLimitFigures {
  /** Content-generating requests (mutating REST, GraphQL mutations) per sliding minute; GitHub: 80. */
  contentPerMinute: number;
  /** The same per sliding hour; GitHub: 500. */
  contentPerHour: number;
  /** Requests in flight at once (REST and GraphQL together); GitHub: 100. */
  concurrent: number;
  /** REST points per sliding minute (a read 1, a write 5); GitHub: 900. */
  restPointsPerMinute: number;
  /** GraphQL points per sliding minute (a query 1, a mutation 5); GitHub: 2,000. */
  graphqlPointsPerMinute: number;
  /** Status of the answer: 403 (what GitHub sends for content creation) or 429. */
  status: 403 | 429;
}

/** GitHub's published figures (looked up 2026-11, see the module comment). */
export const GITHUB_SECONDARY_LIMITS: Readonly<SecondaryLimitFigures> = {
  contentPerMinute: 80,
  contentPerHour: 500,
  concurrent: 100,
  restPointsPerMinute: 900,
  graphqlPointsPerMinute: 2000,
  status: 403,
};

/** Points of a request that writes (GitHub: POST, PATCH, PUT, DELETE and GraphQL mutations). */
const WRITE_POINTS = 5;
const MINUTE = 60_000;
const HOUR = 3_600_000;

export const SECONDARY_DOC =
  'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits';
/** GitHub's two wordings: content creation blocked, and every other secondary limit. */
const MESSAGES = {
  content:
    'You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.',
  general:
    'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
};

/**
 * `startEmulator`'s `secondaryLimits` option: true for GitHub's figures, false (or undefined) for none,
 * or some figures (the rest GitHub's). Throws naming the figure on a bad value.
 *
 * @example
 * resolveSecondaryLimits({ contentPerHour: 100 })?.contentPerMinute; // 80
 * resolveSecondaryLimits(false); // undefined
 */
export function resolveSecondaryLimits(
  v: boolean | Partial<SecondaryLimitFigures> | undefined,
): SecondaryLimitFigures | undefined {
  if (v === undefined || v === false) return undefined;
  if (v === true) return { ...GITHUB_SECONDARY_LIMITS };
  if (typeof v !== 'object' || v === null) {
    throw new Error(`startEmulator: secondaryLimits must be true, false or an object of figures, got ${String(v)}`);
  }
  const out = { ...GITHUB_SECONDARY_LIMITS };
  for (const [k, value] of Object.entries(v)) {
    if (!(k in out)) {
      throw new Error(`startEmulator: secondaryLimits.${k} is not a figure (${Object.keys(out).join(', ')})`);
    }
    if (k === 'status') {
      if (value !== 403 && value !== 429) throw new Error(`startEmulator: secondaryLimits.status must be 403 or 429`);
      out.status = value;
      continue;
    }
    const min = k.includes('Points') ? WRITE_POINTS : 1;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      throw new Error(
        `startEmulator: secondaryLimits.${k} must be an integer of at least ${min}, got ${String(value)}`,
      );
    }
    (out as Record<string, number | 403 | 429>)[k] = value;
  }
  return out;
}

/** Timestamped weights within a sliding window. */
type Events = { t: number; w: number }[];

/** One token's windows and requests in flight. */
interface Windows {
  content: number[];
  rest: Events;
  graphql: Events;
  inFlight: number;
  /** The latest end of a `retry-after` this token was told (epoch ms): requests before it came too early. */
  blockedUntil: number;
}

/** What a request is, for the limits. */
export interface RequestClass {
  /** `anonymous`, or a token's internal key (never the token). */
  who: string;
  graphql: boolean;
  /** Costs 5 points: a REST write or a GraphQL mutation. */
  writes: boolean;
  /** Counts against the content-creation limits. */
  content: boolean;
}

/**
 * Classify a request for the limits; undefined for rejected credentials (answered 401, never limited).
 *
 * @example
 * requestClass('POST', '/repos/o/r/git/trees', body, caller); // { who, graphql: false, writes: true, content: true }
 */
export function requestClass(method: string, path: string, body: Uint8Array, caller: Caller): RequestClass | undefined {
  if (caller.kind === 'bad') return undefined;
  const who = caller.kind === 'token' ? caller.token.key : 'anonymous';
  const graphql = path === '/graphql';
  const writes = graphql ? method === 'POST' && isGraphqlMutation(body) : !['GET', 'HEAD', 'OPTIONS'].includes(method);
  return { who, graphql, writes, content: writes };
}

/** Admitted (call `release` once answered), or refused with the limit and, when it has an end, the wait. */
export type Admission =
  | { ok: true; release: () => void }
  | { ok: false; kind: SecondaryLimitKind; retryAfter?: number };

/**
 * The secondary limits of one emulator: admit a request or say which limit refuses it and for how long.
 *
 * @example
 * const rations = new SecondaryLimits(GITHUB_SECONDARY_LIMITS, () => Date.now());
 * const a = rations.admit({ who: 'alice', graphql: false, writes: true, content: true }, entry);
 * if (a.ok) { answer(); a.release(); }
 */
export class SecondaryLimits {
  private readonly byWho = new Map<string, Windows>();

  constructor(
    readonly figures: SecondaryLimitFigures,
    private readonly now: () => number,
  ) {}

  admit(c: RequestClass, entry: RequestLogEntry): Admission {
    const now = this.now();
    const w = this.windows(c.who, now);
    // Sent before a retry-after this caller was given had passed: what a well-behaved client never does.
    if (now < w.blockedUntil) entry.insideRetryAfter = true;
    const refused = this.refusal(c, w, now);
    if (refused) {
      entry.limited = refused.kind;
      if (refused.retryAfter !== undefined) w.blockedUntil = Math.max(w.blockedUntil, now + refused.retryAfter * 1000);
      return refused;
    }
    const points = c.writes ? WRITE_POINTS : 1;
    (c.graphql ? w.graphql : w.rest).push({ t: now, w: points });
    if (c.content) w.content.push(now);
    w.inFlight++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (!released) w.inFlight--;
        released = true;
      },
    };
  }

  /** The first limit the request would break, in GitHub's order of cheapness to check. */
  private refusal(c: RequestClass, w: Windows, now: number): (Admission & { ok: false }) | undefined {
    const f = this.figures;
    if (w.inFlight >= f.concurrent) return { ok: false, kind: 'concurrent' };
    const points = c.writes ? WRITE_POINTS : 1;
    const [events, limit, kind] = c.graphql
      ? [w.graphql, f.graphqlPointsPerMinute, 'graphql-points' as const]
      : [w.rest, f.restPointsPerMinute, 'rest-points' as const];
    const pointsWait = waitFor(events, points, limit, MINUTE, now);
    if (pointsWait > 0) return { ok: false, kind, retryAfter: seconds(pointsWait) };
    if (!c.content) return undefined;
    const stamps = w.content.map((t) => ({ t, w: 1 }));
    const minuteWait = waitFor(stamps, 1, f.contentPerMinute, MINUTE, now);
    const hourWait = waitFor(stamps, 1, f.contentPerHour, HOUR, now);
    if (hourWait > 0 && hourWait >= minuteWait) {
      return { ok: false, kind: 'content-hour', retryAfter: seconds(hourWait) };
    }
    if (minuteWait > 0) return { ok: false, kind: 'content-minute', retryAfter: seconds(minuteWait) };
    return undefined;
  }

  /** A caller's windows, with what has aged out of them dropped. */
  private windows(who: string, now: number): Windows {
    let w = this.byWho.get(who);
    if (!w) {
      w = { content: [], rest: [], graphql: [], inFlight: 0, blockedUntil: 0 };
      this.byWho.set(who, w);
    }
    while (w.content.length > 0 && (w.content[0] as number) <= now - HOUR) w.content.shift();
    while (w.rest.length > 0 && (w.rest[0] as { t: number }).t <= now - MINUTE) w.rest.shift();
    while (w.graphql.length > 0 && (w.graphql[0] as { t: number }).t <= now - MINUTE) w.graphql.shift();
    return w;
  }
}

/** Whole seconds to wait, at least 1 (GitHub's `retry-after` is delta-seconds). */
function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * Milliseconds until `weight` more fits under `limit` within the sliding `window` (0: it fits now): the
 * oldest events age out first.
 */
function waitFor(events: Events, weight: number, limit: number, window: number, now: number): number {
  let used = 0;
  for (const e of events) if (e.t > now - window) used += e.w;
  if (used + weight <= limit) return 0;
  for (const e of events) {
    if (e.t <= now - window) continue;
    used -= e.w;
    if (used + weight <= limit) return e.t + window - now;
  }
  return window;
}

/**
 * Whether a GraphQL request body holds a mutation: a top-level definition that starts with `mutation`
 * (strings and comments skipped). Lexical, so the in-page emulator need not load graphql-js for it.
 *
 * @example
 * isGraphqlMutation(new TextEncoder().encode('{"query":"mutation { x }"}')); // true
 */
export function isGraphqlMutation(body: Uint8Array): boolean {
  let query: unknown;
  try {
    query = (JSON.parse(new TextDecoder().decode(body)) as { query?: unknown })?.query;
  } catch {
    return false;
  }
  if (typeof query !== 'string') return false;
  const text = query.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
  let depth = 0;
  for (const token of text.matchAll(/[{}]|[_A-Za-z][_0-9A-Za-z]*/g)) {
    const t = token[0];
    if (t === '{') depth++;
    else if (t === '}') depth--;
    else if (depth === 0 && t === 'mutation') return true;
  }
  return false;
}

/**
 * GitHub's secondary-limit answer: status, headers (the caller's primary budget, `retry-after` when the
 * limit has a known end) and body. Also what the scripted `secondary-rate-limit` fault sends.
 *
 * @example
 * const { status, headers, text } = secondaryLimitReply(403, 'content', budget, 37);
 */
export function secondaryLimitReply(
  status: 403 | 429,
  wording: keyof typeof MESSAGES,
  budget: Budget,
  retryAfter: number | undefined,
): { status: number; headers: Record<string, string>; text: string } {
  const text = JSON.stringify({ message: MESSAGES[wording], documentation_url: SECONDARY_DOC, status: String(status) });
  const headers: Record<string, string> = {
    ...baseHeaders(),
    ...rateLimitHeaders(budget),
    'Content-Type': JSON_TYPE,
    'Content-Length': String(new TextEncoder().encode(text).length),
  };
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  return { status, headers, text };
}
