/**
 * Counting what a run costs: every HTTP request the run makes (sources and store share one Octokit), the
 * last rate limit seen, and the `verification` of each commit the run creates — all read from answers the
 * run gets anyway, so the step outputs `requests`, `rate-limit-*` and `verified` cost no request.
 */
import type { RateLimit } from '../core/refstore.js';
import { parseRateLimit } from '../transport/headers.js';
import { joinChunks, readCapped } from '../transport/limits.js';

/**
 * Most bytes of a create-commit reply read for its `verification` (a reply is the commit docdb sent plus a
 * few fields: a few KB). A longer one is not read for it, so an endless reply cannot grow the copy.
 */
const MAX_COMMIT_REPLY_BYTES = 1024 * 1024;

/** The `verification` object GitHub returns with a commit (create-commit reply). */
export interface CommitVerification {
  verified: boolean;
  reason: string;
}

/** What the metered fetch has seen so far. */
export interface Meter {
  requests: number;
  rateLimit: RateLimit | undefined;
  verification: Map<string, CommitVerification>;
}

/**
 * Tracks every HTTP request the run makes (sources and store share one Octokit), the last rate limit seen,
 * and the `verification` of each commit the run creates (read from the create-commit reply, so knowing
 * whether GitHub signed the commit costs no request).
 *
 * @example
 * const { fetch, meter } = meteredFetch(globalThis.fetch);
 * const octokit = createOctokit({ fetch });
 * // … after the run: meter.requests, meter.rateLimit?.remaining
 */
export function meteredFetch(inner: typeof globalThis.fetch = globalThis.fetch, debug?: (line: string) => void) {
  const meter: Meter = {
    requests: 0,
    rateLimit: undefined as RateLimit | undefined,
    verification: new Map<string, CommitVerification>(),
  };
  const fetchFn: typeof globalThis.fetch = async (input, init) => {
    meter.requests++;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const res = await inner(input, init);
    // API URLs carry no credentials (the token travels in a header); an archive download's redirect URL
    // does (`?token=`, codeload's own short-lived credential): it is masked before the debug log.
    debug?.(`${method} ${url.replace(/([?&]token=)[^&#]*/g, '$1***')} → ${res.status}`);
    if (method === 'POST' && res.status === 201 && /\/git\/commits$/.test(new URL(url).pathname)) {
      await recordVerification(res, meter);
    }
    meter.rateLimit = parseRateLimit(res.headers) ?? meter.rateLimit;
    return res;
  };
  return { fetch: fetchFn, meter };
}

/** Whether GitHub signed the commit it just created, from the create-commit reply. */
async function recordVerification(res: Response, meter: Meter): Promise<void> {
  try {
    const copy = res.clone();
    const req = { method: 'POST', url: res.url || 'http://reply.invalid/git/commits' };
    const length = copy.headers.get('content-length');
    const chunks = await readCapped(copy.body, copy.status, length, req, MAX_COMMIT_REPLY_BYTES, 0);
    const body = JSON.parse(new TextDecoder().decode(joinChunks(chunks))) as {
      sha?: unknown;
      verification?: Partial<CommitVerification>;
    };
    if (typeof body.sha === 'string' && body.verification && typeof body.verification.verified === 'boolean') {
      meter.verification.set(body.sha, {
        verified: body.verification.verified,
        reason: String(body.verification.reason ?? ''),
      });
    }
  } catch {
    // Not JSON, or longer than any commit reply: the store reports the invalid reply itself.
  }
}

/**
 * The `rate-limit-remaining` and `rate-limit-reset` outputs (empty before any answer carried them).
 *
 * @example
 * rateOutputs(meter); // { 'rate-limit-remaining': '4990', 'rate-limit-reset': '2024-01-31T12:00:00.000Z' }
 */
export function rateOutputs(meter: Meter): Record<'rate-limit-remaining' | 'rate-limit-reset', string> {
  return {
    'rate-limit-remaining': meter.rateLimit ? String(meter.rateLimit.remaining) : '',
    'rate-limit-reset': meter.rateLimit ? new Date(meter.rateLimit.reset * 1000).toISOString() : '',
  };
}
