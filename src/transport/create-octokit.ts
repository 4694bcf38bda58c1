/**
 * `createOctokit`: the Octokit instance docdb uses by default in the GitHub Action — `@octokit/rest`
 * with `@octokit/plugin-retry` and `@octokit/plugin-throttling`, configured so that
 * - only safe requests (GET/HEAD/OPTIONS) are retried on 5xx/network errors (a POST or PATCH whose
 *   reply was lost may have been applied; the store re-reads the ref instead of replaying);
 * - primary and secondary rate limits are honoured: throttling waits for `Retry-After` (secondary)
 *   or `x-ratelimit-reset` (primary) when the wait is at most `maxRetryAfterSeconds`, else gives up
 *   and the 403/429 reaches the store, which reports `RateLimited`; either way the process-wide gate of
 *   the origin and token (core/rate-gate.ts) closes, so no remote-api store with that token sends before
 *   the window ends;
 * - writes are spaced (GitHub asks for serial writes with ≥ 1 s between them) — `writeSpacingMs`;
 * - every body is read under the response-size caps of limits.ts (a capped fetch, capped-fetch.ts): a
 *   success body over `maxResponseBytes` fails with `TransportError` (reason `too-large`), never retried;
 *   an error body is cut to `maxErrorBodyBytes` before Octokit parses it.
 * The Action's projection sources reuse the same instance, so all requests share one limiter.
 */

import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import { TransportError } from '../core/errors.js';
import { closeRateGate, type RateGate, rateGate } from '../core/rate-gate.js';
import { tokenIdentity } from '../core/token-identity.js';
import { cappedFetch } from './capped-fetch.js';
import { resolveCaps } from './limits.js';
import { isSafeMethod } from './types.js';

/** A GitHub REST client with retry and throttling (the type `createOctokit` returns). */
export type DocDbOctokit = InstanceType<typeof Octokit>;

/** A rate-limit event reported to `onRateLimit`. */
export interface RateLimitEvent {
  kind: 'primary' | 'secondary';
  /** Seconds until a retry may succeed. */
  retryAfter: number;
  method: string;
  /** URL path (no query, no origin). */
  path: string;
  /** How many times this request was already retried. */
  retryCount: number;
}

export interface CreateOctokitOptions {
  /** Token (PAT, GITHUB_TOKEN, installation token). Omit for unauthenticated reads of public repos. */
  auth?: string;
  /** API base URL (default `https://api.github.com`; GHES: `https://HOST/api/v3`; the emulator's `url`). */
  baseUrl?: string;
  /** User-Agent (default `docdb`). */
  userAgent?: string;
  /**
   * Retries of safe requests on 5xx/network errors (default 3; writes are never retried here). Applies to
   * direct `octokit.request` calls; `octokitTransport` turns it off because the store retries its own requests.
   */
  retries?: number;
  /** Longest rate-limit wait (seconds) to sit out before retrying (default 60). Longer waits fail fast. */
  maxRetryAfterSeconds?: number;
  /** Retries after a rate-limit wait (default 2). */
  maxRateLimitRetries?: number;
  /**
   * Called on every rate-limit hit. Return `true` to retry after `retryAfter`, `false` to give up,
   * or nothing to use the default policy (retry when within `maxRetryAfterSeconds` and `maxRateLimitRetries`).
   */
  onRateLimit?: (event: RateLimitEvent) => boolean | undefined;
  /** Minimum spacing of writes in ms (default: plugin-throttling's 1000). 0 disables spacing (tests). */
  writeSpacingMs?: number;
  /**
   * Minimum spacing in ms of writes that notify people — an issue or pull-request comment, an issue, a
   * release (plugin-throttling's list) — default plugin-throttling's 3000, process-wide. 0 disables it: only
   * against an emulator on loopback, where nobody is notified.
   */
  notificationSpacingMs?: number;
  /** Milliseconds per "second" of Retry-After / retry backoff (default 1000). Tests set 1 to avoid real waits. */
  retryAfterBaseMs?: number;
  /** The fetch implementation (default global fetch). Its answers are read under the two caps below. */
  fetch?: typeof globalThis.fetch;
  /**
   * Largest success body in bytes (default 160 MiB: a 100 MiB blob as base64 JSON fits); over it a request
   * fails with `TransportError` (reason `too-large`) and is not retried. Raise it only for a trusted server.
   */
  maxResponseBytes?: number;
  /** Bytes kept of an error body (any status outside 2xx; default 8 KiB); the rest is never read. */
  maxErrorBodyBytes?: number;
  /** Warnings (deprecations, throttling handler errors). Default: console.warn. Never given request headers. */
  warn?: (message: string) => void;
}

/** Statuses plugin-retry must not retry: client errors, 409 (empty repository), 429 (the throttler owns it). */
const DO_NOT_RETRY = [400, 401, 403, 404, 409, 410, 413, 422, 429, 451];

const noop = () => {};

/** The process-wide rate-limit gate of this instance's API origin and token (none for an unparsable URL). */
function gateOf(baseUrl: string, auth: string | undefined): RateGate | undefined {
  try {
    return rateGate(new URL(baseUrl).origin, tokenIdentity(auth));
  } catch {
    return undefined;
  }
}

/**
 * The write lane plugin-throttling schedules writes on: Bottleneck (already plugin-throttling's own
 * scheduler, so nothing is added to the bundle), starting one write every `minTime` ms at most — GitHub
 * asks integrators to space their writes (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api).
 */
function writeLanes(minTime: number): Bottleneck.Group {
  return new Bottleneck.Group({ maxConcurrent: 1, minTime });
}

function checkCount(name: string, v: number | undefined, def: number): number {
  if (v === undefined) return def;
  if (!Number.isInteger(v) || v < 0) throw new TypeError(`${name} must be a non-negative integer, got ${String(v)}`);
  return v;
}

/**
 * Build the docdb default Octokit. Share the instance between the store (via
 * {@link octokitTransport}) and other API calls so retries and rate-limit waits are coordinated.
 *
 * @example
 * const octokit = createOctokit({ auth: token, baseUrl: process.env.GITHUB_API_URL ?? 'https://api.github.com' });
 * const { data } = await octokit.rest.repos.get({ owner: 'octo', repo: 'hello' });
 */
export function createOctokit(options: CreateOctokitOptions = {}): DocDbOctokit {
  const retries = checkCount('retries', options.retries, 3);
  const maxWait = checkCount('maxRetryAfterSeconds', options.maxRetryAfterSeconds, 60);
  const maxRlRetries = checkCount('maxRateLimitRetries', options.maxRateLimitRetries, 2);
  const base = options.retryAfterBaseMs ?? 1000;
  if (!(base >= 0)) throw new TypeError('retryAfterBaseMs must be a non-negative number');
  const warn = options.warn ?? ((m: string) => console.warn(m));
  const baseUrl = (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  const gate = gateOf(baseUrl, options.auth);
  const decide =
    (kind: 'primary' | 'secondary') =>
    (retryAfter: number, opts: { method?: string; url?: string }, _o: unknown, retryCount: number): boolean => {
      // Every store of the process with this token then waits too (core/rate-gate.ts, pacing.ts).
      if (gate) closeRateGate(gate, Date.now() + retryAfter * base);
      let path = '';
      try {
        path = new URL(opts.url ?? '', 'http://x.invalid').pathname;
      } catch {}
      const event: RateLimitEvent = { kind, retryAfter, method: String(opts.method ?? ''), path, retryCount };
      const custom = options.onRateLimit?.(event);
      if (custom !== undefined) return custom;
      return retryCount < maxRlRetries && retryAfter <= maxWait;
    };
  const caps = resolveCaps(options);
  const Klass = Octokit.plugin(tooLargeIsFinal, retry, throttling, (octokit) => {
    // Registered last = outermost hook: runs before plugin-retry's error handler reads `retries`.
    octokit.hook.before('request', (o) => {
      if (!isSafeMethod(String(o.method))) o.request = { ...o.request, retries: 0 } as typeof o.request;
    });
  });
  const throttle: Record<string, unknown> = {
    onRateLimit: decide('primary'),
    onSecondaryRateLimit: decide('secondary'),
    retryAfterBaseValue: base,
  };
  if (options.writeSpacingMs !== undefined) {
    checkCount('writeSpacingMs', options.writeSpacingMs, 0);
    throttle.write = writeLanes(options.writeSpacingMs);
  }
  if (options.notificationSpacingMs !== undefined) {
    checkCount('notificationSpacingMs', options.notificationSpacingMs, 0);
    throttle.notifications = writeLanes(options.notificationSpacingMs);
  }
  const ctorOptions: Record<string, unknown> = {
    baseUrl,
    userAgent: options.userAgent ?? 'docdb',
    retry: { retries, doNotRetry: DO_NOT_RETRY, retryAfterBaseValue: base },
    throttle,
    // plugin-request-log logs every non-2xx (304, 404 are normal for docdb) and debug-logs full
    // request options (headers include the token): keep both silent.
    log: { debug: noop, info: noop, warn, error: noop },
  };
  if (options.auth !== undefined) ctorOptions.auth = options.auth;
  ctorOptions.request = { fetch: cappedFetch(options.fetch, caps) };
  return new Klass(ctorOptions) as DocDbOctokit;
}

/**
 * Registered first, so its error hook runs inside plugin-retry's: a body over the cap (which Octokit wraps
 * in a RequestError with status 500, a status plugin-retry retries) is rethrown as the `TransportError`
 * itself, which no plugin retries — the same bytes would come again.
 */
function tooLargeIsFinal(octokit: Pick<InstanceType<typeof Octokit>, 'hook'>): void {
  octokit.hook.error('request', (error) => {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof TransportError && cause.data.reason === 'too-large') throw cause;
    throw error;
  });
}
