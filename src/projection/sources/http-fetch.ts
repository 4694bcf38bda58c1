/**
 * One GET of an `http` source, bounded every way a server could keep a job busy: a timeout for the answer
 * to start and between two chunks of its body (`timeout`, seconds), a deadline for the whole read of the
 * URL, retries and waits included (`deadline`), a body size cap enforced while reading (a body that never
 * ends is cut off at the cap, not buffered whole), a redirect cap with hosts the spec allows, and retries of
 * 5xx/429 and lost connections with the shared full-jitter backoff, honouring `Retry-After`. The clocks are
 * http-watchdog.ts. The GitHub token is never involved (plain `fetch`).
 */

import { fullJitterDelay } from '../../core/backoff.js';
import { concatBytes } from '../../core/bytes.js';
import { InvalidResponse, RateLimited, TransportError } from '../../core/errors.js';
import { parseRetryAfter } from '../../transport/headers.js';
import { isLoopbackHost } from '../spec/index.js';
import { Deadline, Watchdog } from './http-watchdog.js';
import type { ReadContext } from './read-context.js';
import { SOURCE_OPERATION } from './source-error.js';

/** Largest body accepted (bytes). */
export const MAX_HTTP_BYTES = 50 * 1024 * 1024;
/** Default seconds an answer may take to start, and a body may pause between chunks. */
export const DEFAULT_HTTP_TIMEOUT_SECONDS = 30;
/** Default seconds the whole read of one URL may take: every attempt and every wait between them. */
export const DEFAULT_HTTP_DEADLINE_SECONDS = 600;
/** Retries of a 5xx, a 429 or a lost connection (then the run fails, committing nothing). */
export const HTTP_RETRIES = 3;
/** Longest `Retry-After` sat out; a server asking for more fails the run naming the wait. */
export const MAX_RETRY_AFTER_SECONDS = 60;
const MAX_REDIRECTS = 5;
const BACKOFF = { baseMs: 500, capMs: 10_000 };

/** A successful (or 304) answer with its body read in full. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

export interface HttpGet {
  url: string;
  headers: Record<string, string>;
  /** Hosts redirects may go to (lower case, with port when not the default). */
  allowed: ReadonlySet<string>;
  timeoutMs: number;
  /** The whole read, attempts and waits included (default DEFAULT_HTTP_DEADLINE_SECONDS). */
  deadlineMs?: number;
}

/**
 * GET with retries; resolves with the final answer (any status the caller judges) and its body.
 *
 * @example
 * const answer = await httpGet(ctx, { url, headers, allowed: new Set(['example.com']), timeoutMs: 30_000 });
 */
export async function httpGet(ctx: Pick<ReadContext, 'fetch' | 'sleep'>, get: HttpGet): Promise<HttpAnswer> {
  const deadline = new Deadline(get.deadlineMs ?? DEFAULT_HTTP_DEADLINE_SECONDS * 1000);
  const sleep = ctx.sleep ?? ((ms: number) => deadline.sleep(ms));
  try {
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptGet(ctx, get, deadline).catch((e: unknown) => e as Error);
      if (isDeadline(outcome)) throw deadline.error(get.url, attempt, outcome.cause);
      const wait = retryWait(outcome, attempt, get.url);
      if (wait === undefined) {
        if (outcome instanceof Error) throw attempt > 1 ? afterAttempts(outcome, attempt) : outcome;
        return outcome;
      }
      await sleep(wait);
      if (deadline.passed) throw deadline.error(get.url, attempt);
    }
  } finally {
    deadline.stop();
  }
}

const isDeadline = (outcome: HttpAnswer | Error): outcome is TransportError =>
  outcome instanceof TransportError && outcome.data.reason === 'deadline';

/** The last failure of a read that was retried says how many attempts it made. */
function afterAttempts(e: Error, attempts: number): Error {
  if (!(e instanceof TransportError)) return e;
  return new TransportError(
    `${e.message}; gave up after ${attempts} attempts`,
    { ...e.data, attempts },
    { cause: e.cause },
  );
}

/** How long to wait before another attempt, or undefined when the outcome is final. */
function retryWait(outcome: HttpAnswer | Error, attempt: number, url: string): number | undefined {
  const transient =
    outcome instanceof TransportError ||
    (!(outcome instanceof Error) && (outcome.status === 429 || outcome.status >= 500));
  if (!transient || attempt > HTTP_RETRIES) return undefined;
  if (outcome instanceof Error) return fullJitterDelay(attempt, BACKOFF, Math.random);
  const after = parseRetryAfter(outcome.headers.get('retry-after'));
  if (after === undefined) return fullJitterDelay(attempt, BACKOFF, Math.random);
  if (after > MAX_RETRY_AFTER_SECONDS) {
    throw new RateLimited(
      `http source: GET ${url} answered ${outcome.status} asking to retry after ${after} s (more than ${MAX_RETRY_AFTER_SECONDS} s); try the run later`,
      { retryAfter: after, status: outcome.status, operation: SOURCE_OPERATION },
    );
  }
  return after * 1000;
}

/** One attempt: redirects followed by hand to allowed hosts, the body read under the timeout and cap. */
async function attemptGet(ctx: Pick<ReadContext, 'fetch'>, get: HttpGet, deadline: Deadline): Promise<HttpAnswer> {
  const watchdog = new Watchdog(get.timeoutMs, deadline);
  try {
    let current = get.url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const res = await watchdog.run(current, () =>
        ctx.fetch(current, { method: 'GET', headers: get.headers, redirect: 'manual', signal: watchdog.signal }),
      );
      const location = res.status >= 300 && res.status <= 399 && res.status !== 304 && res.headers.get('location');
      if (!location) return { status: res.status, headers: res.headers, body: await readBody(res, current, watchdog) };
      await res.body?.cancel().catch(() => {});
      current = allowedRedirect(current, location, get.allowed);
    }
    throw new InvalidResponse(`http source: GET ${get.url}: more than ${MAX_REDIRECTS} redirects`, {
      url: get.url,
      operation: SOURCE_OPERATION,
    });
  } finally {
    watchdog.stop();
  }
}

function allowedRedirect(current: string, location: string, allowed: ReadonlySet<string>): string {
  const next = new URL(location, current);
  if (!allowed.has(next.host.toLowerCase())) {
    throw new InvalidResponse(
      `http source: GET ${current} redirects to ${next.origin}, which the spec does not allow; add "${next.host}" to allow-hosts if it is trusted`,
      { url: current, location: next.origin, operation: SOURCE_OPERATION },
    );
  }
  if (next.protocol !== 'https:' && !(next.protocol === 'http:' && isLoopbackHost(next.hostname))) {
    throw new InvalidResponse(`http source: GET ${current} redirects to plain http (${next.origin}); refusing`, {
      url: current,
      operation: SOURCE_OPERATION,
    });
  }
  return next.toString();
}

/**
 * The body, chunk by chunk: more than MAX_HTTP_BYTES aborts the download there. The body of any answer
 * outside 2xx is never read (the source reports the status alone), so an endless error body costs nothing.
 */
async function readBody(res: Response, url: string, watchdog: Watchdog): Promise<Uint8Array> {
  if (res.status < 200 || res.status > 299) {
    await res.body?.cancel().catch(() => {});
    return new Uint8Array(0);
  }
  const tooLarge = (size: string) =>
    new InvalidResponse(`http source: GET ${url} returned ${size}, more than ${MAX_HTTP_BYTES} bytes; refusing it`, {
      url,
      limit: MAX_HTTP_BYTES,
      operation: SOURCE_OPERATION,
    });
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_HTTP_BYTES) throw tooLarge(`${declared} bytes (Content-Length)`);
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await watchdog.run(url, () => reader.read());
    if (done) break;
    total += value.length;
    if (total > MAX_HTTP_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge('a longer body');
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
