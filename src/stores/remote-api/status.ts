/**
 * The ONE place where upstream HTTP statuses become typed errors (docs/remote-api.md § Errors).
 * Messages name the operation, the step, the HTTP status and GitHub's message; never a token.
 */
import {
  AuthInvalid,
  AuthMissing,
  type DocDbError,
  EmptyRepository,
  Forbidden,
  InvalidResponse,
  NotFound,
  RateLimited,
  UpstreamUnavailable,
} from '../../core/errors.js';
import { redactText } from '../../core/redact.js';
import { parseRetryAfter } from '../../transport/headers.js';
import type { HttpResponse } from '../../transport/types.js';
import type { LimitWindow } from './pacing.js';

/** What was being done when a response arrived. */
export interface StatusContext {
  /** Store operation: get, put, delete, commit, list, history, head. */
  operation: string;
  /** Step within it, e.g. "read ref", "create tree". */
  step: string;
  method: string;
  /** URL path without query. */
  path: string;
  /** owner/repo. */
  repo: string;
  /** Whether a token was sent. */
  authenticated: boolean;
}

/** `x-ratelimit-*` headers of a response: the one parser lives in transport/headers.ts. */
export { parseRateLimit } from '../../transport/headers.js';

/**
 * GitHub's `message` from an error body, if any (bounded length). Transports keep only the first 8 KiB of
 * an error body (src/transport/limits.ts), so a long one arrives cut off and is no longer JSON: its
 * `message` is still read when the prefix holds the whole string (GitHub writes it first).
 */
export function upstreamMessage(res: HttpResponse): string | undefined {
  if (res.body.length === 0) return undefined;
  const text = new TextDecoder().decode(res.body);
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown })?.message;
  } catch {
    message = messageOfPrefix(text);
  }
  // Redacted here, where every HTTP error is built: an upstream may echo a token it was sent.
  return typeof message === 'string' ? redactText(message.slice(0, 300), []) : undefined;
}

/** The first complete `"message": "…"` string of a JSON text cut short, or undefined. */
function messageOfPrefix(text: string): string | undefined {
  const m = /^\s*\{[^"]*"message"\s*:\s*("(?:[^"\\\u0000-\u001f]|\\.)*")/.exec(text);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1] as string) as string;
  } catch {
    return undefined;
  }
}

/** Seconds from a `Retry-After` header (delta-seconds or HTTP date), or undefined. */
export function retryAfterSeconds(res: HttpResponse, now = Date.now()): number | undefined {
  return parseRetryAfter(res.headers['retry-after'], now);
}

/**
 * A secondary rate limit: 429, or 403 with `Retry-After` or GitHub's "secondary rate limit" message.
 * Returns the seconds to wait (GitHub asks for at least 60 when no `Retry-After` is given).
 */
export function secondaryRateLimitWait(res: HttpResponse): number | undefined {
  if (res.status !== 403 && res.status !== 429) return undefined;
  if (res.headers['x-ratelimit-remaining'] === '0') return undefined; // primary
  const after = retryAfterSeconds(res);
  if (after !== undefined) return after;
  if (res.status === 429 || /secondary rate limit|abuse/i.test(upstreamMessage(res) ?? '')) return 60;
  return undefined;
}

/**
 * The rate-limit window an answer announces, for the pacing gate (pacing.ts): an exhausted primary budget
 * (403/429 with `x-ratelimit-remaining: 0`, until `x-ratelimit-reset`), or a secondary limit (`retry-after`
 * seconds when given; no end known otherwise). Undefined for any other answer.
 *
 * @example
 * limitWindow({ status: 403, headers: { 'retry-after': '30' }, body }); // { kind: 'secondary', retryAfter: 30 }
 */
export function limitWindow(res: HttpResponse): LimitWindow | undefined {
  if (res.status !== 403 && res.status !== 429) return undefined;
  if (res.headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(res.headers['x-ratelimit-reset'] ?? 0) || undefined;
    return reset === undefined ? { kind: 'primary' } : { kind: 'primary', reset };
  }
  if (secondaryRateLimitWait(res) === undefined) return undefined;
  const after = retryAfterSeconds(res);
  return after === undefined ? { kind: 'secondary' } : { kind: 'secondary', retryAfter: after };
}

/**
 * Map a non-success response to the error docdb throws. Callers handle the statuses that are not
 * errors in their step (304 and 404 on the ref read, 422 on the ref update) before calling this.
 *
 * | status | error |
 * |---|---|
 * | 401 | AuthInvalid (AuthMissing when no token was sent) |
 * | 403 + `x-ratelimit-remaining: 0` | RateLimited (primary; `reset`) |
 * | 403/429 + Retry-After or "secondary rate limit" | RateLimited (secondary; `retryAfter`) |
 * | other 403 | Forbidden |
 * | 404 | NotFound (repository missing or not visible to the token) |
 * | 409 | EmptyRepository |
 * | 5xx | UpstreamUnavailable |
 * | anything else (400, 410, 413, 422, unexpected 2xx/3xx) | InvalidResponse |
 */
export function mapStatusError(ctx: StatusContext, res: HttpResponse): DocDbError {
  const msg = upstreamMessage(res);
  const where = `${ctx.operation}: ${ctx.step} (${ctx.method} ${ctx.path})`;
  const said = `HTTP ${res.status}${msg ? `: ${msg}` : ''}`;
  const data: Record<string, unknown> = {
    operation: ctx.operation,
    step: ctx.step,
    method: ctx.method,
    path: ctx.path,
    status: res.status,
  };
  if (msg !== undefined) data.upstreamMessage = msg;
  const requestId = res.headers['x-github-request-id'];
  if (requestId) data.requestId = requestId;
  const s = res.status;
  if (s === 401) {
    if (!ctx.authenticated) {
      return new AuthMissing(
        `${where} needs a token: ${said}. Pass a token (the store's \`token\` or \`credentials\` option).`,
        data,
      );
    }
    return new AuthInvalid(`${where} was rejected: ${said}. The token is invalid, expired or revoked.`, data);
  }
  if (s === 403 || s === 429) {
    if (res.headers['x-ratelimit-remaining'] === '0') {
      const reset = Number(res.headers['x-ratelimit-reset'] ?? 0) || undefined;
      const when = reset ? ` until ${new Date(reset * 1000).toISOString()}` : '';
      return new RateLimited(`${where}: primary rate limit exhausted${when} (${said}).`, {
        ...data,
        ...(reset !== undefined ? { reset } : {}),
      });
    }
    const wait = secondaryRateLimitWait(res);
    if (wait !== undefined) {
      return new RateLimited(`${where}: secondary rate limit, retry after ${wait}s (${said}).`, {
        ...data,
        retryAfter: wait,
      });
    }
    return new Forbidden(
      `${where} is forbidden: ${said}. The token lacks permission ${ctx.method === 'GET' ? 'to read' : '(contents: write) to write to'} ${ctx.repo}.`,
      data,
    );
  }
  if (s === 404) {
    return new NotFound(`${where}: ${said}. Repository ${ctx.repo} does not exist or the token cannot see it.`, data);
  }
  if (s === 409) {
    return new EmptyRepository(
      `${where}: ${said}. Repository ${ctx.repo} has no commits; the Git Database API needs at least one (push an initial commit).`,
      data,
    );
  }
  if (s >= 500) return new UpstreamUnavailable(`${where}: upstream unavailable (${said}).`, data);
  return new InvalidResponse(`${where}: unexpected answer ${said}.`, data);
}
