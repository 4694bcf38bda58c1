/**
 * `cappedFetch`: a `fetch` whose answers are held to the response-size caps of limits.ts before the caller
 * sees them. Octokit reads bodies with its own fetch (`response.text()`/`json()`, whole), so
 * `createOctokit` and `octokitTransport` hand it this one: a success body over the cap rejects the fetch
 * itself with `TransportError` (reason `too-large`) — rejecting inside the body stream would not do, as
 * Octokit turns a failed body read into an empty answer — and an error body is cut to its first bytes.
 */
import { type ResolvedCaps, type ResponseCaps, readCapped, resolveCaps } from './limits.js';

/** Where a capped fetch keeps what it wraps, so a per-request cap can re-wrap the inner fetch (no double buffering). */
const CAPPED = Symbol.for('docdb.cappedFetch');

/** What {@link cappedFetch} wraps: the inner fetch (undefined: the global one at call time) and its caps. */
export interface CappedFetchParts {
  inner: typeof globalThis.fetch | undefined;
  caps: ResolvedCaps;
}

/** Statuses whose Response must have a null body (https://fetch.spec.whatwg.org/#null-body-status). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Wrap `inner` (default: the global fetch, read at call time) so every answer is read under `caps`. The
 * success body is read in full before the fetch resolves (that is how an undeclared length over the cap
 * is caught before Octokit reads it) and handed on as the chunks read, without another copy.
 * `requestLimit`: one request's own `maxResponseBytes` (octokitTransport), named so in the error.
 *
 * @example
 * const octokit = new Octokit({ request: { fetch: cappedFetch(globalThis.fetch, { maxResponseBytes: 50 << 20 }) } });
 */
export function cappedFetch(
  inner?: typeof globalThis.fetch,
  caps: ResponseCaps = {},
  requestLimit?: number,
): typeof globalThis.fetch {
  const resolved = resolveCaps(caps);
  const fn: typeof globalThis.fetch = async (input, init) => {
    const fetchFn = inner ?? globalThis.fetch;
    const res = await fetchFn(input, init);
    const req = {
      method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
      url: urlOf(input),
      ...(requestLimit !== undefined ? { maxResponseBytes: requestLimit } : {}),
    };
    return capResponse(res, req, resolved);
  };
  Object.defineProperty(fn, CAPPED, { value: { inner, caps: resolved } satisfies CappedFetchParts });
  return fn;
}

/**
 * The parts of a fetch made by {@link cappedFetch}, or undefined for any other fetch.
 *
 * @example
 * cappedParts(cappedFetch(f))?.inner === f; // true
 */
export function cappedParts(fetchFn: unknown): CappedFetchParts | undefined {
  return typeof fetchFn === 'function' ? (fetchFn as { [CAPPED]?: CappedFetchParts })[CAPPED] : undefined;
}

/** The answer rebuilt from what was read under the caps (headers, status and URL kept). */
async function capResponse(
  res: Response,
  req: { method: string; url: string; maxResponseBytes?: number },
  caps: ResolvedCaps,
): Promise<Response> {
  // An opaque redirect (status 0, browsers) cannot be rebuilt and has no body to read.
  if (res.status < 200 || res.status > 599 || !res.body) return res;
  const chunks = await readCapped(
    res.body,
    res.status,
    res.headers.get('content-length'),
    req,
    req.maxResponseBytes ?? caps.maxResponseBytes,
    caps.maxErrorBodyBytes,
  );
  const body = NULL_BODY.has(res.status) ? null : streamOf(chunks);
  const out = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  // Octokit reports `response.url`; a constructed Response has none.
  Object.defineProperty(out, 'url', { value: res.url });
  Object.defineProperty(out, 'redirected', { value: res.redirected });
  return out;
}

/** A stream over chunks already read; each is let go once handed on. */
function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) {
        controller.enqueue(chunks[i] as Uint8Array);
        chunks[i++] = new Uint8Array(0);
      } else controller.close();
    },
  });
}

function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}
