/**
 * Turning a route's outcome into the bytes and headers GitHub sends: JSON with
 * `application/json; charset=utf-8`, a weak ETag that depends on who asks, `Cache-Control` and `Vary`,
 * a 304 for a matching `If-None-Match`, the selected API version, and the `x-ratelimit-*` headers after
 * charging the budget.
 */
import { concatBytes, toHex, utf8 } from '../core/bytes.js';
import { sha1Hex } from '../core/git/sha1.js';
import type { Caller } from './auth.js';
import type { RouteOutcome } from './dispatch.js';
import { baseHeaders, JSON_TYPE, SUPPORTED_API_VERSIONS } from './http.js';
import type { Incoming } from './incoming.js';
import type { Budget } from './model.js';
import { rateLimitHeaders } from './rations.js';

/** An answer ready to send (and to log). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The encoded body (undefined for bodiless answers and 304s). */
  payload?: Uint8Array;
  costs: boolean;
}

/**
 * Encode the outcome and add the caching and version headers (the budget is stamped later, once charged).
 *
 * @example
 * const answer = await toAnswer(undefined, incoming, caller, { response: { status: 200, body: {} }, costs: true });
 */
export async function toAnswer(
  subtle: SubtleCrypto | undefined,
  incoming: Incoming,
  caller: Caller,
  outcome: RouteOutcome,
): Promise<Answer> {
  const { response } = outcome;
  const answer: Answer = {
    status: response.status,
    headers: { ...baseHeaders(), ...(response.headers ?? {}) },
    costs: outcome.costs,
  };
  if (response.raw) {
    answer.payload = response.raw.bytes;
    answer.headers['Content-Type'] = response.raw.contentType;
  } else if (response.body !== undefined) {
    answer.payload = utf8(JSON.stringify(response.body));
    answer.headers['Content-Type'] = JSON_TYPE;
  }
  if (answer.status >= 200 && answer.status < 300 && answer.payload) {
    await addCaching(subtle, incoming, caller, answer, answer.payload);
  }
  if (caller.kind === 'token') answer.headers['X-OAuth-Scopes'] = 'repo';
  const version = incoming.request.headers.get('x-github-api-version');
  if (version !== null && SUPPORTED_API_VERSIONS.has(version))
    answer.headers['X-GitHub-Api-Version-Selected'] = version;
  return answer;
}

/** ETag, Cache-Control and Vary; a GET or HEAD whose `If-None-Match` matches becomes a bodiless 304. */
async function addCaching(
  subtle: SubtleCrypto | undefined,
  incoming: Incoming,
  caller: Caller,
  answer: Answer,
  payload: Uint8Array,
): Promise<void> {
  const { headers } = answer;
  // ETags depend on who asks (GitHub varies them by Authorization); the token itself is never hashed in.
  const who = caller.kind === 'token' ? caller.token.key : 'anonymous';
  const etag = `W/"${await digestHex(subtle, concatBytes([utf8(who), new Uint8Array([0]), payload]))}"`;
  headers.ETag = etag;
  headers['Cache-Control'] =
    caller.kind === 'token' ? 'private, max-age=60, s-maxage=60' : 'public, max-age=60, s-maxage=60';
  headers.Vary = 'Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, X-Requested-With';
  const conditional = incoming.request.headers.get('if-none-match');
  const { method } = incoming;
  if ((method === 'GET' || method === 'HEAD') && answer.status === 200 && etagMatches(conditional, etag)) {
    answer.status = 304;
    answer.payload = undefined;
    delete headers['Content-Type'];
    // A 304 to an authorized request costs no primary rate limit (GitHub's documented rule).
    if (caller.kind === 'token') answer.costs = false;
  }
}

/**
 * Charge the budget when the answer costs, then add the `x-ratelimit-*` headers and `Content-Length`.
 *
 * @example
 * chargeAndStamp(answer, budgetOf(caller, state));
 */
export function chargeAndStamp(answer: Answer, budget: Budget): void {
  if (answer.costs) budget.used++;
  Object.assign(answer.headers, rateLimitHeaders(budget));
  if (answer.payload) answer.headers['Content-Length'] = String(answer.payload.length);
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
async function digestHex(explicit: SubtleCrypto | undefined, data: Uint8Array): Promise<string> {
  const subtle = explicit ?? (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (subtle) return toHex(new Uint8Array(await subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)));
  const a = sha1Hex(data);
  return (a + sha1Hex(utf8(a))).slice(0, 64);
}
