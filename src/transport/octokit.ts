/**
 * `octokitTransport`: the transport over an Octokit instance (`octokit.request`). It adds nothing
 * but the adapter: Octokit's hooks (auth, throttling) still run — only plugin-retry is switched off
 * per request, because the store owns retries — and every HTTP answer — 304 and
 * 4xx/5xx included, which Octokit throws as `RequestError`s — comes back as a response. Only a
 * failure WITHOUT a response (Octokit reports those as `RequestError` with status 500 and no
 * `response`) rejects, with a `TransportError`.
 *
 * Bodies are held to the response-size caps of limits.ts: each request hands Octokit a capped fetch
 * (capped-fetch.ts) over the instance's own, so a success body over the cap fails with `TransportError`
 * (reason `too-large`) and an error body is cut to its first 8 KiB before Octokit reads it.
 *
 * Duck-typed on `request` so this file pulls in no Octokit code (browser bundles stay small).
 */
import { DocDbError, TransportError } from '../core/errors.js';
import { cappedFetch, cappedParts } from './capped-fetch.js';
import { type ResponseCaps, resolveCaps } from './limits.js';
import { type HttpRequest, type HttpResponse, type HttpTransport, lowercaseHeaders, transportError } from './types.js';

/** The part of an Octokit instance the adapter uses. */
export interface OctokitLike {
  // biome-ignore lint/suspicious/noExplicitAny: Octokit's request has a large overloaded signature.
  request: (route: any, parameters?: any) => Promise<any>;
}

interface OctokitResponseLike {
  status: number;
  headers?: Record<string, string | number | undefined>;
  data?: unknown;
}

async function bodyBytes(data: unknown): Promise<Uint8Array> {
  if (data === undefined || data === null || data === '') return new Uint8Array(0);
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (typeof ReadableStream !== 'undefined' && data instanceof ReadableStream) {
    return new Uint8Array(await new Response(data).arrayBuffer());
  }
  // Octokit parsed an error body as JSON (json-with-bigint may yield BigInt): re-encode it.
  return new TextEncoder().encode(
    JSON.stringify(data, (_k, v) => (typeof v === 'bigint' ? v.toString() : (v as unknown))),
  );
}

/**
 * Adapt an Octokit instance (ideally from {@link createOctokit}) to the transport seam.
 * Successful bodies are passed through byte for byte (`parseSuccessResponseBody: false`); error
 * bodies, which Octokit always parses, are re-encoded as JSON. Every request is sent with
 * `request.retries = 0`: the store above owns retries of its requests — it retries idempotent ones
 * itself (bounded, with backoff, counted in each result's `requests`) and never replays a write whose
 * reply was lost (it re-reads the ref). plugin-retry still serves direct `octokit.request` calls, and
 * plugin-throttling still sits out rate limits for both.
 *
 * `caps` (`maxResponseBytes`, `maxErrorBodyBytes`) override those of the instance's fetch when it came
 * from {@link createOctokit}; a request's own `maxResponseBytes` overrides both. Defaults: 160 MiB, 8 KiB.
 *
 * @example
 * const octokit = createOctokit({ auth: process.env.GITHUB_TOKEN, baseUrl: 'https://api.github.com' });
 * const store = new RemoteApiRefStore({ transport: octokitTransport(octokit), owner: 'o', repo: 'r', token });
 */
export function octokitTransport(octokit: OctokitLike, caps: ResponseCaps = {}): HttpTransport {
  if (!octokit || typeof octokit.request !== 'function') {
    throw new TypeError('octokitTransport needs an Octokit instance (an object with a request() method)');
  }
  resolveCaps(caps);
  const own: ResponseCaps = {};
  if (caps.maxResponseBytes !== undefined) own.maxResponseBytes = caps.maxResponseBytes;
  if (caps.maxErrorBodyBytes !== undefined) own.maxErrorBodyBytes = caps.maxErrorBodyBytes;
  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const request: Record<string, unknown> = {
        parseSuccessResponseBody: false,
        fetch: requestFetch(octokit, own, req.maxResponseBytes),
      };
      if (req.signal) request.signal = req.signal;
      request.retries = 0;
      const params: Record<string, unknown> = {
        method: req.method.toUpperCase(),
        url: req.url,
        headers: lowercaseHeaders(req.headers),
        request,
      };
      if (req.body !== undefined) params.data = req.body;
      let res: OctokitResponseLike;
      try {
        res = (await octokit.request(params)) as OctokitResponseLike;
      } catch (e) {
        const err = e as { response?: OctokitResponseLike; name?: string };
        if (err && typeof err === 'object' && err.response && typeof err.response.status === 'number') {
          res = err.response;
        } else {
          if (e instanceof DocDbError) throw e;
          // Octokit wraps what its fetch threw (a body over the cap) in a RequestError with status 500.
          const cause = (e as { cause?: unknown })?.cause;
          if (cause instanceof TransportError) throw cause;
          const aborted = err?.name === 'AbortError' || req.signal?.aborted === true;
          throw transportError(req, aborted ? 'aborted' : 'network', e);
        }
      }
      const headers = lowercaseHeaders((res.headers ?? {}) as Record<string, string>);
      return { status: res.status, headers, body: await bodyBytes(res.data) };
    },
  };
}

/**
 * The fetch one request runs on: the instance's configured fetch (unwrapped when it is already capped, so
 * a body is buffered once), capped with this request's limit, else the transport's, else the instance's.
 */
function requestFetch(octokit: OctokitLike, own: ResponseCaps, requestLimit: number | undefined) {
  const endpoint = (octokit.request as { endpoint?: { DEFAULTS?: { request?: { fetch?: unknown } } } }).endpoint;
  const configured = endpoint?.DEFAULTS?.request?.fetch as typeof globalThis.fetch | undefined;
  const parts = cappedParts(configured);
  const inner = parts ? parts.inner : configured;
  return cappedFetch(inner, { ...parts?.caps, ...own }, requestLimit);
}
