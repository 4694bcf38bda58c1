/**
 * The request executor of the remote-api store: builds URLs and headers, counts requests, tracks
 * rate limits, retries idempotent requests on 5xx/connection failures with jittered backoff, paces
 * requests and waits out short rate limits (pacing.ts), parses JSON — and sends every other status to
 * `mapStatusError`.
 */
import { DocDbError, InvalidResponse, RateLimited, TransportError } from '../../core/errors.js';
import type { RateLimit } from '../../core/refstore.js';
import { parseRateLimit } from '../../transport/headers.js';
import type { HttpResponse } from '../../transport/types.js';
import type { ResolvedConfig } from './config.js';
import { type PacedOperation, Pacer } from './pacing.js';
import { limitWindow, mapStatusError, type StatusContext } from './status.js';

/** Per-operation state: what every result reports. */
export interface OpContext extends PacedOperation {
  operation: string;
  token: string | undefined;
  tokenId: string;
  requests: number;
  rateLimit?: RateLimit;
}

export interface SendOptions {
  /** Human-readable step for messages ("read ref", "create tree"). */
  step: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path below `/repos/{owner}/{repo}` (already percent-encoded), or '' for the repository itself. */
  path?: string;
  /** Absolute URL instead of `path` (Link pagination; must be on the API origin — checked by the caller). */
  url?: string;
  query?: Record<string, string>;
  /** A JSON body, serialised here; or `json`: one already serialised to UTF-8 bytes (sent as is). */
  body?: unknown;
  json?: Uint8Array;
  headers?: Record<string, string>;
  /** Retry on 5xx / connection failure: true for reads and content-addressed object creation. */
  retry: boolean;
  /** Statuses handed back to the caller instead of being mapped to errors. */
  accept?: readonly number[];
  /**
   * Whether the request changes something (default: any method but GET): mutating requests are sent one
   * at a time, `mutationSpacingMs` apart (pacing.ts). A GraphQL query is a POST that does not.
   */
  mutates?: boolean;
}

export interface SendResult {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Body parsed as JSON; InvalidResponse naming the step when it is not JSON. */
  json(): unknown;
}

const decoder = new TextDecoder();

export class GitHubClient {
  readonly repoBase: string;
  private readonly pacer: Pacer;

  constructor(private readonly cfg: ResolvedConfig) {
    this.repoBase = `${cfg.apiBase}/repos/${encodeURIComponent(cfg.owner)}/${encodeURIComponent(cfg.repo)}`;
    this.pacer = new Pacer(cfg);
  }

  private log(level: 'debug' | 'info' | 'warn', message: string, data?: Record<string, unknown>) {
    this.cfg.logger?.(data ? { level, message, data } : { level, message });
  }

  /** Wait before retry number `attempt` (0-based): exponential from 250 ms, capped at 5 s, with jitter. */
  backoffMs(attempt: number): number {
    const cap = Math.min(5000, 250 * 2 ** attempt);
    return Math.round(cap * (0.5 + this.cfg.random() / 2));
  }

  /**
   * Send one API request: the status is the caller's to handle when 2xx or listed in `accept`, else
   * it is waited out (secondary rate limit), retried (`retry`: 5xx, no response) or mapped to an error.
   *
   * @example
   * const res = await client.send(ctx, { step: 'read commit', method: 'GET', path: `/git/commits/${sha}`, retry: true });
   * const commit = res.json();
   */
  async send(ctx: OpContext, opts: SendOptions): Promise<SendResult> {
    const req = this.prepare(ctx, opts);
    const tries: Tries = { failures: 0, rateWaits: 0 };
    for (;;) {
      const res = await this.paced(ctx, opts, req, tries);
      if (res === undefined) continue;
      const rl = parseRateLimit(res.headers);
      if (rl) ctx.rateLimit = rl;
      // Every rate-limit answer closes the token's gate, even one the caller accepts.
      const window = limitWindow(res);
      if (window === undefined) this.pacer.opened(ctx);
      const wait = window ? this.pacer.close(ctx, window) : undefined;
      if (opts.accept?.includes(res.status) || (res.status >= 200 && res.status < 300)) {
        return answer(ctx, opts, req, res);
      }
      if (await this.waitedOut(ctx, opts, req, res, tries, wait)) continue;
      throw this.statusError(ctx, req, res, wait);
    }
  }

  /**
   * One attempt, paced: a mutating request waits for its turn in the token's write lane, then every
   * request waits for the token's rate-limit gate to open (or fails with `RateLimited`, unsent).
   */
  private async paced(ctx: OpContext, opts: SendOptions, req: Prepared, tries: Tries) {
    const release = await this.pacer.turn(ctx, opts.mutates ?? opts.method !== 'GET');
    try {
      await this.pacer.waitForGate(ctx, { step: opts.step, method: opts.method, path: req.pathname });
      ctx.requests++;
      return await this.attempt(ctx, opts, req, tries);
    } finally {
      release();
    }
  }

  /** The typed error of a final answer; a rate limit's says when to retry, by the gate it closed. */
  private statusError(ctx: OpContext, req: Prepared, res: HttpResponse, wait: number | undefined) {
    const err = mapStatusError(req.statusContext, res);
    if (!(err instanceof RateLimited) || wait === undefined) return err;
    const data = { ...err.data, ...this.pacer.retryData(ctx) };
    const message = err.message.replace(/retry after \d+s/, `retry after ${String(data.retryAfter)}s`);
    return new RateLimited(`${message} Retry after ${String(data.retryAt)}.`, data);
  }

  /** URL, headers (the token only for the API origin) and body of a request, and how its errors are named. */
  private prepare(ctx: OpContext, opts: SendOptions): Prepared {
    let url = opts.url ?? `${this.repoBase}${opts.path ?? ''}`;
    if (opts.query) {
      const q = new URLSearchParams(opts.query).toString();
      if (q) url += `${url.includes('?') ? '&' : '?'}${q}`;
    }
    const u = new URL(url);
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': this.cfg.userAgent,
      ...opts.headers,
    };
    // Never send the token to any origin but the configured API origin.
    if (ctx.token !== undefined && u.origin === this.cfg.apiOrigin) headers.authorization = `Bearer ${ctx.token}`;
    let body: Uint8Array | undefined = opts.json;
    if (body === undefined && opts.body !== undefined) body = new TextEncoder().encode(JSON.stringify(opts.body));
    if (body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    const statusContext: StatusContext = {
      operation: ctx.operation,
      step: opts.step,
      method: opts.method,
      path: u.pathname,
      repo: `${this.cfg.owner}/${this.cfg.repo}`,
      authenticated: headers.authorization !== undefined,
    };
    return { url, pathname: u.pathname, headers, body, statusContext };
  }

  /**
   * One round trip. Undefined when no response came and the request is retried (after a backoff);
   * a `TransportError` naming the operation and step when it is not.
   */
  private async attempt(
    ctx: OpContext,
    opts: SendOptions,
    req: Prepared,
    tries: Tries,
  ): Promise<HttpResponse | undefined> {
    const { url, headers, body, pathname } = req;
    const cap = this.cfg.maxResponseBytes;
    try {
      return await this.cfg.transport.request({
        method: opts.method,
        url,
        headers,
        ...(body ? { body } : {}),
        ...(cap !== undefined ? { maxResponseBytes: cap } : {}),
      });
    } catch (e) {
      // A transport rejects only when there is no response; anything else it throws is not ours to retry.
      if (e instanceof DocDbError && !(e instanceof TransportError)) throw e;
      // An answer over the size cap would be just as large again: final.
      if (e instanceof TransportError && e.data.reason === 'too-large') throw tooLarge(ctx, opts, pathname, e);
      if (opts.retry && tries.failures < this.cfg.readRetries) {
        const wait = this.backoffMs(tries.failures++);
        this.log('warn', `${opts.step}: no response, retrying in ${wait} ms`, {
          path: pathname,
          attempt: tries.failures,
        });
        await this.cfg.sleep(wait);
        return undefined;
      }
      throw noResponse(ctx, opts, pathname, e);
    }
  }

  /**
   * Wait before sending again: a short rate limit (the gate's wait, at most `maxRetryAfterSeconds` and
   * MAX_RATE_WAITS times per request, spread with jitter after the first), or a 5xx of a retried request (backoff). False when the status is final.
   */
  private async waitedOut(
    ctx: OpContext,
    opts: SendOptions,
    req: Prepared,
    res: HttpResponse,
    tries: Tries,
    wait: number | undefined,
  ): Promise<boolean> {
    const status = res.status;
    if (wait !== undefined && wait <= this.cfg.maxRetryAfterSeconds && tries.rateWaits < MAX_RATE_WAITS) {
      const ms = rateWaitMs(wait, tries.rateWaits++, this.cfg.random);
      this.log('warn', `${opts.step}: rate limit, waiting ${ms} ms`, { path: req.pathname, status });
      await this.pacer.waited(ctx, ms);
      return true;
    }
    if (status >= 500 && opts.retry && tries.failures < this.cfg.readRetries) {
      const ms = this.backoffMs(tries.failures++);
      this.log('warn', `${opts.step}: HTTP ${status}, retrying in ${ms} ms`, {
        path: req.pathname,
        attempt: tries.failures,
      });
      await this.cfg.sleep(ms);
      return true;
    }
    return false;
  }
}

/**
 * How often one request waits out a rate-limit answer before it fails with `RateLimited` (GitHub: "If your
 * request continues to fail due to a secondary rate limit, wait for an exponentially increasing amount of
 * time between retries, and throw an error after a specific number of retries").
 */
const MAX_RATE_WAITS = 6;

/**
 * The wait after the `waits`-th rate-limit answer to one request: `retry-after` (seconds) the first time;
 * after a refusal again — other clients woke at the same moment, and the window had room for only some —
 * `retry-after` plus a random share of 2^waits seconds (full jitter, exponentially wider), so the clients
 * that meet again spread out instead of retrying in lockstep. Never less than `retry-after`.
 */
function rateWaitMs(retryAfter: number, waits: number, random: () => number): number {
  const exact = retryAfter * 1000;
  return waits === 0 ? exact : exact + Math.floor(random() * 1000 * 2 ** waits);
}

/** A request ready to send, and how its errors name it. */
interface Prepared {
  url: string;
  pathname: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /** What a status error names (operation, step, method, path, repository). */
  statusContext: StatusContext;
}

/** Retries spent on one request: no response or 5xx (`failures`), secondary rate-limit waits. */
interface Tries {
  failures: number;
  rateWaits: number;
}

/** A response handed to the caller, its body parsed as JSON on demand. */
function answer(ctx: OpContext, opts: SendOptions, req: Prepared, res: HttpResponse): SendResult {
  const status = res.status;
  return {
    status,
    headers: res.headers,
    body: res.body,
    json: () => {
      try {
        return JSON.parse(decoder.decode(res.body));
      } catch (e) {
        throw new InvalidResponse(
          `${ctx.operation}: ${opts.step} (${opts.method} ${req.pathname}) answered HTTP ${status} with a body that is not JSON`,
          { ...req.statusContext, status },
          { cause: e },
        );
      }
    },
  };
}

/** The error for a request that got no response (the transport's own message names only method and URL). */
function noResponse(ctx: OpContext, opts: SendOptions, pathname: string, e: unknown): TransportError {
  return new TransportError(
    `${ctx.operation}: ${opts.step} (${opts.method} ${pathname}) failed without a response: ${
      e instanceof Error ? e.message : String(e)
    }`,
    {
      reason: 'network',
      ...(e instanceof TransportError ? e.data : {}),
      operation: ctx.operation,
      step: opts.step,
      method: opts.method,
      path: pathname,
    },
    { cause: e },
  );
}

/** The error for an answer over the response-size cap, naming the store option that raises it. */
function tooLarge(ctx: OpContext, opts: SendOptions, pathname: string, e: TransportError): TransportError {
  const limit = e.data.limit;
  return new TransportError(
    `${ctx.operation}: ${opts.step} (${opts.method} ${pathname}) answered more than ${String(limit)} bytes, the response-size limit (default 160 MiB, room for GitHub's largest answer: a 100 MiB blob as base64 JSON). If this API server is trusted to send more, raise RemoteApiRefStore's maxResponseBytes option`,
    { ...e.data, operation: ctx.operation, step: opts.step, method: opts.method, path: pathname },
    { cause: e },
  );
}

/** `rel="next"` URL of a Link header (the one parser lives in transport/headers.ts). */
export { nextLink } from '../../transport/headers.js';

/**
 * The next page's URL (a `Link: rel="next"` target), refused unless it is on the configured API origin:
 * following it would send the token to another origin, and a partial listing is not an answer either. One
 * check for every paged read of the store (history, the section's commits, matching refs).
 *
 * @example
 * url = nextPageOnApiOrigin(ctx, h.apiOrigin, next, 'history'); // throws InvalidResponse for https://evil.example/…
 */
export function nextPageOnApiOrigin(ctx: OpContext, apiOrigin: string, next: string, what: string): string {
  let url: URL;
  try {
    url = new URL(next);
  } catch {
    throw new InvalidResponse(`${what}: the next page link is not an absolute URL`, { operation: ctx.operation });
  }
  if (url.origin !== apiOrigin) {
    throw new InvalidResponse(
      `${what}: the next page link points to ${url.origin}, not the configured API origin ${apiOrigin}; refusing to follow it`,
      { operation: ctx.operation, origin: url.origin },
    );
  }
  return url.toString();
}
